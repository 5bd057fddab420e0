// The deadlines the tracker holds deposits and withdrawals to, in Bitcoin blocks, and where their defaults
// come from: the sBTC signers' own constants (stacks-network/sbtc, signer/src/lib.rs).

/** Signers never sweep a deposit once the tip is this close to its reclaim lock: `DEPOSIT_LOCKTIME_BLOCK_BUFFER`. */
export const DEPOSIT_LOCKTIME_BLOCK_BUFFER = 3;
/** Signers wait this many blocks after a withdrawal request before acting on it: `WITHDRAWAL_MIN_CONFIRMATIONS`. */
export const WITHDRAWAL_MIN_CONFIRMATIONS = 6;
/** A withdrawal request not accepted this many blocks after it was made expires (and is rejected): `WITHDRAWAL_BLOCKS_EXPIRY`. */
export const WITHDRAWAL_BLOCKS_EXPIRY = 24;
/** Signers stop including a request in sweeps this many blocks before it expires: `WITHDRAWAL_EXPIRY_BUFFER`. */
export const WITHDRAWAL_EXPIRY_BUFFER = 6;

export interface SbtcDeadlines {
  /** A deposit not minted this many blocks after it was first seen confirmed: a warning. */
  depositWarning: number;
  /** ... and this many: critical. */
  depositCritical: number;
  /** A deposit not minted when its reclaim lock is this close: it will no longer be swept. */
  reclaimBuffer: number;
  /** A withdrawal not accepted this many blocks after its request: a warning. */
  withdrawalWarning: number;
  /** ... and this many: critical (the signers no longer include it in a sweep). */
  withdrawalCritical: number;
  /** ... and this many: expired, and so to be rejected. */
  withdrawalExpiry: number;
}

export const DEFAULT_DEADLINES: SbtcDeadlines = {
  // The signers sweep a confirmed deposit at their next signing round and the mint follows the sweep's
  // confirmation: 1 to 3 blocks in practice, so 3 is already late and 6 is twice that.
  depositWarning: 3,
  depositCritical: 6,
  reclaimBuffer: DEPOSIT_LOCKTIME_BLOCK_BUFFER,
  // Acceptance comes at request + 7 to 8 in practice (WITHDRAWAL_MIN_CONFIRMATIONS = 6, then a sweep):
  // + 12 is late; + 18 is the last block the signers still include it (WITHDRAWAL_BLOCKS_EXPIRY - WITHDRAWAL_EXPIRY_BUFFER).
  withdrawalWarning: 2 * WITHDRAWAL_MIN_CONFIRMATIONS,
  withdrawalCritical: WITHDRAWAL_BLOCKS_EXPIRY - WITHDRAWAL_EXPIRY_BUFFER,
  withdrawalExpiry: WITHDRAWAL_BLOCKS_EXPIRY,
};

/** At most, in a config: a day of Bitcoin blocks. A record is followed until it ends, so any of these still falls. */
export const MAX_DEADLINE_BLOCKS = 144;

/** The deadlines' order, each pair [earlier, later]: a critical before its warning would tell the lesser news after. */
export const DEADLINE_ORDER: readonly (readonly [keyof SbtcDeadlines, keyof SbtcDeadlines])[] = [
  ['depositWarning', 'depositCritical'],
  ['withdrawalWarning', 'withdrawalCritical'],
  ['withdrawalCritical', 'withdrawalExpiry'],
];

/** The problems of a deadline set, each naming its field; empty when the deadlines are consistent. */
export function deadlineProblems(d: SbtcDeadlines): string[] {
  const problems: string[] = [];
  for (const [name, value] of Object.entries(d)) {
    if (!Number.isInteger(value) || value < 1 || value > 10_000) problems.push(`${name} must be a whole number of blocks from 1 to 10000, got ${value}`);
  }
  for (const [earlier, later] of DEADLINE_ORDER) if (d[later] <= d[earlier]) problems.push(`${later} must be after ${earlier}`);
  return problems;
}
