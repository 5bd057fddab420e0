// What the fetch plan learns from a process's own runs (each warm Lambda container, each local runner): how busy
// each subject's feed is (its items a block), what share of the transactions the principals' feeds name have to
// be read, and what the block scan's blocks cost (transaction pages and event reads a block). The plan's
// estimates (fetch-plan.ts) start from a mainnet-like pace; a subject that turns out far busier (a principal whose
// feed fills pages, whose transactions each need their events) makes reading per subject dearer than the pace
// says, and the plan learns it here. Kept by the runner across its runs, like the routes found missing: no module
// keeps it, and nothing of it is stored.
//
// Each figure is a ratio of two sums (items over blocks walked, reads over transactions named, pages over blocks
// scanned), each observation added after the older ones are weighed down by half for every HALF_LIFE of weight
// observed since: an exponentially weighted mean over the last few hundred blocks, whatever a run's size. The
// pace's own figure weighs as PRIOR_WEIGHT blocks observed, so one run over a block does not swing the plan. A
// figure not observed again fades back towards the pace (FADE_HALF_LIFE_MS), so a plan that turned to the block
// scan on what it saw reads per subject again in time and sees afresh. At most MAX_OBSERVED_SUBJECTS subjects are
// remembered (the least recently observed go first): a longer watch list falls back on the pace for the rest.
import type { Block } from '../domain';

/** Transactions a page of a block's list holds. */
export const BLOCK_PAGE = 50;

/** What the block scan's blocks cost a block: transaction pages, and transactions whose events are read. */
export interface BlockScanPace {
  pagesPerBlock: number;
  eventReadsPerBlock: number;
}

/**
 * What the process's earlier runs saw (ObservedActivity below), each figure given the pace's own to weigh beside
 * it: a subject's feed items a block (undefined for a subject not seen), the share of the transactions the
 * principals' feeds name that are read, and the block scan's blocks. Absent parts: the pace alone.
 */
export interface ObservedPace {
  itemsPerBlock(subject: string, prior: number): number | undefined;
  readShare?(prior: number): number;
  blockScan?(prior: BlockScanPace): BlockScanPace;
}

/** Weight (blocks walked or scanned, transactions named) after which an observation counts half. */
export const HALF_LIFE = 100;
/** How much observation the pace's own figure is worth. */
export const PRIOR_WEIGHT = 3;
/** A figure not observed for this long weighs half as much beside the pace's. */
export const FADE_HALF_LIFE_MS = 60 * 60_000;
/** Subjects remembered at most (about 100 bytes each). */
export const MAX_OBSERVED_SUBJECTS = 2_000;

/** An exponentially weighted ratio: `amount` per unit of `weight`. */
class Smoothed {
  private amount = 0;
  private weight = 0;
  private at = 0;

  add(amount: number, weight: number, now: number): void {
    const keep = 2 ** (-weight / HALF_LIFE);
    this.amount = this.amount * keep + amount;
    this.weight = this.weight * keep + weight;
    this.at = now;
  }

  /** The observed ratio beside the pace's `prior`, the observation faded by its age. */
  value(prior: number, now: number): number {
    const fade = 2 ** (-Math.max(0, now - this.at) / FADE_HALF_LIFE_MS);
    return (this.amount * fade + prior * PRIOR_WEIGHT) / (this.weight * fade + PRIOR_WEIGHT);
  }
}

/** What one run saw; the runner's ObservedActivity takes it in when the run ends. */
export class RunActivity {
  /** Per subject: feed items at or above the first block asked, over the blocks its walk covered. */
  readonly subjects = new Map<string, { items: number; blocks: number }>();
  /** Transactions the principals' feeds named in the blocks read, and how many of them were read (events or call). */
  readonly named = { transactions: 0, reads: 0 };
  /** Blocks the block scan read, their transaction pages, and the transactions whose events it read. */
  readonly scanned = { blocks: 0, pages: 0, eventReads: 0 };

  subject(id: string, items: number, blocks: number): void {
    if (blocks <= 0) return;
    const seen = this.subjects.get(id) ?? { items: 0, blocks: 0 };
    this.subjects.set(id, { items: seen.items + items, blocks: seen.blocks + blocks });
  }

  namedRead(transactions: number, reads: number): void {
    this.named.transactions += transactions;
    this.named.reads += reads;
  }

  scan(blocks: readonly Block[], eventReads: number): void {
    this.scanned.blocks += blocks.length;
    for (const block of blocks) this.scanned.pages += Math.max(1, Math.ceil(block.transactions.length / BLOCK_PAGE));
    this.scanned.eventReads += eventReads;
  }
}

/** The process's memory of what its runs saw. */
export class ObservedActivity {
  private readonly subjects = new Map<string, Smoothed>();
  private readonly share = new Smoothed();
  private sharedSeen = false;
  private readonly pages = new Smoothed();
  private readonly eventReads = new Smoothed();
  private scannedSeen = false;

  constructor(private readonly limit = MAX_OBSERVED_SUBJECTS) {}

  /** Subjects remembered. */
  get size(): number {
    return this.subjects.size;
  }

  /** Takes in what a run saw, at `now`. */
  record(run: RunActivity, now: number): void {
    for (const [id, { items, blocks }] of run.subjects) {
      const figure = this.subjects.get(id) ?? new Smoothed();
      // Re-inserted: the map's order is the order last observed, oldest first.
      this.subjects.delete(id);
      this.subjects.set(id, figure);
      figure.add(items, blocks, now);
    }
    while (this.subjects.size > this.limit) this.subjects.delete(this.subjects.keys().next().value!);
    if (run.named.transactions > 0) {
      this.share.add(run.named.reads, run.named.transactions, now);
      this.sharedSeen = true;
    }
    if (run.scanned.blocks > 0) {
      this.pages.add(run.scanned.pages, run.scanned.blocks, now);
      this.eventReads.add(run.scanned.eventReads, run.scanned.blocks, now);
      this.scannedSeen = true;
    }
  }

  /** What the plan estimates with at `now`: observed figures where there are any, beside the pace's. */
  paceAt(now: number): ObservedPace {
    const subjects = this.subjects;
    return {
      itemsPerBlock: (subject, prior) => subjects.get(subject)?.value(prior, now),
      ...(this.sharedSeen ? { readShare: (prior: number) => this.share.value(prior, now) } : {}),
      ...(this.scannedSeen
        ? {
            blockScan: (prior: { pagesPerBlock: number; eventReadsPerBlock: number }) => ({
              pagesPerBlock: this.pages.value(prior.pagesPerBlock, now),
              eventReadsPerBlock: this.eventReads.value(prior.eventReadsPerBlock, now),
            }),
          }
        : {}),
    };
  }
}
