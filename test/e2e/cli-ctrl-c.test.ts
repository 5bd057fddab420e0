// Ctrl-C during a catch-up, through the real CLI at the default request budget (50 a minute, no API key):
// the blocks read ahead and still waiting for their turn are never requested, and the runner exits within
// seconds rather than after the whole batch the read-ahead had queued.
import { describe, expect, it } from 'vitest';
import { coinbase, createFakeHiro, fakeAddress, ROUTES } from '../support/fake-hiro';
import { cliSuite } from '../support/cli-suite';
import { runCli } from './run-cli';

const alice = fakeAddress('alice');
/** The client's concurrency: the block reads that may already be on their way when Ctrl-C comes. */
const IN_FLIGHT = 4;

describe('Ctrl-C during a catch-up', () => {
  const suite = cliSuite({
    name: 'ctrl-c',
    fake: createFakeHiro({ deprecationWarnings: false }),
    config: { network: 'mainnet', addresses: [alice], startHeight: 1, confirmations: 0 },
    setup: ({ chain }) => {
      for (let i = 0; i < 200; i += 1) chain.mine([coinbase()]);
    },
  });

  it('sends no block read after "stopping after the current block" beyond those in flight, and exits within seconds', async () => {
    const { fake } = suite;
    const blockReads = () => fake.count(ROUTES.blockTransactions);
    let interruptedAt: number | null = null;
    let readsAtStopping: number | null = null;
    let poll: ReturnType<typeof setInterval> | undefined;
    // The default budget: no STACKS_API_RPM, so the client spaces requests 1.2 s apart once its burst is spent.
    const run = await runCli(
      ['--config', suite.configPath, '--state', suite.path('state.json'), '--no-network-check'],
      // The block scan's catch-up, whose block reads the read-ahead queues.
      { STACKS_API_URL: suite.server.url, FETCH_WAY: 'block-scan' },
      {
        timeoutMs: 60_000,
        onSpawn: (child) => {
          // Past the first batch and its burst: the second batch is queued in the client, paced.
          poll = setInterval(() => {
            if (interruptedAt === null && blockReads() >= 30) {
              interruptedAt = Date.now();
              child.kill('SIGINT');
            }
          }, 20);
        },
        onStderr: (chunk) => {
          if (readsAtStopping === null && chunk.includes('stopping after the current block')) readsAtStopping = blockReads();
        },
      },
    );
    clearInterval(poll);
    const exitedAfterMs = Date.now() - interruptedAt!;
    expect(interruptedAt, run.stderr).not.toBeNull();
    expect(readsAtStopping, run.stderr).not.toBeNull();
    expect(run.code, run.stderr).toBe(0);
    expect(blockReads() - readsAtStopping!).toBeLessThanOrEqual(IN_FLIGHT);
    // A bound, not a measure: the batch the read-ahead used to wait for took most of a minute.
    expect(exitedAfterMs).toBeLessThan(10_000);
  }, 70_000);
});
