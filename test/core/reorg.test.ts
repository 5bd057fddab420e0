import { describe, expect, it } from 'vitest';
import { findForkPoint } from '../../lambda/core/follow/reorg';
import { RETRACTION_GRACE_BLOCKS } from '../../lambda/core/scan/retractions';
import { coinbase, MemoryChain, transfer } from '../support/memory-chain';
import { config, harness, WATCHED } from './harness';

/** Blocks 99 (not scanned) and 100..100+length (scanned). */
async function scannedChain(length: number) {
  const chain = new MemoryChain(99, 1);
  for (let i = 0; i <= length; i++) chain.mine([coinbase()]);
  const h = harness(chain, config({ startHeight: 100, maxBlocksPerRun: 10_000 }));
  await h.run();
  return h;
}

describe('fork search', () => {
  it.each([
    [1, 2],
    [5, 6],
    [50, 12],
    [300, 18],
  ])('finds a fork of depth %i with at most %i header requests', async (depth, maxRequests) => {
    const h = await scannedChain(400);
    h.chain.reorg(
      depth,
      Array.from({ length: depth + 1 }, () => [coinbase()]),
    );
    const cursor = (await h.state.readCursor())!;
    h.chain.requests = {};
    const search = await findForkPoint(cursor, h.chain, h.state);
    expect(search.forkPoint?.height).toBe(500 - depth);
    expect(search.orphaned).toHaveLength(depth);
    expect(h.chain.requests.blockHeader).toBeLessThanOrEqual(maxRequests);
  });

  it('reports no fork point when no remembered block is canonical', async () => {
    const h = await scannedChain(20);
    h.chain.reorg(
      21,
      Array.from({ length: 22 }, () => [coinbase()]),
    ); // replaces 100..120, all remembered
    const search = await findForkPoint((await h.state.readCursor())!, h.chain, h.state);
    expect(search.forkPoint).toBeNull();
  });
});

describe('reorgs during the scan', () => {
  it('rescans from the fork point and alerts a transaction only once when it is re-mined at another height', async () => {
    const chain = new MemoryChain(100, 1);
    const tx = transfer(WATCHED, '42');
    chain.mine([coinbase()]);
    chain.mine([tx]); // 102
    const h = harness(chain, config({ startHeight: 100 }));
    await h.run();
    chain.reorg(2, [[coinbase()], [coinbase()], [coinbase(), tx]]); // tx now at 103
    const summary = await h.run();
    expect(summary.reorgs).toBe(1);
    expect(summary.cursor).toEqual({ height: 103, hash: chain.tip.hash });
    expect(h.publisher.keys()).toEqual([`token_transfer:${tx.txId}`]);
  });

  it('alerts transactions new on the replacing chain', async () => {
    const chain = new MemoryChain(100, 1);
    chain.mine([coinbase()]);
    const h = harness(chain, config({ startHeight: 100 }));
    await h.run();
    const fresh = transfer(WATCHED, '9');
    chain.reorg(1, [[fresh]]);
    await h.run();
    expect(h.publisher.keys()).toEqual([`token_transfer:${fresh.txId}`]);
  });

  it('retracts an alerted transfer that the new chain no longer carries, once the rescan is past the old height and the grace', async () => {
    const chain = new MemoryChain(100, 1);
    const gone = transfer(WATCHED, '1000000');
    chain.mine([gone]); // 101
    chain.mine([coinbase()]); // 102
    const h = harness(chain, config({ startHeight: 100 }));
    await h.run();
    chain.reorg(2, [[coinbase()]]); // the new chain is at 101 only
    await h.run();
    for (let i = 0; i < RETRACTION_GRACE_BLOCKS; i++) chain.mine([coinbase()]); // up to 102 + grace - 1
    await h.run();
    expect(h.publisher.ofType('retraction')).toHaveLength(0); // it may still come back from the mempool
    chain.mine([coinbase()]);
    await h.run();
    const retractions = h.publisher.ofType('retraction').map((a) => a.alert);
    expect(retractions).toEqual([
      expect.objectContaining({ type: 'retraction', retracts: `token_transfer:${gone.txId}`, tx_id: gone.txId, block_height: 101 }),
    ]);
    expect((await h.state.readCursor())?.pendingRetractions).toBeUndefined();
    expect((await h.state.getAlertRecord(`token_transfer:${gone.txId}`))?.state).toBe('retracted');
  });

  it('does not retract a transfer that comes back within the grace', async () => {
    const chain = new MemoryChain(100, 1);
    const tx = transfer(WATCHED, '1');
    chain.mine([tx]);
    const h = harness(chain, config({ startHeight: 100 }));
    await h.run();
    chain.reorg(1, [[coinbase()], [coinbase()], [coinbase()], [tx]]);
    for (let i = 0; i < RETRACTION_GRACE_BLOCKS + 2; i++) chain.mine([coinbase()]);
    await h.run();
    expect(h.publisher.sent.map((a) => a.alert.type)).toEqual(['token_transfer']);
    expect((await h.state.readCursor())?.pendingRetractions).toBeUndefined();
  });

  it('alerts a retracted transaction again when it comes back on chain later', async () => {
    const chain = new MemoryChain(100, 1);
    const tx = transfer(WATCHED, '5');
    chain.mine([tx]);
    const h = harness(chain, config({ startHeight: 100 }));
    await h.run();
    chain.reorg(
      1,
      Array.from({ length: RETRACTION_GRACE_BLOCKS + 1 }, () => [coinbase()]),
    );
    await h.run();
    chain.mine([tx]);
    await h.run();
    expect(h.publisher.sent.map((a) => a.alert.type)).toEqual(['token_transfer', 'retraction', 'token_transfer']);
  });

  it('keeps pending retractions across runs with the cursor, so a crash mid-rescan loses none', async () => {
    const chain = new MemoryChain(100, 1);
    const gone = transfer(WATCHED, '3');
    chain.mine([gone]);
    for (let i = 0; i < 4; i++) chain.mine([coinbase()]); // up to 105
    const h = harness(chain, config({ startHeight: 100 }));
    await h.run();
    chain.reorg(
      5,
      Array.from({ length: 6 + RETRACTION_GRACE_BLOCKS }, () => [coinbase()]),
    );
    await h
      .run({
        onBlockDone: ({ done }) => {
          if (done === 2) throw new Error('crash');
        },
      })
      .catch(() => {});
    expect((await h.state.readCursor())?.pendingRetractions?.keys).toEqual([`token_transfer:${gone.txId}`]);
    await h.run();
    expect(h.publisher.ofType('retraction')).toHaveLength(1);
  });

  it('reports a fork deeper than the remembered window loudly and rescans what it remembers', async () => {
    const chain = new MemoryChain(99, 1);
    const tx = transfer(WATCHED, '8');
    chain.mine([coinbase()]); // 100
    chain.mine([tx]); // 101
    const h = harness(chain, config({ startHeight: 100 }));
    await h.run();
    chain.reorg(
      2,
      Array.from({ length: 3 + RETRACTION_GRACE_BLOCKS }, () => [coinbase()]),
    ); // replaces 100 and 101
    const summary = await h.run();
    expect(h.publisher.ofType('deep_reorg')).toHaveLength(1);
    expect(h.telemetry.sum('DeepReorgs')).toBe(1);
    expect(h.telemetry.logs.some((l) => l.level === 'error' && /deep reorg/.test(l.message))).toBe(true);
    expect(summary.cursor?.height).toBe(chain.tip.height);
    expect(h.publisher.ofType('retraction')).toHaveLength(1);
  });
});
