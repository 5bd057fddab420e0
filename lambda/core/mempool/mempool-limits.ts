// How much the pending rules read per run and keep between runs (docs/pending.md).

/** The bounds of what a run reads and the state keeps. */
export const MEMPOOL_LIMITS = {
  /**
   * Newest transaction ids remembered: the next run's list read stops at the first of them it meets (or at one
   * received before the newest seen). Few, since the record is written nearly every run on a busy chain: 20 ids
   * keep it under 2 KB (2 DynamoDB write units).
   */
  seen: 20,
  /** List pages a run reads when it meets nothing seen (50 transactions a page); one in the common case. */
  maxPages: 3,
  /** Waiting transactions followed at once; past it the oldest is let go (its mined alert still comes). */
  tracked: 100,
  /** Tracked transactions whose status one run reads (one request on the v1 batch route, one each on v3). */
  statusReadsPerRun: 5,
  /** A tracked transaction's status is read on the next run that does not list it, then after this, doubling up to maxCheckMs. */
  firstCheckMs: 60_000,
  maxCheckMs: 10 * 60_000,
  /** A transaction neither mined nor dropped after this long is let go. */
  expireMs: 24 * 60 * 60_000,
} as const;
