// What a run may hold in memory, from the function's memory as Lambda tells it. At 128 MB the loaded bundle
// and Node are over half the function (bench table 7: 68 MB resident before the first request), so a catch-up
// reads its blocks in small batches, whether block by block or per subject: the same blocks and alerts, more
// requests, a lower peak. Larger functions read ahead as far as the read-ahead's own bound.

/** Functions of at most this many MB read few blocks ahead. */
export const SMALL_FUNCTION_MB = 128;
/**
 * Blocks a small function holds read ahead at once (the block scan's own bound is 64, a per-subject read's 120).
 * Table 7's heavy catch-up at 128 MB peaked at 128–131 MB when its per-subject reads covered 120 blocks, 101–112 MB
 * at 2 blocks and 105 MB at 1 (which took half as long again): 2 is where holding less stops paying.
 */
export const SMALL_FUNCTION_READ_AHEAD = 2;

/** The cycle budget's read-ahead bound for a function of `memoryMb` (undefined: unknown, or large enough). */
export function readAheadBlocksFor(memoryMb: number | undefined): { readAheadBlocks: number } | Record<string, never> {
  return memoryMb !== undefined && memoryMb <= SMALL_FUNCTION_MB ? { readAheadBlocks: SMALL_FUNCTION_READ_AHEAD } : {};
}

/**
 * Hiro requests a small function has in flight at once (the client's default is 4). Each answer is held whole
 * until parsed (up to the client's body bound, 16 MB), so this bounds the answers held at once: 2 × 16 MB.
 */
export const SMALL_FUNCTION_REQUESTS_IN_FLIGHT = 2;

/** The Hiro client's in-flight bound for a function of `memoryMb` (undefined: unknown, or large enough). */
export function requestsInFlightFor(memoryMb: number | undefined): { concurrency: number } | Record<string, never> {
  return memoryMb !== undefined && memoryMb <= SMALL_FUNCTION_MB ? { concurrency: SMALL_FUNCTION_REQUESTS_IN_FLIGHT } : {};
}
