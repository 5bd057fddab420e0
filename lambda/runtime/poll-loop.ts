// The Lambda's fast mode: rather than one cycle per scheduled invocation (an event alerted up to a schedule
// interval after its block), keep polling inside the invocation, so that an event is alerted seconds after
// its block. The cost is the invocation's whole duration, waits included.
import type { CycleSummary } from '../core/cycle-types';

export interface PollSchedule {
  /** Between the starts of two cycles; 0 runs the first cycle only. */
  intervalMs: number;
  /** No cycle starts at or after this epoch ms. */
  deadlineMs: number;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
}

/** What a cycle is told about its place in the invocation. */
export interface PollTurn {
  /** No cycle follows this one in the invocation, unless it stops early (then none follows at all). */
  lastPoll: boolean;
}

/**
 * Runs `first`, then `again` every `intervalMs` while each cycle ends caught up with the tip. Cycles start
 * at a fixed rate (not a fixed pause after each), so a slow cycle does not stretch the wait for the next
 * block. A cycle that ends behind the tip, or for any other reason, ends the polling: the next scheduled
 * invocation goes on from its cursor. Each cycle learns whether another will follow it (the SMS digest
 * of an invocation goes out with its last cycle).
 */
export async function pollWhileCaughtUp(
  first: (turn: PollTurn) => Promise<CycleSummary>,
  again: (turn: PollTurn) => Promise<CycleSummary>,
  schedule: PollSchedule,
): Promise<CycleSummary> {
  let startedAt = schedule.now();
  const lastPoll = () => schedule.intervalMs <= 0 || startedAt + schedule.intervalMs >= schedule.deadlineMs;
  let summary = await first({ lastPoll: lastPoll() });
  if (schedule.intervalMs <= 0) return summary;
  while (summary.stoppedBecause === 'caught-up') {
    const nextStart = startedAt + schedule.intervalMs;
    if (nextStart >= schedule.deadlineMs) break;
    const wait = nextStart - schedule.now();
    if (wait > 0) await schedule.sleep(wait);
    startedAt = schedule.now();
    summary = mergeSummaries(summary, await again({ lastPoll: lastPoll() }));
  }
  return summary;
}

/** One summary for the invocation: the last cycle's position, the counts of all of them. */
export function mergeSummaries(a: CycleSummary, b: CycleSummary): CycleSummary {
  const alertsByType = { ...a.alertsByType };
  for (const [type, n] of Object.entries(b.alertsByType)) {
    alertsByType[type as keyof typeof alertsByType] = (alertsByType[type as keyof typeof alertsByType] ?? 0) + n;
  }
  return {
    ...b,
    blocksScanned: a.blocksScanned + b.blocksScanned,
    alertsPublished: a.alertsPublished + b.alertsPublished,
    alertsByType,
    contractsChecked: a.contractsChecked + b.contractsChecked,
    reorgs: a.reorgs + b.reorgs,
    durationMs: a.durationMs + b.durationMs,
  };
}
