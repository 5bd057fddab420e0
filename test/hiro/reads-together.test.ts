// Reads the client sends together rather than one after the other: each round trip saved is billed time and
// alert latency saved on every loop turn. A fetch that holds each request until the next one arrives tells.
import { describe, expect, it } from 'vitest';
import { RetiredRoutes } from '../../lambda/hiro';
import { contractCall, fakeAddress, fakeContractId, ROUTES, transfer } from '../support/fake-hiro';
import { heldFetch, startHarness } from './harness';

const alice = fakeAddress('alice');

describe('a batch of blocks', () => {
  it('is asked all at once by a later client of a process that has seen the transaction list answer', async () => {
    const h = await startHarness();
    for (let i = 0; i < 3; i++) h.fake.chain.mine([transfer({ to: alice, amount: 1_000 + i })]);
    const retiredRoutes = new RetiredRoutes();
    await h.client({ retiredRoutes }).getBlock(1);
    const held = heldFetch(2);

    const later = h.client({ retiredRoutes, fetch: held.fetch });
    const blocks = await Promise.all([later.getBlock(2), later.getBlock(3)]);

    expect(blocks.map((b) => b?.header.height)).toEqual([2, 3]);
    expect(held.most('/transactions')).toBe(2);
  });

  it('has its first block asked alone by a client whose process has not seen the list answer, so a retired list costs one 410', async () => {
    const h = await startHarness();
    for (let i = 0; i < 3; i++) h.fake.chain.mine([transfer({ to: alice, amount: 1_000 + i })]);
    h.fake.retire(ROUTES.blockTransactions);
    const held = heldFetch(2, 200);

    const client = h.client({ retiredRoutes: new RetiredRoutes(), fetch: held.fetch });
    const blocks = await Promise.all([client.getBlock(2), client.getBlock(3)]);

    expect(blocks.map((b) => b?.header.height)).toEqual([2, 3]);
    expect(h.fake.count(ROUTES.blockTransactions)).toBe(1);
  });
});

describe("a transaction's events", () => {
  it('are asked at every offset its event count implies in one round, not one page after the other', async () => {
    const h = await startHarness();
    const logs = Array.from({ length: 250 }, (_, i) => `log ${i}`);
    const block = h.fake.chain.mine([contractCall({ contractId: fakeContractId('vault'), logs })]);
    const big = block.txs[0]!;
    const held = heldFetch(3);

    const events = await h.client({ fetch: held.fetch }).getTransactionEvents([{ txId: big.txId, eventCount: big.events.length }]);

    expect(events.get(big.txId)?.logs).toHaveLength(250);
    expect(h.fake.count(ROUTES.txMultiple)).toBe(3);
    expect(held.most('/tx/multiple')).toBe(3);
  });

  it('are asked again past a full last page when the answer counts more than the block list did', async () => {
    const h = await startHarness();
    const logs = Array.from({ length: 150 }, (_, i) => `log ${i}`);
    const block = h.fake.chain.mine([contractCall({ contractId: fakeContractId('vault'), logs })]);
    const big = block.txs[0]!;

    const events = await h.client().getTransactionEvents([{ txId: big.txId, eventCount: 20 }]);

    expect(events.get(big.txId)?.logs).toHaveLength(150);
    expect(h.fake.requestsTo(ROUTES.txMultiple).map((r) => r.query.get('event_offset'))).toEqual(['0', '100']);
    expect(h.logs.filter((l) => l.level === 'warn')).toEqual([]);
  });
});
