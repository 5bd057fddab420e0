// Walking one subject's feed (newest first) down to a height, and holding the API to what a feed promises:
// every page starts where the cursor before it pointed (else items were skipped), no item comes twice, items
// fall strictly in chain order, and a page's ETag never names an older tip than one already seen. A feed that
// breaks a promise is a SubjectFeedError naming its route and the height the read must stop before.
import type { FeedAnswer, FeedPage, FeedPosition } from './subject-feeds';

/** Pages one subject's walk may read in one run (5,000 logs or 2,500 transactions); past it the run covers less. */
export const MAX_FEED_PAGES = 50;

export class SubjectFeedError extends Error {
  override name = 'SubjectFeedError';
  constructor(
    readonly route: string,
    /** The block in doubt: its items, or those next to it, broke the feed's promise. */
    readonly height: number,
    problem: string,
    /** True when the feed's items below `height` were read and accepted, so the blocks below it can go out. */
    readonly readBelow = false,
  ) {
    super(`${route}: ${problem}`);
  }
}

/** A feed item placed in the chain, with what the walk found of it. */
export interface PlacedItem<T> {
  item: T;
  at: FeedPosition;
  blockHash: string;
}

export interface FeedWalk<T> {
  route: string;
  /** Items newest first, before they are placed (logs are placed by the batch lookup afterwards). */
  items: T[];
  /** Each page's first item index in `items`, with the position the page said it starts at. */
  pageStarts: { index: number; at: FeedPosition | null }[];
  /** The first page's ETag. */
  etag: string | null;
  /** The walk stopped at MAX_FEED_PAGES with older items left: the feed is complete only above this height. */
  truncatedBelow: number | null;
}

export function samePosition(a: FeedPosition, b: FeedPosition): boolean {
  return a.height === b.height && a.txIndex === b.txIndex && a.eventIndex === b.eventIndex;
}

export function comparePositions(a: FeedPosition, b: FeedPosition): number {
  return a.height - b.height || a.txIndex - b.txIndex || a.eventIndex - b.eventIndex;
}

function describe(at: FeedPosition): string {
  return `block ${at.height}, transaction ${at.txIndex}${at.eventIndex >= 0 ? `, event ${at.eventIndex}` : ''}`;
}

/**
 * Reads `page(cursor)` from the newest page down to the first page whose older cursor is below `fromHeight`.
 * `not-modified` on the first page ends the walk with no items (the caller sent the ETag knowing it may).
 */
export async function walkFeed<T>(fromHeight: number, page: (cursor: string | null) => Promise<FeedAnswer<T>>): Promise<FeedWalk<T> | 'not-modified'> {
  const walk: FeedWalk<T> = { route: '', items: [], pageStarts: [], etag: null, truncatedBelow: null };
  let cursor: { cursor: string; at: FeedPosition } | null = null;
  for (let pages = 0; ; pages += 1) {
    if (pages === MAX_FEED_PAGES) {
      walk.truncatedBelow = cursor!.at.height + 1;
      return walk;
    }
    const answer = await page(cursor?.cursor ?? null);
    if (answer.kind === 'not-modified') {
      if (cursor === null) return 'not-modified';
      throw new SubjectFeedError(walk.route, cursor.at.height, 'answered 304 to a page read without an ETag');
    }
    if (answer.kind === 'missing') throw new SubjectFeedError(answer.route, fromHeight, 'this API does not have the route');
    if (answer.kind === 'unknown-cursor') {
      throw new SubjectFeedError(
        answer.route,
        cursor?.at.height ?? fromHeight,
        `no longer knows the cursor ${cursor?.cursor ?? '(none)'} it gave (${describe(cursor!.at)})`,
      );
    }
    const read: FeedPage<T> = answer.page;
    walk.route = read.route;
    if (cursor !== null && (read.at === null || !samePosition(read.at, cursor.at))) {
      const found = read.at === null ? 'nothing' : describe(read.at);
      throw new SubjectFeedError(
        walk.route,
        Math.min(cursor.at.height, read.at?.height ?? cursor.at.height),
        `the page at cursor ${cursor.cursor} starts at ${found}, not at ${describe(cursor.at)}: items were skipped`,
      );
    }
    if (cursor === null) walk.etag = read.etag;
    if (read.older !== null && read.at !== null && comparePositions(read.older.at, read.at) >= 0) {
      throw new SubjectFeedError(
        walk.route,
        read.older.at.height,
        `the older page's cursor (${describe(read.older.at)}) is not below the page's own (${describe(read.at)})`,
      );
    }
    walk.pageStarts.push({ index: walk.items.length, at: read.at });
    walk.items.push(...read.items);
    if (read.older === null || read.older.at.height < fromHeight) return walk;
    cursor = read.older;
  }
}

/**
 * Checks the placed items of a walk: each page's first item sits where the page said, items fall strictly in
 * chain order, and no item comes twice. Items are newest first, placed in the same order as `walk.items`.
 */
export function checkPlaced<T>(walk: FeedWalk<T>, placed: readonly PlacedItem<T>[], key: (item: T) => string): void {
  const seen = new Map<string, FeedPosition>();
  for (const [index, { item, at }] of placed.entries()) {
    const id = key(item);
    const before = seen.get(id);
    if (before) throw new SubjectFeedError(walk.route, Math.min(before.height, at.height), `repeats ${id} (${describe(at)})`);
    seen.set(id, at);
    const above = placed[index - 1];
    if (above && comparePositions(at, above.at) >= 0) {
      throw new SubjectFeedError(walk.route, at.height, `lists ${describe(at)} after ${describe(above.at)}, out of chain order`);
    }
  }
  for (const start of walk.pageStarts) {
    const first = placed[start.index];
    if (first && start.at && !samePosition(first.at, start.at)) {
      throw new SubjectFeedError(
        walk.route,
        Math.min(first.at.height, start.at.height),
        `a page says it starts at ${describe(start.at)} but its first item is at ${describe(first.at)}`,
      );
    }
  }
}
