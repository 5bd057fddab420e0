// `--status` names the config it reads and, with --table, the version the deployed watcher runs and a refused one.
import { describe, expect, it } from 'vitest';
import { emptyWatchConfig } from '../../lambda/config/watch-config';
import { describeStatus } from '../../lambda/local/describe';

const base = {
  statePath: 'DynamoDB table stacks-watch',
  network: 'mainnet',
  config: emptyWatchConfig('mainnet'),
  cursor: null,
  nowMs: 0,
  tip: { height: 10 },
  configPath: 'watch.json',
};

describe('--status and the live watch config', () => {
  it('names the config file, and with --table the deployed version and a refused one with its first problem', () => {
    expect(describeStatus(base)).toContain('watch config: watch.json\n');
    expect(describeStatus({ ...base, liveConfig: { good: { versionId: 'v1', etag: '"e1"' } } })).toContain('deployed watch config: version v1\n');
    const refused = describeStatus({
      ...base,
      liveConfig: {
        good: { versionId: 'v1', etag: '"e1"' },
        rejected: { versionId: 'v2', etag: '"e2"', problems: ['$.addresses[0]: is not a valid Stacks address', '$.x: y'], problemCount: 2 },
      },
    });
    expect(refused).toContain('deployed watch config: version v1; version v2 refused (2 problems: $.addresses[0]: is not a valid Stacks address)');
    expect(describeStatus({ ...base, liveConfig: null })).toContain('deployed watch config: no version taken into use yet');
  });
});
