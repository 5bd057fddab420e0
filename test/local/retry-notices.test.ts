// The runner's log of the Hiro client: a request that is retried is not a warning on the terminal. Through an
// outage a failed cycle is said once (outage.ts), not once per retry of each of its requests.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHiroClient } from '../../lambda/hiro';
import { hiroLog } from '../../lambda/local/local-deps';
import { createFakeHiro, type RunningFakeHiro } from '../support/fake-hiro';

describe('the runner’s log of the client’s retries', () => {
  const fake = createFakeHiro();
  let server: RunningFakeHiro;
  beforeAll(async () => {
    server = await fake.start();
  });
  afterAll(async () => {
    await server.close();
  });

  it('puts each retry of a failing request at debug, so a failed cycle logs no retry warning', async () => {
    const lines: string[] = [];
    const telemetry = { log: (level: string, message: string) => void lines.push(`${level} ${message}`), metric: () => {} };
    const client = createHiroClient({ baseUrl: server.url, requestsPerMinute: 100_000, log: hiroLog(telemetry), sleep: () => Promise.resolve() });
    const stop = fake.faults.use(() => ({ status: 503 }));
    try {
      await expect(client.getTip()).rejects.toThrow(/503/);
    } finally {
      stop();
    }
    expect(lines.filter((line) => line.startsWith('warn'))).toEqual([]);
    expect(lines.filter((line) => line.startsWith('debug') && /retrying/.test(line))).toHaveLength(4);
  });

  it('keeps the client’s other warnings as warnings', () => {
    const lines: string[] = [];
    hiroLog({ log: (level, message) => void lines.push(`${level} ${message}`), metric: () => {} })(
      'warn',
      'a route answered in a shape stacks-watch cannot read',
      { endpoint: 'GET /x' },
    );
    expect(lines).toEqual(['warn a route answered in a shape stacks-watch cannot read']);
  });
});
