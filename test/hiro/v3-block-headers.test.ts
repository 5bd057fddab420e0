// Block headers and the tip from the v3 block routes (API 9.7.0) once the v2 header route is retired: 30
// headers a request from the newest-first list, each block's parent named by the block below it in the same
// answer; a block too far below the list read on its own; and where the routes are missing or answer a shape
// the client cannot read, the transaction list's headers, with the operator told once.
import { describe, expect, it } from 'vitest';
import { coinbase, ROUTES, transfer, fakeAddress, type FakeBlock } from '../support/fake-hiro';
import { HiroInconsistentDataError } from '../../lambda/hiro';
import { rejectionOf, startHarness } from './harness';

const alice = fakeAddress('alice');
const ALL_DEPRECATED = [ROUTES.blockTransactions, ROUTES.txMultiple, ROUTES.block];

function mineBlocks(chain: { mine(txs: ReturnType<typeof transfer>[]): FakeBlock }, count: number): FakeBlock[] {
  return Array.from({ length: count }, (_, i) => chain.mine([transfer({ to: alice, amount: 1_000 + i })]));
}

const headerOf = (block: FakeBlock, parentHash: string | null) => ({
  height: block.height,
  hash: block.hash,
  parentHash,
  time: block.time,
  txCount: block.txs.length,
  burnHeight: block.burnBlockHeight,
});

describe('block headers from the v3 block list once every deprecated route answers 410', () => {
  it('reads 60 blocks with two list pages, each block linked to the one below it within a page', async () => {
    const h = await startHarness();
    const blocks = mineBlocks(h.fake.chain, 60);
    h.fake.retire(...ALL_DEPRECATED);
    const client = h.client();

    const read = [];
    for (const block of blocks) read.push(await client.getBlock(block.height));

    expect(h.fake.count(ROUTES.v3Blocks)).toBe(2);
    expect(h.fake.requestsTo(ROUTES.v3Blocks).every((r) => r.query.get('limit') === '30')).toBe(true);
    // Block 31 is the lowest of the newest page: its parent is on the other page, so it is left unnamed.
    expect(read.map((b) => b?.header)).toEqual(blocks.map((block, i) => headerOf(block, i === 0 || i === 30 ? null : blocks[i - 1]!.hash)));
  });

  it('names an empty block by its own hash and time, which its transaction list cannot tell', async () => {
    const h = await startHarness();
    h.fake.chain.mine([coinbase()]);
    const [empty] = h.fake.chain.mineEmpty(1);
    h.fake.chain.mine([coinbase()]);
    h.fake.retire(...ALL_DEPRECATED);

    const read = await h.client().getBlock(empty!.height);

    expect(read).toEqual({ header: headerOf(empty!, h.fake.chain.block(1)!.hash), transactions: [] });
  });

  it('reads the v2 field names as well as the v3 ones', async () => {
    const h = await startHarness({ v3BlockShape: 'v2-names' });
    const blocks = mineBlocks(h.fake.chain, 3);
    h.fake.retire(...ALL_DEPRECATED);

    const read = await h.client().getBlock(blocks[2]!.height);

    expect(read?.header).toEqual(headerOf(blocks[2]!, blocks[1]!.hash));
    expect(h.fake.count(ROUTES.v3Blocks)).toBe(1);
  });

  it('reads a block more than 20 pages below the newest from the single-block route, parent included', async () => {
    const h = await startHarness();
    const blocks = mineBlocks(h.fake.chain, 20 * 30 + 40);
    h.fake.retire(...ALL_DEPRECATED);

    const read = await h.client().getBlock(2);

    expect(read?.header).toEqual(headerOf(blocks[1]!, blocks[0]!.hash));
    expect(h.fake.count(ROUTES.v3Blocks)).toBe(1);
    expect(h.fake.requestsTo(ROUTES.v3Block).map((r) => r.path)).toEqual(['/extended/v3/blocks/2']);
  });

  it('looks a header up by hash on the single-block route, null once the block is no longer canonical', async () => {
    const h = await startHarness();
    const [old] = mineBlocks(h.fake.chain, 1);
    h.fake.retire(...ALL_DEPRECATED);
    const client = h.client();
    expect(await client.getBlockHeader(old!.hash)).toEqual(headerOf(old!, old!.parentHash));

    h.fake.chain.reorg(1, [[coinbase()]]);

    expect(await client.getBlockHeader(old!.hash)).toBeNull();
    expect(client.takeApiDeprecations().filter((d) => d.unreadable)).toEqual([]);
  });

  it('tells a block the API does not know from a missing route when the first v3 answer is a 404', async () => {
    const h = await startHarness();
    mineBlocks(h.fake.chain, 2);
    h.fake.retire(...ALL_DEPRECATED);
    const client = h.client();

    const unknown = await client.getBlockHeader(`0x${'ab'.repeat(32)}`);
    const known = await client.getBlock(2);

    expect(unknown).toBeNull();
    expect(known?.header.parentHash).toBe(h.fake.chain.block(1)!.hash);
    expect(client.takeApiDeprecations().filter((d) => d.unreadable)).toEqual([]);
    // The list read to tell the two apart serves the block that follows.
    expect(h.fake.count(ROUTES.v3Blocks)).toBe(1);
  });

  it('takes the tip from the newest list page once it reads headers there, which also serves the next blocks', async () => {
    const h = await startHarness();
    mineBlocks(h.fake.chain, 5);
    h.fake.retire(...ALL_DEPRECATED);
    const client = h.client();
    await client.getBlock(1);
    const before = h.fake.count();
    const newer = mineBlocks(h.fake.chain, 2);

    const tip = await client.getTip();
    await client.getBlock(newer[0]!.height);
    await client.getBlock(newer[1]!.height);

    expect(tip).toEqual({ height: newer[1]!.height, hash: newer[1]!.hash, indexBlockHash: newer[1]!.indexBlockHash, burnHeight: newer[1]!.burnBlockHeight });
    expect(h.fake.requests.slice(before).map((r) => r.route)).toEqual([ROUTES.v3Blocks, ROUTES.v3BlockTransactions, ROUTES.v3BlockTransactions]);
  });
});

describe('headers read before a reorg', () => {
  it('refuses a block whose new transactions disagree with the header read before, then reads it against a fresh list', async () => {
    const h = await startHarness();
    mineBlocks(h.fake.chain, 5);
    h.fake.retire(...ALL_DEPRECATED);
    const client = h.client();
    await client.getBlock(3);
    const [, replaced] = h.fake.chain.reorg(2, [[coinbase()], [coinbase(), coinbase()]]);

    const error = await rejectionOf(client.getBlock(5));
    const again = await client.getBlock(5);

    expect(error).toBeInstanceOf(HiroInconsistentDataError);
    expect(again?.header).toEqual(headerOf(replaced!, h.fake.chain.block(4)!.hash));
  });
});

describe('when the v3 block routes cannot serve headers', () => {
  it('falls back to the transaction list on an API without them (before 9.7.0), telling the operator once', async () => {
    const h = await startHarness({ v3BlockShape: 'absent' });
    const blocks = mineBlocks(h.fake.chain, 3);
    h.fake.retire(...ALL_DEPRECATED);
    const client = h.client();

    const read = [await client.getBlock(2), await client.getBlock(3)];

    expect(read.map((b) => b?.header)).toEqual([headerOf(blocks[1]!, null), headerOf(blocks[2]!, null)]);
    expect(h.fake.count(ROUTES.v3Blocks)).toBe(1);
    const unreadable = client.takeApiDeprecations().filter((d) => d.unreadable);
    expect(unreadable).toEqual([
      expect.objectContaining({ route: 'GET /extended/v3/blocks', replacement: ROUTES.v3BlockTransactions, detail: expect.stringMatching(/404.*9\.7\.0/) }),
    ]);
    expect(client.takeApiDeprecations().filter((d) => d.unreadable)).toEqual([]);
  });

  it('falls back on a list it cannot read, naming what is wrong, and never asks the list again', async () => {
    const h = await startHarness({ v3BlockShape: 'unknown' });
    const blocks = mineBlocks(h.fake.chain, 2);
    h.fake.retire(...ALL_DEPRECATED);
    const client = h.client();

    const first = await client.getBlock(1);
    const second = await client.getBlock(2);
    const byHash = await client.getBlockHeader(blocks[1]!.hash);

    expect([first?.header, second?.header, byHash]).toEqual([headerOf(blocks[0]!, null), headerOf(blocks[1]!, null), headerOf(blocks[1]!, null)]);
    expect(h.fake.count(ROUTES.v3Blocks)).toBe(1);
    expect(h.fake.count(ROUTES.v3Block)).toBe(0);
    expect(h.logs.filter((l) => /cannot read/.test(l.message))).toHaveLength(1);
    expect(client.takeApiDeprecations().find((d) => d.unreadable)?.detail).toMatch(/results\[0\]: height: missing/);
  });

  it('refuses a list whose heights do not fall one by one, and falls back', async () => {
    const h = await startHarness();
    const blocks = mineBlocks(h.fake.chain, 3);
    h.fake.retire(...ALL_DEPRECATED);
    h.fake.faults.once({ transform: (b) => ({ ...(b as object), results: [...(b as { results: unknown[] }).results].reverse() }) }, ROUTES.v3Blocks);
    const client = h.client();

    const read = await client.getBlock(3);

    expect(read?.header).toEqual(headerOf(blocks[2]!, null));
    expect(client.takeApiDeprecations().find((d) => d.unreadable)?.detail).toMatch(/results\[1\] is block 2 after block 1/);
  });
});
