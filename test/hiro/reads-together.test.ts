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

describe('a block of more than a page', () => {
  const transfers = (count: number, amount: number) => Array.from({ length: count }, (_, i) => transfer({ to: alice, amount: amount + i }));

  it('has every page asked in one round once the header list read for the tip has told its transaction count', async () => {
    const h = await startHarness();
    h.fake.chain.mine(transfers(3, 1));
    h.fake.chain.mine(transfers(120, 1_000));
    const held = heldFetch(3, 300);
    const client = h.client({ fetch: held.fetch });
    await client.getBlock(1);
    await client.subjects.tip!();
    h.fake.clearLog();

    const block = await client.getBlock(2);

    expect(block?.transactions).toHaveLength(120);
    expect(
      h.fake
        .requestsTo(ROUTES.blockTransactions)
        .map((r) => r.query.get('offset'))
        .sort(),
    ).toEqual(['0', '100', '50']);
    expect(held.most('/transactions')).toBe(3);
  });

  it('throws the pages asked early away when the first page tells another block (replaced since the list was read), and reads the new one whole', async () => {
    const h = await startHarness();
    h.fake.chain.mine(transfers(3, 1));
    h.fake.chain.mine(transfers(120, 1_000));
    const client = h.client();
    await client.getBlock(1);
    await client.subjects.tip!();
    h.fake.chain.reorg(1, [transfers(60, 5_000)]);

    const block = await client.getBlock(2);

    const replacement = h.fake.chain.block(2)!;
    expect(block?.header.hash).toBe(replacement.hash);
    expect(block?.transactions.map((tx) => tx.txId)).toEqual(replacement.txs.map((tx) => tx.txId));
  });

  it('has its first page asked alone by a client whose process has not seen the list answer, so a retired list costs one 410', async () => {
    const h = await startHarness();
    h.fake.chain.mine(transfers(3, 1));
    h.fake.chain.mine(transfers(120, 1_000));
    const client = h.client();
    await client.subjects.tip!();
    h.fake.retire(ROUTES.blockTransactions);

    const block = await client.getBlock(2);

    expect(block?.transactions).toHaveLength(120);
    expect(h.fake.count(ROUTES.blockTransactions)).toBe(1);
  });
});

describe("a transaction's events", () => {
  it('are asked at every offset its event count implies in one round, not one page after the other', async () => {
    const h = await startHarness();
    const logs = Array.from({ length: 250 }, (_, i) => `log ${i}`);
    const block = h.fake.chain.mine([contractCall({ contractId: fakeContractId('vault'), logs })]);
    const big = block.txs[0]!;
    const small = h.fake.chain.mine([contractCall({ contractId: fakeContractId('vault'), logs: ['small'] })]).txs[0]!;
    const retiredRoutes = new RetiredRoutes();
    await h.client({ retiredRoutes }).getTransactionEvents([{ txId: small.txId, eventCount: 1 }]);
    h.fake.clearLog();
    const held = heldFetch(3);

    const events = await h.client({ retiredRoutes, fetch: held.fetch }).getTransactionEvents([{ txId: big.txId, eventCount: big.events.length }]);

    expect(events.get(big.txId)?.logs).toHaveLength(250);
    expect(h.fake.count(ROUTES.txMultiple)).toBe(3);
    expect(held.most('/tx/multiple')).toBe(3);
  });

  it('are asked first page first by a client whose process has not seen the route answer, so a retired route costs one 410', async () => {
    const h = await startHarness();
    const logs = Array.from({ length: 250 }, (_, i) => `log ${i}`);
    const block = h.fake.chain.mine([contractCall({ contractId: fakeContractId('vault'), logs })]);
    const big = block.txs[0]!;
    h.fake.retire(ROUTES.txMultiple);

    const events = await h.client().getTransactionEvents([{ txId: big.txId, eventCount: big.events.length }]);

    expect(events.get(big.txId)?.logs).toHaveLength(250);
    expect(h.fake.count(ROUTES.txMultiple)).toBe(1);
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
