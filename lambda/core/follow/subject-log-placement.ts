// Placing watched contracts' logs in blocks. A log names its transaction, not its block: the transaction batch
// says where each transaction sits. Newest first, the logs at or above the first block asked are a prefix of a
// feed, and each page says where its first item sits: a feed whose newest log is below that block needs no
// lookup at all, and a feed's lookups stop at its first log found below it. One batch request asks for every
// feed's next transactions together, and a transaction a principal's feed already placed is not asked again,
// so a run in which a few contracts printed a little pays one request for all of them.
import type { LocatedTransaction, LogFeedItem } from './subject-feeds';
import { SubjectFeedError, type FeedWalk, type PlacedItem } from './subject-feed-walk';

/** Transaction ids one batch request asks for (the route's most). */
export const BATCH_LOOKUP_IDS = 50;

export type LogPlacement = { placed: PlacedItem<LogFeedItem>[] } | { error: SubjectFeedError };

interface Feed {
  walk: FeedWalk<LogFeedItem>;
  /** The next item to place. */
  next: number;
  placed: PlacedItem<LogFeedItem>[];
  done: boolean;
  error?: SubjectFeedError;
}

/**
 * Each walk's items from the newest down to the first one below `from` (included, for the order checks), placed
 * by `known` (the transactions the principals' feeds placed) and what `lookup` finds; `known` grows with them.
 */
export async function placeLogs(
  walks: readonly FeedWalk<LogFeedItem>[],
  from: number,
  known: Map<string, LocatedTransaction>,
  lookup: (txIds: readonly string[]) => Promise<Map<string, LocatedTransaction> | { missing: string }>,
): Promise<LogPlacement[]> {
  const feeds: Feed[] = walks.map((walk) => {
    const newest = walk.pageStarts[0]?.at;
    return { walk, next: 0, placed: [], done: walk.items.length === 0 || (newest !== undefined && newest !== null && newest.height < from) };
  });
  const asked = new Set<string>();
  for (;;) {
    for (const feed of feeds) advance(feed, from, known, asked);
    const ids = nextIds(feeds, known, asked);
    if (ids.length === 0) break;
    for (const id of ids) asked.add(id);
    const found = await lookup(ids);
    // No batch route: no log can be placed, so the read stops before `from` (the block scan reads on).
    if (!(found instanceof Map)) throw new SubjectFeedError(found.missing, from, 'this API does not have the route');
    for (const [id, tx] of found) known.set(id, tx);
  }
  return feeds.map((feed) => (feed.error ? { error: feed.error } : { placed: feed.placed }));
}

/** Places the feed's next items while their transactions are known; stops at an unknown one or below `from`. */
function advance(feed: Feed, from: number, known: ReadonlyMap<string, LocatedTransaction>, asked: ReadonlySet<string>): void {
  while (!feed.done && feed.next < feed.walk.items.length) {
    const item = feed.walk.items[feed.next]!;
    const tx = known.get(item.txId);
    if (!tx) {
      if (!asked.has(item.txId)) return;
      feed.error = new SubjectFeedError(
        feed.walk.route,
        from,
        `names transaction ${item.txId}, which the transaction batch does not know (a reorg or a lagging replica)`,
      );
      feed.done = true;
      return;
    }
    feed.placed.push({ item, at: { height: tx.block.height, txIndex: tx.transaction.txIndex, eventIndex: item.log.eventIndex }, blockHash: tx.block.hash });
    feed.next += 1;
    // Newest first: every item after one below `from` is below it too.
    if (tx.block.height < from) feed.done = true;
  }
  feed.done = true;
}

/** The next transactions to ask for, a feed at a time in turn (each feed's nearest first), at most one batch. */
function nextIds(feeds: readonly Feed[], known: ReadonlyMap<string, LocatedTransaction>, asked: ReadonlySet<string>): string[] {
  const ids = new Set<string>();
  const scans = feeds.filter((feed) => !feed.done).map((feed) => ({ feed, at: feed.next }));
  let added = true;
  while (added && ids.size < BATCH_LOOKUP_IDS) {
    added = false;
    for (const scan of scans) {
      while (scan.at < scan.feed.walk.items.length) {
        const id = scan.feed.walk.items[scan.at]!.txId;
        scan.at += 1;
        if (known.has(id) || asked.has(id) || ids.has(id)) continue;
        ids.add(id);
        added = true;
        break;
      }
      if (ids.size === BATCH_LOOKUP_IDS) break;
    }
  }
  return [...ids];
}
