// The watcher's watch on itself: each schedule tick judges the lag from the cursor it reads, and the operations
// topic hears of a stall once, with its cause, and once more when the watcher moves again.
import { describe, expect, it } from 'vitest';
import { ChainUnlinkedError } from '../../lambda/core/follow/chain-unlinked';
import type { BlockStall, OperatorNotice } from '../../lambda/core/ports';
import { checkProgress, type SelfWatchCheck, type StallFlag } from '../../lambda/core/health/self-watch';

const NOW = Date.parse('2026-11-26T12:00:00Z');
const LIMIT = 600;

function world(options: { stall?: BlockStall | null; tip?: number | null; flag?: StallFlag | null } = {}) {
  const notices: OperatorNotice[] = [];
  const state = { flag: options.flag ?? null, flagWrites: 0, stallReads: 0, tipReads: 0 };
  const deps = {
    store: {
      readBlockStall: async () => ((state.stallReads += 1), options.stall ?? null),
      writeStallFlag: async (flag: StallFlag | null) => {
        state.flag = flag;
        state.flagWrites += 1;
      },
    },
    operator: { notify: async (n: OperatorNotice) => void notices.push(n) },
    tipHeight: async () => ((state.tipReads += 1), options.tip ?? null),
  };
  const check = (cursorAgeSeconds: number, extra: Partial<SelfWatchCheck> = {}): SelfWatchCheck => ({
    nowMs: NOW,
    point: { cursor: { height: 100, time: NOW / 1000 - cursorAgeSeconds }, stall: state.flag },
    lagLimitSeconds: LIMIT,
    confirmations: 0,
    ...extra,
  });
  return { deps, notices, state, check };
}

describe('the self-watch on each tick', () => {
  it('does nothing while the cursor is within the lag limit: no write, no extra read, no notice', async () => {
    const w = world({ tip: 101 });
    expect(await checkProgress(w.deps, w.check(LIMIT))).toBe('moving');
    expect(w.notices).toEqual([]);
    expect(w.state).toMatchObject({ flagWrites: 0, stallReads: 0, tipReads: 0 });
  });

  it('judges nothing before the first cursor', async () => {
    const w = world();
    expect(await checkProgress(w.deps, { ...w.check(0), point: { cursor: null, stall: null } })).toBe('no-cursor');
    expect(w.notices).toEqual([]);
  });

  it('pages a block that fails run after run with its height and cause, once, and sets the flag', async () => {
    const w = world({ stall: { height: 101, failures: 12, since: NOW - 700_000, cause: 'SNS InternalError: try later' }, tip: 105 });
    expect(await checkProgress(w.deps, w.check(LIMIT + 1))).toBe('stalled');
    expect(w.notices).toHaveLength(1);
    expect(w.notices[0]!.kind).toBe('watcher-stalled');
    expect(w.notices[0]!.subject).toMatch(/stuck at block 101/);
    expect(w.notices[0]!.message).toContain('SNS InternalError: try later');
    expect(w.state.flag).toEqual({ cause: 'stuck-block', since: NOW });

    expect(await checkProgress(w.deps, w.check(LIMIT + 61))).toBe('still-stalled');
    expect(w.notices).toHaveLength(1);
    expect(w.state.flagWrites).toBe(1);
  });

  it('pages a chain that does not link as such, naming the block', async () => {
    const cause = new ChainUnlinkedError({ height: 101, hash: '0xaa', parentHash: '0xbb', belowHash: '0xcc' }).message;
    const w = world({ stall: { height: 101, failures: 4, since: NOW - 700_000, cause } });
    await checkProgress(w.deps, w.check(LIMIT + 1));
    expect(w.notices[0]!.subject).toMatch(/chain does not link at block 101/);
    expect(w.notices[0]!.message).toContain('0xbb');
    expect(w.state.flag?.cause).toBe('chain-unlinked');
  });

  it('pages a loop that died when the tick found it silent and the cursor is past the limit', async () => {
    const w = world({ tip: 140 });
    await checkProgress(w.deps, w.check(LIMIT + 1, { loopDied: { silentMs: 650_000 } }));
    expect(w.notices[0]!.subject).toMatch(/loop/);
    expect(w.notices[0]!.message).toMatch(/650 s/);
    expect(w.state.flag?.cause).toBe('loop-died');
  });

  it('pages a watcher behind the tip with how far, asking the tip only then', async () => {
    const w = world({ tip: 160 });
    await checkProgress(w.deps, w.check(LIMIT + 1));
    expect(w.state.tipReads).toBe(1);
    expect(w.notices[0]!.subject).toMatch(/60 blocks behind/);
    expect(w.state.flag?.cause).toBe('behind');
  });

  it('pages a chain whose tip has not moved past the cursor as a quiet chain, counting confirmations', async () => {
    const w = world({ tip: 103 });
    await checkProgress(w.deps, w.check(LIMIT + 1, { confirmations: 3 }));
    expect(w.notices[0]!.subject).toMatch(/no new block/);
    expect(w.state.flag?.cause).toBe('chain-quiet');
  });

  it('still pages when the tip cannot be read, saying so', async () => {
    const w = world({ tip: null });
    await checkProgress(w.deps, w.check(LIMIT + 1));
    expect(w.notices[0]!.message).toMatch(/tip could not be read/);
    expect(w.state.flag?.cause).toBe('behind');
  });

  it('says "moving again" once the cursor is back within the limit, and clears the flag', async () => {
    const w = world({ flag: { cause: 'stuck-block', since: NOW - 900_000 } });
    expect(await checkProgress(w.deps, w.check(5))).toBe('moving-again');
    expect(w.notices).toHaveLength(1);
    expect(w.notices[0]!.kind).toBe('watcher-moving');
    expect(w.notices[0]!.subject).toMatch(/moving again/);
    expect(w.notices[0]!.message).toMatch(/stuck at a block/);
    expect(w.state.flag).toBeNull();
    expect(await checkProgress(w.deps, w.check(5))).toBe('moving');
    expect(w.notices).toHaveLength(1);
  });

  it('keeps a stall whose notice was sent but not flagged paging again at the next tick rather than lost', async () => {
    const w = world({ tip: 160 });
    w.deps.store.writeStallFlag = async () => {
      throw new Error('throttled');
    };
    await expect(checkProgress(w.deps, w.check(LIMIT + 1))).rejects.toThrow('throttled');
    expect(w.notices).toHaveLength(1);
  });
});
