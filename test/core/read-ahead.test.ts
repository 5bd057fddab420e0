import { describe, expect, it } from 'vitest';
import { FIRST_READ_AHEAD, MAX_READ_AHEAD } from '../../lambda/core/follow/read-ahead';
import { coinbase, contractCall, MemoryChain, transfer, type ModelTx } from '../support/memory-chain';
import { config, harness, TOKEN, WATCHED } from './harness';

/** Blocks 101..100+count behind a scanned block 100, each with a watched transfer and a watched log. */
function behindBy(count: number): MemoryChain {
  const chain = new MemoryChain(100, 1);
  for (let i = 0; i < count; i++) chain.mine(blockTxs(`${i}`));
  return chain;
}

function blockTxs(tag: string): ModelTx[] {
  return [coinbase(), transfer(WATCHED, `1${tag}`), contractCall(TOKEN, [{ repr: `log ${tag}` }])];
}

/** Records the ids of each events request and which heights were read. */
function spyOn(chain: MemoryChain) {
  const eventCalls: string[][] = [];
  const heightsRead: number[] = [];
  const getTransactionEvents = chain.getTransactionEvents.bind(chain);
  const getBlock = chain.getBlock.bind(chain);
  chain.getTransactionEvents = async (txs) => {
    eventCalls.push(txs.map((t) => t.txId));
    return getTransactionEvents(txs);
  };
  chain.getBlock = async (height) => {
    heightsRead.push(height);
    return getBlock(height);
  };
  return { eventCalls, heightsRead, getBlock };
}

describe('reading blocks ahead while behind the tip', () => {
  it('fetches the events of several blocks in one call rather than one call per block', async () => {
    const chain = behindBy(FIRST_READ_AHEAD + 2);
    const spy = spyOn(chain);
    const h = harness(chain, config({ startHeight: 101 }));

    const summary = await h.run();

    expect(summary.blocksScanned).toBe(FIRST_READ_AHEAD + 2);
    expect(spy.eventCalls.map((ids) => ids.length)).toEqual([FIRST_READ_AHEAD, 2]);
  });

  it('doubles the batch after each full one, up to MAX_READ_AHEAD, so a long catch-up needs few event calls', async () => {
    const chain = behindBy(FIRST_READ_AHEAD + 2 * FIRST_READ_AHEAD + MAX_READ_AHEAD + 3);
    const spy = spyOn(chain);
    const h = harness(chain, config({ startHeight: 101 }));

    await h.run();

    // Each block has one log-carrying transaction, so a call's id count is its batch's block count.
    expect(spy.eventCalls.map((ids) => ids.length)).toEqual([FIRST_READ_AHEAD, 2 * FIRST_READ_AHEAD, MAX_READ_AHEAD, 3]);
  });

  it("still delivers each block's alerts before the stored cursor passes it, in chain order", async () => {
    const chain = behindBy(12);
    const h = harness(chain, config({ startHeight: 101 }));
    const cursorAtPublish: { height: number; cursor: number | undefined }[] = [];
    const publish = h.publisher.publish.bind(h.publisher);
    h.publisher.publish = async (alerts) => {
      const cursor = (await h.state.readCursor())?.height;
      for (const { alert } of alerts) cursorAtPublish.push({ height: (alert as { block_height: number }).block_height, cursor });
      return publish(alerts);
    };

    await h.run();

    expect(cursorAtPublish).toHaveLength(24);
    // The cursor is written once per cycle, so it may lag behind the block being published, never pass it.
    expect(cursorAtPublish.every(({ height, cursor }) => cursor === undefined || cursor < height)).toBe(true);
    const heights = cursorAtPublish.map((p) => p.height);
    expect(heights).toEqual([...heights].sort((a, b) => a - b));
  });

  it('keeps to the new chain when a reorg replaces blocks while a batch is being read', async () => {
    const chain = behindBy(10); // 101..110
    const spy = spyOn(chain);
    const oldBlocks = [...chain.blocks];
    // Like Hiro, the events of a transaction stay readable after its block is orphaned.
    chain.getTransactionEvents = async (txs) =>
      new Map(
        txs.map(({ txId }) => {
          const tx = [...chain.blocks, ...oldBlocks].flatMap((b) => b.txs).find((t) => t.txId === txId)!;
          return [txId, { txId, logs: tx.logs ?? [], assets: [] }];
        }),
      );
    let reorged = false;
    chain.getBlock = async (height) => {
      // The chain is replaced from 104 up just as the batch asks for block 105: 104 was read from the old chain.
      if (height === 105 && !reorged) {
        reorged = true;
        chain.reorg(
          7,
          Array.from({ length: 8 }, (_, i) => blockTxs(`new ${i}`)),
        );
      }
      return spy.getBlock(height);
    };
    const h = harness(chain, config({ startHeight: 101 }));

    const summary = await h.run();

    const txIdsOf = (blocks: typeof oldBlocks, from: number) => blocks.filter((b) => b.height >= from).flatMap((b) => b.txs.map((tx) => tx.txId));
    const alerted = h.publisher.sent.map((a) => (a.alert as { tx_id: string }).tx_id);
    // Old 104 was read before the reorg and is alerted, to be retracted later; nothing past it from the old chain.
    expect(alerted.filter((txId) => txIdsOf(oldBlocks, 105).includes(txId))).toEqual([]);
    const newChainMatches = chain.blocks.filter((b) => b.height >= 104 && b.height <= 110).flatMap((b) => [b.txs[1]!.txId, b.txs[2]!.txId]);
    expect(newChainMatches.filter((txId) => !alerted.includes(txId))).toEqual([]);
    expect(summary.reorgs).toBe(1);
    // The cycle scans up to the tip it read at its start, now block 110 of the new chain.
    expect(summary.cursor).toEqual({ height: 110, hash: chain.blocks.find((b) => b.height === 110)!.hash });
    expect((await h.state.readCursor())?.pendingRetractions?.keys).toHaveLength(2);
  });

  it('reads no further than the blocks the cycle may still scan', async () => {
    const chain = behindBy(20);
    const spy = spyOn(chain);
    const h = harness(chain, config({ startHeight: 101, maxBlocksPerRun: 3 }));

    await h.run();

    expect(spy.heightsRead).toEqual([101, 102, 103]);
  });

  it('holds no more blocks read ahead than the budget allows, and still scans every block once (a small function)', async () => {
    const chain = behindBy(FIRST_READ_AHEAD + MAX_READ_AHEAD);
    const spy = spyOn(chain);
    const h = harness(chain, config({ startHeight: 101 }));

    const summary = await h.run({ readAheadBlocks: 4 });

    expect(spy.eventCalls.map((ids) => ids.length)).toEqual(Array.from({ length: (FIRST_READ_AHEAD + MAX_READ_AHEAD) / 4 }, () => 4));
    expect(spy.heightsRead).toEqual(Array.from({ length: FIRST_READ_AHEAD + MAX_READ_AHEAD }, (_, i) => 101 + i));
    expect(summary.blocksScanned).toBe(FIRST_READ_AHEAD + MAX_READ_AHEAD);
    expect(h.publisher.sent).toHaveLength(2 * (FIRST_READ_AHEAD + MAX_READ_AHEAD));
  });

  it("falls back to one block when a batch's events fail, so the blocks before a bad one still get through", async () => {
    const chain = behindBy(10);
    const bad = chain.blocks.find((b) => b.height === 105)!.txs[2]!.txId;
    const getTransactionEvents = chain.getTransactionEvents.bind(chain);
    chain.getTransactionEvents = async (txs) => {
      if (txs.some((t) => t.txId === bad)) throw new Error('the API cannot find this transaction');
      return getTransactionEvents(txs);
    };
    const h = harness(chain, config({ startHeight: 101 }));

    await expect(h.run()).rejects.toThrow(/cannot find/);

    expect((await h.state.readCursor())?.height).toBe(104);
  });

  it('reads no more blocks ahead than it can read and process before the deadline', async () => {
    const chain = behindBy(40);
    const h = harness(chain, config({ startHeight: 101 }));
    const heightsRead: number[] = [];
    const getBlock = chain.getBlock.bind(chain);
    // Each block read takes a second of the cycle's clock.
    chain.getBlock = async (height) => {
      heightsRead.push(height);
      h.advance(1_000);
      return getBlock(height);
    };

    const summary = await h.run({ deadlineMs: 1_800_000_000_000 + 20_000 });

    expect(summary.stoppedBecause).toBe('time-budget');
    expect(heightsRead).toHaveLength(summary.blocksScanned);
    expect(summary.blocksScanned).toBeLessThan(25);
  });
});
