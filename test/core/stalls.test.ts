// What cannot progress reaches the operator: a chain that never links, a block that fails run after run,
// a fork deeper than the window.
import { describe, expect, it } from 'vitest';
import { STUCK_AFTER_RUNS, isNoticeDue } from '../../lambda/core/health/block-stalls';
import { ChainUnlinkedError } from '../../lambda/core/follow/chain-unlinked';
import { RETRACTION_GRACE_BLOCKS } from '../../lambda/core/scan/retractions';
import { coinbase, contractCall, MemoryChain, transfer } from '../support/memory-chain';
import { config, harness, TOKEN, WATCHED } from './harness';

/** Counts the state writes a run makes, to bound the work of a run that cannot progress. */
function countWrites(h: ReturnType<typeof harness>) {
  const counts = { cursor: 0, blocks: 0 };
  const writeCursor = h.state.writeCursor.bind(h.state);
  const putScannedBlocks = h.state.putScannedBlocks.bind(h.state);
  h.state.writeCursor = (...args) => ((counts.cursor += 1), writeCursor(...args));
  h.state.putScannedBlocks = (...args) => ((counts.blocks += 1), putScannedBlocks(...args));
  return counts;
}

describe('a chain that never links', () => {
  async function unlinkedAt106() {
    const chain = new MemoryChain(100, 1);
    for (let i = 0; i < 5; i++) chain.mine([transfer(WATCHED, String(i + 1))]); // 101..105
    const h = harness(chain, config({ startHeight: 101 }));
    await h.run();
    for (let i = 0; i < 5; i++) chain.mine([coinbase()]); // 106..110
    const bad = chain.blocks.find((b) => b.height === 106)!;
    const realParent = bad.parentHash;
    bad.parentHash = `0x${'ba'.repeat(32)}`;
    return { chain, h, bad, realParent, below: chain.blocks.find((b) => b.height === 105)! };
  }

  it('ends the run after one rewind with an error naming the heights and hashes, the cursor kept', async () => {
    const { chain, h, bad, below } = await unlinkedAt106();
    const writes = countWrites(h);
    const headersBefore = chain.requests.blockHeader ?? 0;

    const error = await h.run().catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ChainUnlinkedError);
    const message = (error as Error).message;
    for (const named of ['block 106', bad.hash, bad.parentHash, 'at 105', below.hash]) expect(message).toContain(named);
    expect((await h.state.readCursor())?.hash).toBe(below.hash);
    // One rewind to 104, block 105 scanned again, then the same mismatch: a handful of writes, not thousands.
    expect(writes.cursor).toBeLessThanOrEqual(3);
    expect(writes.blocks).toBeLessThanOrEqual(1);
    expect((chain.requests.blockHeader ?? 0) - headersBefore).toBeLessThanOrEqual(3);
    expect(h.publisher.ofType('token_transfer')).toHaveLength(5); // nothing sent twice by the rescan
    expect(h.telemetry.logs).toContainEqual(expect.objectContaining({ level: 'error', message }));
  });

  it('is reported to the operator once, with the heights and hashes, and then as a stuck block', async () => {
    const { h, bad } = await unlinkedAt106();

    await expect(h.run()).rejects.toThrow(ChainUnlinkedError);
    expect(h.operator.notices.map((n) => n.kind)).toEqual(['chain-unlinked']);
    expect(h.operator.notices[0]!.subject).toContain('106');
    expect(h.operator.notices[0]!.message).toContain(bad.parentHash);

    for (let run = 2; run <= STUCK_AFTER_RUNS; run++) await expect(h.run()).rejects.toThrow(ChainUnlinkedError);
    expect(h.operator.notices.map((n) => n.kind)).toEqual(['chain-unlinked', 'stuck-block']);
    expect(h.operator.notices[1]!.message).toContain(bad.parentHash);
  });

  it('goes on once the API serves a chain that links again', async () => {
    const { chain, h, bad, realParent } = await unlinkedAt106();
    await expect(h.run()).rejects.toThrow(ChainUnlinkedError);

    bad.parentHash = realParent;
    const summary = await h.run();

    expect(summary.cursor?.height).toBe(chain.tip.height);
    expect(await h.state.readRecord('blockStall')).toBeNull();
  });
});

describe('a block that fails run after run', () => {
  /** Blocks 101..106 with a watched log each; the API cannot serve the events of block 104's transaction. */
  function failingAt104() {
    const chain = new MemoryChain(100, 1);
    for (let i = 0; i < 6; i++) chain.mine([contractCall(TOKEN, [{ repr: `log ${i}` }])]);
    const broken = chain.blocks.find((b) => b.height === 104)!.txs[0]!.txId;
    const getTransactionEvents = chain.getTransactionEvents.bind(chain);
    let fixed = false;
    chain.getTransactionEvents = async (txs) => {
      if (!fixed && txs.some((t) => t.txId === broken)) throw new Error(`the API answers 500 for transaction ${broken}`);
      return getTransactionEvents(txs);
    };
    const h = harness(chain, config({ startHeight: 101 }));
    return { chain, h, broken, fix: () => void (fixed = true) };
  }

  it(`reaches the operator at the ${STUCK_AFTER_RUNS}rd failed run with the block and its cause, not before`, async () => {
    const { h, broken } = failingAt104();

    for (let run = 1; run < STUCK_AFTER_RUNS; run++) await expect(h.run()).rejects.toThrow(/answers 500/);
    expect(h.operator.notices).toEqual([]);
    await expect(h.run()).rejects.toThrow(/answers 500/);

    expect(h.operator.notices).toHaveLength(1);
    const [notice] = h.operator.notices;
    expect(notice!.kind).toBe('stuck-block');
    expect(notice!.subject).toContain('block 104');
    expect(notice!.message).toContain(`the API answers 500 for transaction ${broken}`);
    expect((await h.state.readCursor())?.height).toBe(103);
  });

  it('reminds the operator as the count doubles (3, 6, 12 runs), not every run', async () => {
    const { h } = failingAt104();
    for (let run = 1; run <= 12; run++) await expect(h.run()).rejects.toThrow(/answers 500/);
    expect(h.operator.notices.map((n) => n.subject)).toEqual([
      expect.stringContaining('(3 runs in a row)'),
      expect.stringContaining('(6 runs in a row)'),
      expect.stringContaining('(12 runs in a row)'),
    ]);
    expect([1, 2, 3, 4, 5, 6, 9, 12, 24].filter(isNoticeDue)).toEqual([3, 6, 12, 24]);
  });

  it('forgets the count once a run gets past the block, so a later failure starts again from one', async () => {
    const { chain, h, fix } = failingAt104();
    await expect(h.run()).rejects.toThrow(/answers 500/);
    await expect(h.run()).rejects.toThrow(/answers 500/);
    expect(await h.state.readRecord('blockStall')).toMatchObject({ height: 104, failures: 2 });

    fix();
    await h.run();
    expect(await h.state.readRecord('blockStall')).toBeNull();

    chain.mine([contractCall(TOKEN, [{ repr: 'later' }])]);
    chain.getTransactionEvents = async () => {
      throw new Error('down again');
    };
    await expect(h.run()).rejects.toThrow(/down again/);
    await expect(h.run()).rejects.toThrow(/down again/);
    expect(await h.state.readRecord('blockStall')).toMatchObject({ height: 107, failures: 2, cause: 'down again' });
    expect(h.operator.notices).toEqual([]);
  });

  it('counts an alert left "in flight" run after run as a stuck block', async () => {
    const chain = new MemoryChain(100, 1);
    const tx = transfer(WATCHED, '5');
    chain.mine([tx]); // 101
    const h = harness(chain, config({ startHeight: 101 }));
    // Another run's claim that never completes nor grows stale within these runs.
    const claimAlert = h.state.claimAlert.bind(h.state);
    h.state.claimAlert = async (key, now, staleAfterMs) => (key.includes(tx.txId) ? 'in-flight' : claimAlert(key, now, staleAfterMs));

    for (let run = 1; run <= STUCK_AFTER_RUNS; run++) expect((await h.run()).stoppedBecause).toBe('alert-in-flight');

    expect(h.operator.notices.map((n) => [n.kind, n.subject])).toEqual([['stuck-block', expect.stringContaining('block 101')]]);
  });
});

describe('a fork deeper than the remembered window', () => {
  it('reaches the operator as a notice naming the window and the blocks, besides its metric and alert', async () => {
    const chain = new MemoryChain(99, 1);
    chain.mine([coinbase()]); // 100
    chain.mine([transfer(WATCHED, '8')]); // 101
    const h = harness(chain, config({ startHeight: 100 }));
    await h.run();
    const oldTip = chain.tip.hash;
    chain.reorg(
      2,
      Array.from({ length: 3 + RETRACTION_GRACE_BLOCKS }, () => [coinbase()]),
    ); // replaces 100 and 101

    await h.run();

    expect(h.operator.notices.map((n) => n.kind)).toEqual(['deep-reorg']);
    const [notice] = h.operator.notices;
    expect(notice!.subject).toContain('2 remembered blocks');
    for (const named of ['100 to 101', oldTip, 'rescans from block 99']) expect(notice!.message).toContain(named);
  });
});
