// `--check` says, under the fetch plan, which way this runner reads (FETCH_WAY): the plan's choice by default
// (auto), the block scan when asked, per subject wherever the rules allow it when asked.
import { describe, expect, it } from 'vitest';
import { describeWatch } from '../../lambda/local/describe';
import { fakeAddress } from '../support/fake-hiro';
import { config } from '../core/harness';

const api = { baseUrl: 'https://api.hiro.so', fromEnvironment: false, requestsPerMinute: 50, hasKey: false, cycleSeconds: 60 };
const bound = config({ addresses: [fakeAddress('alice')] } as never);

describe('--check and the fetch way', () => {
  it('says auto is the default, and what block-scan and per-subject read', () => {
    expect(describeWatch(bound, { ...api, fetchWay: 'block-scan' }, 'watch.json')).toContain(
      '    this runner reads by the block scan (FETCH_WAY=block-scan)\n',
    );
    expect(describeWatch(bound, { ...api, fetchWay: 'auto' }, 'watch.json')).toContain(
      '    this runner reads as the plan says (FETCH_WAY=auto, the default)\n',
    );
    expect(describeWatch(bound, { ...api, fetchWay: 'per-subject' }, 'watch.json')).toContain(
      '    this runner reads per subject wherever the rules allow (FETCH_WAY=per-subject)\n',
    );
  });

  it('says that a per-subject route the API lacks sends the runner to the block scan, asked again once an hour', () => {
    const line =
      '    a per-subject route the API answers 404 to (an older API) sends the runner to the block scan from that block; it is asked again once an hour\n';
    expect(describeWatch(bound, { ...api, fetchWay: 'auto' }, 'watch.json')).toContain(line);
    expect(describeWatch(bound, { ...api, fetchWay: 'per-subject' }, 'watch.json')).toContain(line);
    expect(describeWatch(bound, { ...api, fetchWay: 'block-scan' }, 'watch.json')).not.toContain(line);
  });
});
