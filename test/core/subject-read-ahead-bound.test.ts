// The per-subject read-ahead holds what one read of the feeds returns: a small function's bound on the blocks
// held read ahead (limits.maxBatch) caps the range each read covers, as it caps the block scan's batches.
import { describe, expect, it } from 'vitest';
import type { ReadBlock } from '../../lambda/core/follow/read-ahead';
import { SUBJECT_BATCH, SubjectReadAhead } from '../../lambda/core/follow/subject-read-ahead';
import type { SubjectSource } from '../../lambda/core/follow/subject-source';

/** A source whose every read returns the blocks asked for, noting each range. */
function recordingSource(ranges: [number, number][]): SubjectSource {
  const block = (height: number): ReadBlock =>
    ({ block: { header: { height, hash: `0x${height}`, parentHash: `0x${height - 1}` }, txs: [] }, events: new Map() }) as unknown as ReadBlock;
  return {
    read: async (from: number, to: number) => {
      ranges.push([from, to]);
      return { blocks: Array.from({ length: to - from + 1 }, (_, i) => block(from + i)), error: null };
    },
  } as unknown as SubjectSource;
}

describe('the per-subject read-ahead under a bound on the blocks held', () => {
  it('reads at most maxBatch blocks at once and still returns every block in order', async () => {
    const ranges: [number, number][] = [];
    const readAhead = new SubjectReadAhead(recordingSource(ranges));
    const limits = { lastHeight: 10, blocksLeft: 500, deadlineMs: Number.POSITIVE_INFINITY, maxBatch: 2 };
    const heights: number[] = [];
    for (let height = 1; height <= 10; height++) heights.push((await readAhead.take(height, limits))!.block.header.height);
    expect(heights).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(ranges).toEqual([
      [1, 2],
      [3, 4],
      [5, 6],
      [7, 8],
      [9, 10],
    ]);
  });

  it('reads up to its own batch without a bound (a larger function)', async () => {
    const ranges: [number, number][] = [];
    const readAhead = new SubjectReadAhead(recordingSource(ranges));
    await readAhead.take(1, { lastHeight: 1_000, blocksLeft: 1_000, deadlineMs: Number.POSITIVE_INFINITY });
    expect(ranges).toEqual([[1, SUBJECT_BATCH]]);
  });
});
