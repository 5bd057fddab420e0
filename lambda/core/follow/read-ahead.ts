// Reading blocks ahead of the scan. Behind the tip, the next few blocks' transaction pages are requested
// together (the client's limiter paces them and bounds how many are in flight), and the events of all their
// log-carrying transactions in one batched call set rather than one per block: a /tx/multiple call holds
// about a hundred ids, and a block has about a dozen such transactions. So a loop turn's new blocks cost two
// round trips after the tip, their pages and then their events (which need the pages to know what to ask).
//
// The scan still takes the blocks one at a time: it checks each parent hash, delivers the block's alerts
// and moves its cursor before the next. A block that does not build on the one read before it ends the
// batch; after a reorg the scan discards whatever was read ahead. A block replaced after it was read is
// found by the next parent check and retracted, as one replaced just after a single read would be.
import type { Block, TxEvents } from '../domain';
import type { RunActivity } from './observed-activity';
import { transactionReads } from '../match/block-alerts';
import type { ChainApi, Clock } from '../ports';
import type { WatchRules } from '../rules/rule-lists';
import { onAbort } from '../shared-abort';

/** Blocks read at once at most: about eight full /tx/multiple calls of events on a busy chain. */
export const MAX_READ_AHEAD = 64;
/** The first batch of a scan, before the time a block takes is known: a minute of blocks and more. */
export const FIRST_READ_AHEAD = 16;
/**
 * How long reading one batch may take at the pace seen: the first block's alerts wait for the whole batch.
 * A stop (the local runner's Ctrl-C) does not: it aborts the batch's reads, queued or in flight.
 */
export const MAX_BATCH_MS = 45_000;

export interface ReadAheadLimits {
  /** The last height the scan may read. */
  lastHeight: number;
  /** Blocks the scan may still process in this cycle. */
  blocksLeft: number;
  /** No block starts after this epoch ms. */
  deadlineMs: number;
  /** Blocks held read ahead at most, below MAX_READ_AHEAD: a small function's bound on what a batch holds. */
  maxBatch?: number;
}

/** A block with the events of the transactions the watch config needs them for; the scan matches it. */
export interface ReadBlock {
  block: Block;
  events: ReadonlyMap<string, TxEvents>;
}

export class BlockReadAhead {
  private queue: ReadBlock[] = [];
  private nextBatch = FIRST_READ_AHEAD;
  /** The slowest a block has been so far in this scan (read and processed), ms. */
  private msPerBlock: number | null = null;
  private lastBatch: { startedAt: number; blocks: number } | null = null;

  /** `stop` aborted: the batch being read is given up at once, its requests not yet sent never are. */
  constructor(
    private readonly chain: ChainApi,
    /** `activity`: where the run notes what the blocks cost to read, for the fetch plan of later runs. */
    private readonly watch: { rules: WatchRules; activity?: RunActivity | undefined },
    private readonly clock: Clock,
    private readonly stop?: AbortSignal,
  ) {}

  /** The block at `height` with its events, or null when the API knows no block there or the scan is stopping. */
  async take(height: number, limits: ReadAheadLimits): Promise<ReadBlock | null> {
    if (this.stop?.aborted) return null;
    if (this.queue[0]?.block.header.height !== height) {
      this.discard();
      try {
        this.queue = await this.readBatch(height, this.batchSize(height, limits));
      } catch (error) {
        // The reads failed because they were aborted: the scan stops, nothing went wrong.
        if (this.stop?.aborted) return null;
        throw error;
      }
    }
    return this.queue.shift() ?? null;
  }

  /** Drops the blocks read ahead: after a reorg they may belong to the replaced chain. */
  discard(): void {
    this.queue = [];
  }

  /**
   * As many blocks as are left to scan, up to a batch that doubles from FIRST_READ_AHEAD, and no more than
   * can be read in MAX_BATCH_MS, or read and processed in half the time left, at the slowest pace seen (so
   * that a batch never runs past the deadline).
   */
  private batchSize(height: number, limits: ReadAheadLimits): number {
    const now = this.clock.now();
    if (this.lastBatch && this.lastBatch.blocks > 0) {
      const pace = (now - this.lastBatch.startedAt) / this.lastBatch.blocks;
      this.msPerBlock = Math.max(this.msPerBlock ?? 0, pace);
    }
    const timeLeft = Math.min(MAX_BATCH_MS, (limits.deadlineMs - now) / 2);
    const byTime = this.msPerBlock ? Math.floor(timeLeft / this.msPerBlock) : this.nextBatch;
    return Math.max(1, Math.min(this.nextBatch, limits.maxBatch ?? MAX_READ_AHEAD, limits.lastHeight - height + 1, limits.blocksLeft, byTime));
  }

  private async readBatch(from: number, size: number): Promise<ReadBlock[]> {
    const startedAt = this.clock.now();
    const blocks = await this.readBlocks(from, size);
    let read: ReadBlock[];
    try {
      read = await this.withEvents(blocks);
      this.nextBatch = Math.min(MAX_READ_AHEAD, this.nextBatch * 2);
    } catch (error) {
      if (blocks.length === 1 || this.stop?.aborted) throw error;
      // The batch's events failed: fall back to the first block alone, as a scan one block at a time
      // would, so that the blocks before a bad one still get through.
      read = await this.withEvents(blocks.slice(0, 1));
      this.nextBatch = 1;
    }
    this.lastBatch = { startedAt, blocks: read.length };
    return read;
  }

  /** The blocks from `from` on, up to the first one missing, failing or not building on the one before. */
  private async readBlocks(from: number, size: number): Promise<Block[]> {
    const reads = Promise.allSettled(Array.from({ length: size }, (_, i) => this.chain.getBlock(from + i, this.stop)));
    const answers = await untilStopped(reads, this.stop);
    const blocks: Block[] = [];
    for (const answer of answers) {
      if (answer.status === 'rejected') {
        if (blocks.length === 0) throw answer.reason;
        break;
      }
      const block = answer.value;
      // Unknown (the tip moved back), or the chain changed between two reads: the scan sees it next.
      if (!block) break;
      const previous = blocks.at(-1);
      if (previous && block.header.parentHash !== null && block.header.parentHash !== previous.header.hash) break;
      blocks.push(block);
    }
    return blocks;
  }

  private async withEvents(blocks: Block[]): Promise<ReadBlock[]> {
    const reads = blocks.flatMap((block) => transactionReads(block, this.watch.rules));
    const events: ReadonlyMap<string, TxEvents> =
      reads.length > 0 ? await untilStopped(this.chain.getTransactionEvents(reads, this.stop), this.stop) : new Map();
    this.watch.activity?.scan(blocks, reads.filter((read) => read.events !== false).length);
    // Every block of the batch shares the one map: a transaction id belongs to one block.
    return blocks.map((block) => ({ block, events }));
  }
}

/**
 * `reading`, or the stop's reason as soon as `stop` aborts: an adapter that cannot abort its reads keeps them
 * going in the background, but the scan does not wait for them.
 */
function untilStopped<T>(reading: Promise<T>, stop: AbortSignal | undefined): Promise<T> {
  if (!stop) return reading;
  reading.catch(() => {});
  return new Promise<T>((resolve, reject) => {
    const stopFollowing = onAbort(stop, () => reject(stop.reason));
    reading.then(resolve, reject).finally(stopFollowing);
  });
}
