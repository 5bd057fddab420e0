// A big block's pages: a few in flight at once, each folded into the block's transactions as it arrives, and the
// first page that fails cancels the others, so that no request of a failed block goes out behind it and every
// request of the read has settled when it rejects. A caller's signal gives the read up the same way.
import { Cl } from '@stacks/transactions';
import { describe, expect, it } from 'vitest';
import { HiroResponseError } from '../../lambda/hiro';
import { MAX_LISTED_CALL_TEXT, PAGES_IN_FLIGHT } from '../../lambda/hiro/block-bounds';
import { coinbase, contractCall, fakeContractId, ROUTES, type SeenRequest } from '../support/fake-hiro';
import { rejectionOf, startHarness, type Harness } from './harness';

/** 1,000 transactions: 20 pages of the v2 list. */
const BIG_BLOCK = 1_000;
const settle = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const pageAt = (offset: number) => (r: SeenRequest) => r.route === ROUTES.blockTransactions && r.query.get('offset') === String(offset);

async function bigBlock(): Promise<{ h: Harness; height: number }> {
  const h = await startHarness();
  const block = h.fake.chain.mine(Array.from({ length: BIG_BLOCK }, () => coinbase()));
  return { h, height: block.height };
}

/** Requests to the block list the fake has seen, once nothing more arrives for a while (bounded). */
async function pageRequestsWhenQuiet(h: Harness): Promise<number> {
  for (let i = 0; i < 20; i += 1) {
    const before = h.fake.requestsTo(ROUTES.blockTransactions).length;
    await settle(100);
    if (h.fake.requestsTo(ROUTES.blockTransactions).length === before) return before;
  }
  return h.fake.requestsTo(ROUTES.blockTransactions).length;
}

describe('reading a big block page by page', () => {
  it('reads every page of a 1,000-transaction block, in tx_index order', async () => {
    const { h, height } = await bigBlock();

    const block = await h.client().getBlock(height);

    expect(block?.transactions.map((tx) => tx.txIndex)).toEqual(Array.from({ length: BIG_BLOCK }, (_, i) => i));
    expect(h.fake.requestsTo(ROUTES.blockTransactions)).toHaveLength(BIG_BLOCK / 50);
  });

  it("sends no page request past those in flight once a page fails, and rejects with that page's error", async () => {
    const { h, height } = await bigBlock();
    h.fake.faults.use((r) => (pageAt(100)(r) ? { body: 'not json' } : r.route === ROUTES.blockTransactions && !pageAt(0)(r) ? { delayMs: 50 } : undefined));

    const error = await rejectionOf(h.client().getBlock(height));

    expect(error).toBeInstanceOf(HiroResponseError);
    expect(error.message).toContain('offset=100');
    // The first page, then at most PAGES_IN_FLIGHT at once: the failing one and those beside it, no more.
    expect(await pageRequestsWhenQuiet(h)).toBeLessThanOrEqual(1 + PAGES_IN_FLIGHT);
  });

  it("still cancels the other pages of a failed block read under a caller's signal", async () => {
    const { h, height } = await bigBlock();
    h.fake.faults.use((r) => (pageAt(100)(r) ? { body: 'not json' } : r.route === ROUTES.blockTransactions && !pageAt(0)(r) ? { delayMs: 300 } : undefined));

    let cancelled = 0;
    const fetchCounted: typeof fetch = (...args) =>
      fetch(...args).catch((error: unknown) => {
        if (args[1]?.signal?.aborted) cancelled += 1;
        throw error;
      });

    const error = await rejectionOf(h.client({ fetch: fetchCounted }).getBlock(height, new AbortController().signal));

    expect(error).toBeInstanceOf(HiroResponseError);
    expect(await pageRequestsWhenQuiet(h)).toBeLessThanOrEqual(1 + PAGES_IN_FLIGHT);
    // The pages in flight beside the failed one were cancelled, not left to run out.
    expect(cancelled).toBeGreaterThan(0);
  });

  it('has settled every request of the read when it rejects, even when several pages fail', async () => {
    const { h, height } = await bigBlock();
    h.fake.faults.use((r) =>
      r.route === ROUTES.blockTransactions && !pageAt(0)(r) ? { body: 'not json', delayMs: Number(r.query.get('offset')) % 7 } : undefined,
    );
    let inFlight = 0;
    let sentAfterRejection = 0;
    let rejected = false;
    const fetchCounted: typeof fetch = async (...args) => {
      inFlight += 1;
      if (rejected) sentAfterRejection += 1;
      try {
        return await fetch(...args);
      } finally {
        inFlight -= 1;
      }
    };

    const error = await rejectionOf(h.client({ fetch: fetchCounted }).getBlock(height));
    rejected = true;
    const stillInFlight = inFlight;
    await pageRequestsWhenQuiet(h);

    expect(error).toBeInstanceOf(HiroResponseError);
    expect(stillInFlight).toBe(0);
    expect(sentAfterRejection).toBe(0);
  });

  it('gives the read up when the caller aborts: the pages not yet asked for are never sent', async () => {
    const { h, height } = await bigBlock();
    const controller = new AbortController();
    const reason = new Error('given up');
    h.fake.faults.use((r) => (pageAt(0)(r) ? { transform: (body) => (controller.abort(reason), body) } : undefined));

    const error = await rejectionOf(h.client().getBlock(height, controller.signal));

    expect(error).toBe(reason);
    expect(await pageRequestsWhenQuiet(h)).toBeLessThanOrEqual(1 + PAGES_IN_FLIGHT);
  });

  it("keeps a listed call's arguments up to the bound, and leaves bigger ones to be read for a call that alerts", async () => {
    const h = await startHarness();
    const vault = fakeContractId('vault');
    const big = Cl.bufferFromHex('ab'.repeat(MAX_LISTED_CALL_TEXT));
    const block = h.fake.chain.mine([contractCall({ contractId: vault, args: [Cl.uint(7)] }), contractCall({ contractId: vault, args: [big] })]);
    const client = h.client();

    const read = await client.getBlock(block.height);
    const details = await client.getTransactionEvents([{ txId: block.txs[1]!.txId, eventCount: 0, events: false, call: true }]);

    expect(read?.transactions[0]?.contractCall?.args).toEqual(['u7']);
    expect(read?.transactions[1]?.contractCall).toMatchObject({ args: null, resultRepr: null });
    expect(details.get(block.txs[1]!.txId)?.call?.args?.[0]).toHaveLength(2 + 2 * MAX_LISTED_CALL_TEXT);
  });
});
