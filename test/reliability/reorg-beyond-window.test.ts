// A fork deeper than the REMEMBERED_BLOCKS blocks the state remembers: the watcher cannot find the fork point,
// so it says so loudly (an error log, the DeepReorgs metric, a deep_reorg alert to the operator) and
// rescans the whole window, confirming or retracting every alert it remembers. It is never skipped in
// silence. On the in-memory chain: scanning twice a thousand blocks over HTTP would only make it slower.
import { describe, expect, it } from 'vitest';
import type { DeepReorgAlert, RetractionAlert } from '../../lambda/core/alert-kinds/alert';
import { REMEMBERED_BLOCKS } from '../../lambda/core/follow/reorg';
import { RETRACTION_GRACE_BLOCKS } from '../../lambda/core/scan/retractions';
import { config, harness, WATCHED } from '../core/harness';
import { coinbase, MemoryChain, transfer, type ModelTx } from '../support/memory-chain';

const FIRST = 100;
const SCANNED = REMEMBERED_BLOCKS + 20;

describe(`a fork deeper than the ${REMEMBERED_BLOCKS}-block window`, () => {
  it('is reported to the operator, and every remembered alert is confirmed or retracted', async () => {
    const chain = new MemoryChain(FIRST - 1, 1);
    const top = FIRST + SCANNED - 1;
    // Alerts near the top of the window (one lost, one that comes back) and one below the window.
    const below = transfer(WATCHED, '1');
    const lost = transfer(WATCHED, '2');
    const kept = transfer(WATCHED, '3');
    for (let height = FIRST; height <= top; height++) {
      const txs: ModelTx[] = [coinbase()];
      if (height === FIRST + 5) txs.push(below);
      if (height === top - 3) txs.push(lost);
      if (height === top - 2) txs.push(kept);
      chain.mine(txs);
    }
    const h = harness(chain, config({ startHeight: FIRST, maxBlocksPerRun: 5_000 }));
    await h.run();
    const cursorBefore = (await h.state.readCursor())!;
    expect(cursorBefore.height).toBe(top);

    // Replace everything from FIRST: deeper than the window. `kept` comes back; a new transfer appears.
    const fresh = transfer(WATCHED, '4');
    const depth = SCANNED;
    const replacement: ModelTx[][] = Array.from({ length: depth + 1 + RETRACTION_GRACE_BLOCKS }, () => [coinbase()]);
    replacement[depth - 2]!.push(kept);
    replacement[depth]!.push(fresh);
    chain.reorg(depth, replacement);
    const summary = await h.run();

    const deep = h.publisher.ofType('deep_reorg').map((a) => a.alert as DeepReorgAlert);
    expect(deep).toEqual([expect.objectContaining({ cursor_height: top, cursor_hash: cursorBefore.hash, window: REMEMBERED_BLOCKS + 1 })]);
    expect(h.telemetry.sum('DeepReorgs')).toBe(1);
    expect(h.telemetry.logs).toContainEqual(expect.objectContaining({ level: 'error', message: expect.stringMatching(/deep reorg/) }));
    expect(summary).toMatchObject({ stoppedBecause: 'caught-up', cursor: { height: chain.tip.height, hash: chain.tip.hash } });

    const retracted = h.publisher.ofType('retraction').map((a) => (a.alert as RetractionAlert).retracts);
    expect(retracted).toEqual([`token_transfer:${lost.txId}`]);
    const transfers = h.publisher.ofType('token_transfer').map((a) => a.alert.key);
    expect(transfers.filter((k) => k === `token_transfer:${kept.txId}`)).toHaveLength(1);
    expect(transfers.filter((k) => k === `token_transfer:${fresh.txId}`)).toHaveLength(1);
    // Below the window nothing can be checked: the deep_reorg alert is the operator's notice of that.
    expect(retracted).not.toContain(`token_transfer:${below.txId}`);
  });
});
