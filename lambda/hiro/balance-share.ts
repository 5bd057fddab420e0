// The share of the request budget that balance reads may take each run: a fifth of what the budget allows over
// one run's interval (10 reads a one-minute run without an API key, 100 with one), at least one. The rest stays
// for the tip, the contract statuses (status-share.ts) and the blocks, which are scanned every run; balance rules
// past the share start over several runs (lambda/core/stages/balance-reads.ts).
import type { BalanceReadAllowance } from '../core/stages/balance-reads';

export const BALANCE_SHARE = 0.2;

/** The most balance reads (one per address) a run makes when runs come every `intervalMs`. */
export function balanceReadsPerRun(requestsPerMinute: number, intervalMs: number): number {
  return Math.max(1, Math.floor(requestsPerMinute * (intervalMs / 60_000) * BALANCE_SHARE));
}

/** A fresh allowance for one run (or one invocation, whose cycles share it). */
export function balanceReadAllowance(requestsPerMinute: number, intervalMs: number): BalanceReadAllowance {
  return { left: balanceReadsPerRun(requestsPerMinute, intervalMs) };
}
