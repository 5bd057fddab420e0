// The parallel requests of one events read (a /tx/multiple batch per call, a v3 request per transaction, the call
// details beside them) settle together: the first failure cancels the others, none is sent after it, none is in
// flight when the read rejects, and a second failure is never left unhandled. A caller's signal gives it up.
import { describe, expect, it } from 'vitest';
import { HiroResponseError } from '../../lambda/hiro';
import { contractCall, fakeContractId, ROUTES } from '../support/fake-hiro';
import { rejectionOf, startHarness, type Harness } from './harness';

const vault = fakeContractId('vault');

/** A fetch that counts the requests in flight, and those started once `closed()` was called. */
function countingFetch() {
  let inFlight = 0;
  let closed = false;
  let startedAfter = 0;
  const counted: typeof fetch = async (...args) => {
    inFlight += 1;
    if (closed) startedAfter += 1;
    try {
      return await fetch(...args);
    } finally {
      inFlight -= 1;
    }
  };
  return { fetch: counted, close: () => ((closed = true), inFlight), startedAfter: () => startedAfter };
}

async function manyCalls(h: Harness, count: number): Promise<string[]> {
  const block = h.fake.chain.mine(Array.from({ length: count }, (_, i) => contractCall({ contractId: vault, logs: [`log-${i}`] })));
  return block.txs.map((tx) => tx.txId);
}

const settle = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

describe('an events read whose requests fail', () => {
  it('on v3, sends nothing after the first failure and has nothing in flight when it rejects', async () => {
    const h = await startHarness();
    const txIds = await manyCalls(h, 40);
    h.fake.retire(ROUTES.txMultiple);
    h.fake.faults.use((r) => (r.route === ROUTES.v3TransactionEvents ? { body: 'not json', delayMs: r.seq % 5 } : undefined));
    const counting = countingFetch();

    const error = await rejectionOf(h.client({ fetch: counting.fetch }).getTransactionEvents(txIds.map((txId) => ({ txId, eventCount: 1 }))));
    const inFlight = counting.close();
    await settle(200);

    expect(error).toBeInstanceOf(HiroResponseError);
    expect(inFlight).toBe(0);
    expect(counting.startedAfter()).toBe(0);
    // The first request alone goes out before any answer (the 410 of the retired route), then a concurrency's worth.
    expect(h.fake.requestsTo(ROUTES.v3TransactionEvents).length).toBeLessThanOrEqual(4);
  });

  it('cancels the call details beside the events when the events fail', async () => {
    const h = await startHarness();
    const txIds = await manyCalls(h, 12);
    h.fake.faults.use((r) => (r.route === ROUTES.txMultiple ? { body: 'not json' } : r.route === ROUTES.v3Transaction ? { delayMs: 30 } : undefined));
    const counting = countingFetch();

    const error = await rejectionOf(h.client({ fetch: counting.fetch }).getTransactionEvents(txIds.map((txId) => ({ txId, eventCount: 1, call: true }))));
    const inFlight = counting.close();
    await settle(200);

    expect(error).toBeInstanceOf(HiroResponseError);
    expect(inFlight).toBe(0);
    expect(counting.startedAfter()).toBe(0);
    expect(h.fake.requestsTo(ROUTES.v3Transaction).length).toBeLessThan(txIds.length);
  });
});
