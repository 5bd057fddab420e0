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

/**
 * Runs `first`, then `again` every `intervalMs` while each cycle ends caught up with the tip. Cycles start
 * at a fixed rate (not a fixed pause after each), so a slow cycle does not stretch the wait for the next
 * block. A cycle that ends behind the tip, or for any other reason, ends the polling: the next scheduled
 * invocation goes on from its cursor.
 */
export async function pollWhileCaughtUp(
  first: () => Promise<CycleSummary>,
  again: () => Promise<CycleSummary>,
  schedule: PollSchedule,
): Promise<CycleSummary> {
  let startedAt = schedule.now();
  let summary = await first();
  if (schedule.intervalMs <= 0) return summary;
  while (summary.stoppedBecause === 'caught-up') {
    const nextStart = startedAt + schedule.intervalMs;
    if (nextStart >= schedule.deadlineMs) break;
    const wait = nextStart - schedule.now();
    if (wait > 0) await schedule.sleep(wait);
    startedAt = schedule.now();
    summary = mergeSummaries(summary, await again());
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
