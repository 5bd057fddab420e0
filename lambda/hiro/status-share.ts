// The share of the request budget that contract-status checks may take each cycle: a tenth of what the
// budget allows over one schedule interval, in whole calls of CONTRACT_STATUS_BATCH ids (at least one).
// The rest is left for the blocks, which cannot wait; a long watch list is swept over several cycles.
import type { StatusSweep } from '../core/match/contract-status-sweep';
import { CONTRACT_STATUS_BATCH } from './contract-statuses';

export const STATUS_SHARE = 0.1;

export function contractStatusSweep(requestsPerMinute: number, cycleMs: number): StatusSweep {
  const calls = Math.max(1, Math.floor(requestsPerMinute * (cycleMs / 60_000) * STATUS_SHARE));
  return { contractsPerCycle: calls * CONTRACT_STATUS_BATCH, cycleMs };
}
