// An API that accepts a request and never answers, near the end of a run: the request is given only the time the
// run has left, whatever the client's own timeout, so the run ends at its deadline as an API backoff, with the
// blocks it finished saved, instead of running past it (and past the Lambda's timeout).
import { afterEach, describe, expect, it } from 'vitest';
import { DocumentStateStore, emptyDocument } from '../../lambda/adapters/file/state-document';
import { coinbase, createFakeHiro, ROUTES, transfer, type RunningFakeHiro } from '../support/fake-hiro';
import { alice, watcher } from './watched-chain';

let server: RunningFakeHiro | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('a hanging API near the run deadline', () => {
  it('ends the run by its deadline (an API backoff, or the time budget spent), never past the block that hung', async () => {
    const fake = createFakeHiro();
    fake.chain.mine([coinbase()]);
    fake.chain.mine([transfer({ to: alice, amount: 1 })]);
    fake.chain.mine([transfer({ to: alice, amount: 2 })]);
    fake.faults.use((r) => (r.route === ROUTES.blockTransactions && r.path.includes('/blocks/3/') ? { delayMs: 5_000 } : undefined));
    server = await fake.start();
    const deadlineMs = Date.now() + 600;
    const w = watcher(
      server.url,
      new DocumentStateStore(emptyDocument('mainnet')),
      undefined,
      { timeoutMs: 4_000, deadline: () => deadlineMs },
      { deadlineMs },
    );

    const summary = await w.run();

    expect(['api-backoff', 'time-budget']).toContain(summary.stoppedBecause);
    expect(Date.now() - deadlineMs).toBeLessThan(500);
    // Never past the block that hung, and every alert up to the cursor sent.
    const height = (await w.state.readCursor())?.height ?? 0;
    expect(height).toBeLessThan(3);
    expect(w.publisher.keys().length).toBe(height >= 2 ? 1 : 0);
  });
});
