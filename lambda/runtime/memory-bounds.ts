// What a run may hold in memory, from the function's memory as Lambda tells it. At 128 MB the loaded bundle
// is half the function (bench table 7), so a catch-up reads its blocks in small batches: the same blocks,
// more event calls, a lower peak. Larger functions read ahead as far as the read-ahead's own bound.

/** Functions of at most this many MB read few blocks ahead. */
export const SMALL_FUNCTION_MB = 128;
/** Blocks a small function reads ahead at once (the read-ahead's own bound is 64). */
export const SMALL_FUNCTION_READ_AHEAD = 4;

/** The cycle budget's read-ahead bound for a function of `memoryMb` (undefined: unknown, or large enough). */
export function readAheadBlocksFor(memoryMb: number | undefined): { readAheadBlocks: number } | Record<string, never> {
  return memoryMb !== undefined && memoryMb <= SMALL_FUNCTION_MB ? { readAheadBlocks: SMALL_FUNCTION_READ_AHEAD } : {};
}
