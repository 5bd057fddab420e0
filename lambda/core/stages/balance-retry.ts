// When a balance that cannot be rebuilt from its changes is read again. A lasting cause (more changes since the
// block than a read walks, a stacking call since it, a route the API lacks: BalanceUnavailableError) gives the
// same answer for the same block, and a failed rebuild past the bound costs some twenty requests: asked every
// run, a busy address spent more than the blocks did. So the next try waits, counted in blocks (what changes
// the answer is the block a read is made at, not the clock): 10, 20, 40 … blocks after each failed try in a
// row (about 1, 2, 4 … one-minute runs), at most RETRY_MAX_BLOCKS, and never before the block the failure
// names (`retryFrom`: the oldest change the failed read walked, or the stacking call's block), below which a
// read meets the same changes and fails again. The schedule is kept per rule in the balance book's `unread`
// (balance-book.ts), so a new process keeps it; a rule changed in the config has another key, so it is read at once.

/** Blocks waited after the first failed try in a row. */
export const RETRY_FIRST_BLOCKS = 10;
/** The longest wait, in blocks (a reconciliation's interval, balance-tracker.ts: one to two hours). */
export const RETRY_MAX_BLOCKS = 720;

/** The block a read is tried again at after the `tries`-th failed try in a row at block `at`. */
export function retryAfter(at: number, tries: number, retryFrom?: number): number {
  const wait = Math.min(RETRY_MAX_BLOCKS, RETRY_FIRST_BLOCKS * 2 ** Math.min(tries - 1, 16));
  return Math.max(at + wait, retryFrom ?? 0);
}
