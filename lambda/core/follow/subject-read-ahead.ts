// The per-subject source behind the follower's read-ahead interface (read-ahead.ts): the next blocks come from
// the feeds, a batch at a time, and a feed's error surfaces at the block it left in doubt, after the blocks
// below it went through. The follower checks parents, rolls back and matches exactly as for the block scan.
import type { ReadAheadLimits, ReadBlock } from './read-ahead';
import type { SubjectSource } from './subject-source';
import type { SubjectFeedError } from './subject-feed-walk';

/** Blocks one read covers at most: the header chain's walk and each feed's pages stay a few requests. */
export const SUBJECT_BATCH = 120;

export class SubjectReadAhead {
  private queue: ReadBlock[] = [];
  /** The error of the last read, thrown when the scan reaches the block after the last one it returned. */
  private failure: { height: number; error: SubjectFeedError } | null = null;

  constructor(
    private readonly source: SubjectSource,
    private readonly stop?: AbortSignal,
  ) {}

  async take(height: number, limits: ReadAheadLimits): Promise<ReadBlock | null> {
    if (this.stop?.aborted) return null;
    if (this.queue[0]?.block.header.height !== height) {
      if (this.failure?.height === height) throw this.failure.error;
      this.discard();
      // A small function's bound on the blocks held (maxBatch) caps a read as it caps the block scan's batches.
      const last = Math.min(limits.lastHeight, height + Math.min(SUBJECT_BATCH, limits.maxBatch ?? SUBJECT_BATCH, limits.blocksLeft) - 1);
      const read = await this.source.read(height, last, this.stop);
      if (read.error && read.blocks.length === 0) throw read.error;
      this.queue = read.blocks;
      if (read.error) this.failure = { height: height + read.blocks.length, error: read.error };
    }
    return this.queue.shift() ?? null;
  }

  /** Drops the blocks read ahead (after a reorg they may belong to the replaced chain) and the pending error. */
  discard(): void {
    this.queue = [];
    this.failure = null;
  }
}
