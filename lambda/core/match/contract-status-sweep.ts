// Which watched contracts one cycle checks. A watch list longer than a cycle's share of the request budget
// is swept in slices, a slice per cycle, the position derived from the clock and the schedule interval so
// that no state has to remember where the last cycle stopped. Slices overlap by a tenth, so a run that
// starts up to a tenth of an interval late (scheduler jitter, a slow start) skips no contract.
// A first sweep over many contracts is summed up: one alert for the first sights of a cycle, not one each.
import type { Network } from '../domain';
import type { ContractStatusAlert } from '../alert-kinds/contract-status';
import { contractStatusSummaryKind, type ContractStatusSummaryAlert } from '../alert-kinds/contract-status-summary';
import type { RuleMeta } from '../stages/rule-meta';

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

/**
 * More first sights than this in one cycle are summed up in one alert: a first sweep of 10,000 contracts
 * must not send 10,000 emails, while a contract or two added to the config still alert on their own.
 */
export const FIRST_SIGHTS_ALONE_MAX = 5;

/** The cycle's status alerts with its first sights summed up when there are many; changes always alone. */
export function withFirstSightsSummed(
  alerts: readonly ContractStatusAlert[],
  network: Network,
  meta: RuleMeta,
): (ContractStatusAlert | ContractStatusSummaryAlert)[] {
  const firstSights = alerts.filter((alert) => alert.previous === null);
  if (firstSights.length <= FIRST_SIGHTS_ALONE_MAX) return [...alerts];
  return [contractStatusSummaryKind.build({ alerts: firstSights, meta }, network), ...alerts.filter((alert) => alert.previous !== null)];
}
