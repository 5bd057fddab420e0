import { describe, expect, it } from 'vitest';
import type { CycleSummary, StopReason } from '../../lambda/core/cycle-types';
import { mergeSummaries, pollWhileCaughtUp } from '../../lambda/runtime/poll-loop';

function summary(stoppedBecause: StopReason, blocks = 1): CycleSummary {
  return {
    runId: 'r',
    stoppedBecause,
    blocksScanned: blocks,
    alertsPublished: blocks,
    alertsByType: { token_transfer: blocks },
    contractsChecked: 0,
    reorgs: 0,
    cursor: null,
    tip: null,
    lagBlocks: 0,
    lagSeconds: 0,
    durationMs: 100,
  };
}

/** A clock that jumps on sleep; each cycle takes `cycleMs` of it. */
function scheduleFrom(deadlineMs: number, intervalMs: number, cycleMs = 3_000) {
  let now = 0;
  const starts: number[] = [];
  const cycle = (reason: (n: number) => StopReason) => async () => {
    starts.push(now);
    now += cycleMs;
    return summary(reason(starts.length));
  };
  return {
    starts,
    cycle,
    schedule: { intervalMs, deadlineMs, now: () => now, sleep: async (ms: number) => void (now += ms) },
  };
}

describe('polling inside one invocation', () => {
  it('starts a cycle every interval, counted from the start of the one before, until the deadline', async () => {
    const s = scheduleFrom(45_000, 10_000);
    const caughtUp = s.cycle(() => 'caught-up');

    await pollWhileCaughtUp(caughtUp, caughtUp, s.schedule);

    expect(s.starts).toEqual([0, 10_000, 20_000, 30_000, 40_000]);
  });

  it('runs one cycle when the interval is 0', async () => {
    const s = scheduleFrom(45_000, 0);
    const caughtUp = s.cycle(() => 'caught-up');

    await pollWhileCaughtUp(caughtUp, caughtUp, s.schedule);

    expect(s.starts).toEqual([0]);
  });

  it('stops polling when a cycle ends behind the tip, leaving the rest to the next invocation', async () => {
    const s = scheduleFrom(45_000, 10_000);
    const cycle = s.cycle((n) => (n === 2 ? 'max-blocks' : 'caught-up'));

    const result = await pollWhileCaughtUp(cycle, cycle, s.schedule);

    expect(s.starts).toEqual([0, 10_000]);
    expect(result.stoppedBecause).toBe('max-blocks');
  });

  it('adds up the counts of every cycle it ran', async () => {
    const s = scheduleFrom(25_000, 10_000);
    const caughtUp = s.cycle(() => 'caught-up');

    const result = await pollWhileCaughtUp(caughtUp, caughtUp, s.schedule);

    expect(result.blocksScanned).toBe(3);
    expect(result.alertsByType).toEqual({ token_transfer: 3 });
    expect(mergeSummaries(summary('caught-up', 2), summary('caught-up', 5)).alertsPublished).toBe(7);
  });
});
