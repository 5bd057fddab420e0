// Which watched contracts one cycle checks. A watch list longer than a cycle's share of the request budget
// is swept in slices, a slice per cycle, the position derived from the clock and the schedule interval so
// that no state has to remember where the last cycle stopped. Slices overlap by a tenth, so a run that
// starts up to a tenth of an interval late (scheduler jitter, a slow start) skips no contract.

export interface StatusSweep {
  /** The most contracts one cycle checks: a fixed share of the request budget, in whole status calls. */
  contractsPerCycle: number;
  /** How often cycles come (the schedule interval). */
  cycleMs: number;
}

/** How far the sweep moves per interval, as a share of a slice: the rest is the overlap. */
const ADVANCE_SHARE = 0.9;

/** How many contracts the sweep moves on per interval. */
export function sweepStride(sweep: StatusSweep): number {
  return Math.max(1, Math.floor(sweep.contractsPerCycle * ADVANCE_SHARE));
}

/** Cycles (schedule intervals) a full sweep of `count` contracts takes; 1 when they all fit in one. */
export function sweepCycles(count: number, sweep: StatusSweep): number {
  return count <= sweep.contractsPerCycle ? 1 : Math.ceil(count / sweepStride(sweep));
}

/** The contracts to check at `nowMs`: all of them when they fit, else the slice the clock points at. */
export function contractsThisCycle(contracts: readonly string[], sweep: StatusSweep | undefined, nowMs: number): string[] {
  if (!sweep || contracts.length <= sweep.contractsPerCycle) return [...contracts];
  const offset = Math.floor((nowMs / sweep.cycleMs) * sweepStride(sweep)) % contracts.length;
  const slice: string[] = [];
  for (let i = 0; i < sweep.contractsPerCycle; i += 1) slice.push(contracts[(offset + i) % contracts.length]!);
  return slice;
}
