// Reading the chain per subject rather than block by block: each watched contract's logs and each tracked
// principal's transactions, placed on the header chain, assembled into the same per-block input the block
// scan gives the matchers (read-ahead.ts's ReadBlock: the block with the transactions the feeds name, and the
// events of those the rules need), in chain order, with empty blocks for heights no feed names.
//
// An item is accepted only when its block hash is the header chain's at its height. A feed that repeats or
// skips items, a cursor the API no longer knows, an ETag naming an older tip than one seen before, or items
// that disagree with the header chain stop the read before the block in doubt: the blocks below it come back
// with the error (a SubjectFeedError naming the route), so the caller delivers them and fails on the rest.
import type { Block, ContractLogEvent, Transaction, TxEvents } from '../domain';
import type { ChainApi, TxReadRequest } from '../ports';
import type { ReadBlock } from './read-ahead';
import { transactionReads } from '../match/block-alerts';
import type { WatchRules } from '../rules/rule-lists';
import type { HeaderLink, LocatedTransaction, LogFeedItem, PrincipalFeedItem, SubjectFeedApi } from './subject-feeds';
import { settledValue } from '../settle';
import { checkPlaced, SubjectFeedError, walkFeed, type FeedWalk, type PlacedItem } from './subject-feed-walk';
import { chainKindList, type ChainAlert } from '../alert-kinds/chain-kinds';
import type { ChainKind } from '../alert-kinds/kind';
import { needsAssetEvents } from '../alert-kinds/asset-moves';
import { mayMoveWatched, watchedAssetsOf } from './feed-row-moves';
import { placeLogs } from './subject-log-placement';
import type { RunActivity } from './observed-activity';

/** What the rules watch per subject: contracts whose logs, principals whose transactions. */
export interface Subjects {
  contracts: readonly string[];
  principals: readonly string[];
}

export interface SubjectRead {
  /** Consecutive blocks from the first height asked, in chain order. */
  blocks: ReadBlock[];
  /** Why the read stopped before the block after the last one returned; null when it covered what it could. */
  error: SubjectFeedError | null;
}

interface Found {
  txs: Map<string, LocatedTransaction>;
  /** Transactions a principal's feed named: the rules may want their events or call details. */
  full: Set<string>;
  /** Of those, the ones whose row shows a movement the rules watch for that principal: their events are read. */
  moved: Set<string>;
  /** The watched contracts' logs of each transaction a logs feed named, in feed order. */
  logs: Map<string, ContractLogEvent[]>;
  /** The read may not go past this height (a page as of an older tip, a walk cut short). */
  end: number;
  /** The header chain's newest block: every feed was walked down from it. */
  top: number;
  error: SubjectFeedError | null;
}

/** Kinds whose events the feeds themselves serve: asset movements (from the principals' rows) and watched logs. */
const feedServed = (kind: ChainKind<ChainAlert>) => kind.chain.needsEvents === needsAssetEvents || kind.type === 'contract_log';
const otherKinds = chainKindList.filter((kind) => !feedServed(kind));

export class SubjectSource {
  /** The newest tip height each contract's logs were seen as of: a later page must not be older. */
  private readonly asOf = new Map<string, number>();
  /** The routes that have answered a read (a page, a header chain, a batch): one found missing before is back. */
  readonly answered = new Set<string>();

  constructor(
    private readonly feeds: SubjectFeedApi,
    private readonly chain: Pick<ChainApi, 'getTransactionEvents'>,
    private readonly watch: { rules: WatchRules },
    private readonly subjects: Subjects,
    /** Where the run notes how busy each feed was, for the fetch plan of later runs (observed-activity.ts). */
    private readonly activity?: RunActivity,
  ) {}

  /** The blocks `from` to `to` (or as far as the header chain and the feeds reach), or the error that stopped them. */
  async read(from: number, to: number, signal?: AbortSignal): Promise<SubjectRead> {
    const chain = await this.feeds.headerChain(from);
    if (chain === null) throw new SubjectFeedError(this.feeds.headerRoute, from, 'this API does not have the route');
    this.answered.add(this.feeds.headerRoute);
    const headers = new Map(chain.map((header) => [header.height, header]));
    if (!headers.has(from)) {
      const lowest = chain[0]?.height;
      return {
        blocks: [],
        error: new SubjectFeedError(
          this.feeds.headerRoute,
          from,
          lowest === undefined ? `has no block ${from} yet` : `reaches down to block ${lowest} only, not ${from}`,
        ),
      };
    }
    // After the header chain (most often the tip's page: no request), never beside it: a feed read after it is as
    // of its tip at least, so a block the chain has is never taken for one the feeds name nothing in. Then every
    // feed at once, one round trip rather than one a subject; each walk is checked and placed in the subjects'
    // order, exactly as when they were read one after the other.
    const [logs, principals] = await Promise.all([
      Promise.allSettled(this.subjects.contracts.map((contract) => walkFeed<LogFeedItem>(from, (cursor) => this.feeds.contractLogs(contract, cursor)))),
      Promise.allSettled(this.subjects.principals.map((principal) => walkFeed(from, (cursor) => this.feeds.principalTransactions(principal, cursor)))),
    ]);
    const top = chain.at(-1)!.height;
    const found: Found = { txs: new Map(), full: new Set(), moved: new Set(), logs: new Map(), end: Math.min(to, top), top, error: null };
    const logWalks: LogWalk[] = [];
    for (const [index, contract] of this.subjects.contracts.entries()) {
      await this.guard(found, from, async () => this.takeLogs(contract, settledValue(logs[index]!), headers, found, logWalks));
    }
    for (const [index, principal] of this.subjects.principals.entries()) {
      await this.guard(found, from, async () => this.readPrincipal(principal, settledValue(principals[index]!), from, headers, found));
    }
    await this.placeLogs(logWalks, from, headers, found);
    const last = Math.min(found.end, (found.error ? stopBefore(found.error, from) : Infinity) - 1);
    const blocks = assemble(from, last, headers, found.txs);
    const events = await this.events(blocks, found, signal);
    return { blocks: blocks.map((block) => ({ block, events })), error: found.error };
  }

  /**
   * What the rules need beyond the feeds: events of the transactions a principal's row shows moving a watched
   * asset, or that another kind wants (balances), and call details; the watched contracts' logs come from
   * their feeds, merged into whatever was read.
   */
  private async events(blocks: readonly Block[], found: Found, signal: AbortSignal | undefined): Promise<Map<string, TxEvents>> {
    const reads: TxReadRequest[] = [];
    for (const block of blocks) {
      const others = new Set(
        transactionReads(block, this.watch.rules, otherKinds)
          .filter((read) => read.events !== false)
          .map((read) => read.txId),
      );
      for (const read of transactionReads(block, this.watch.rules)) {
        if (!found.full.has(read.txId)) continue;
        const events = read.events !== false && (others.has(read.txId) || found.moved.has(read.txId));
        if (events || read.call) reads.push({ ...read, events });
      }
    }
    const named = blocks.reduce((count, block) => count + block.transactions.filter((tx) => found.full.has(tx.txId)).length, 0);
    this.activity?.namedRead(named, reads.length);
    const events = reads.length > 0 ? new Map(await this.chain.getTransactionEvents(reads, signal)) : new Map<string, TxEvents>();
    const withEvents = new Set(reads.filter((read) => read.events).map((read) => read.txId));
    for (const [txId, logs] of found.logs) {
      if (withEvents.has(txId)) continue;
      const sorted = [...logs].sort((a, b) => a.eventIndex - b.eventIndex);
      const read = events.get(txId);
      events.set(txId, read ? { ...read, logs: sorted } : { txId, logs: sorted, assets: [] });
    }
    return events;
  }

  /** A feed's error keeps the lowest stopping point of all, and the other feeds are still read below it. */
  private async guard(found: Found, from: number, read: () => Promise<void>): Promise<void> {
    try {
      await read();
    } catch (error) {
      if (!(error instanceof SubjectFeedError)) throw error;
      if (!found.error || stopBefore(error, from) < stopBefore(found.error, from)) found.error = error;
    }
  }

  private takeLogs(
    contract: string,
    walk: FeedWalk<LogFeedItem> | 'not-modified',
    headers: ReadonlyMap<number, HeaderLink>,
    found: Found,
    walks: LogWalk[],
  ): void {
    if (walk === 'not-modified') return;
    this.answered.add(walk.route);
    this.checkAsOf(contract, walk, headers, found);
    walks.push({ contract, walk });
  }

  /** Places every walk's logs at or above `from` (one batch lookup for all of them), each walk checked on its own. */
  private async placeLogs(walks: readonly LogWalk[], from: number, headers: ReadonlyMap<number, HeaderLink>, found: Found): Promise<void> {
    const known = new Map(found.txs);
    const placements = await placeLogs(
      walks.map(({ walk }) => walk),
      from,
      known,
      async (ids) => {
        const found = await this.feeds.transactions(ids);
        if (found instanceof Map && this.feeds.batchRoute) this.answered.add(this.feeds.batchRoute);
        return found;
      },
    );
    for (const [index, placement] of placements.entries()) {
      const { contract, walk } = walks[index]!;
      await this.guard(found, from, async () => {
        if ('error' in placement) throw placement.error;
        checkPlaced(walk, placement.placed, (item) => `log ${item.log.eventIndex} of ${item.txId}`);
        accept(walk, placement.placed, headers, found, (item) => {
          const logs = found.logs.get(item.txId) ?? [];
          logs.push(item.log);
          found.logs.set(item.txId, logs);
          return known.get(item.txId)!;
        });
        this.observe(contract, walk, placement.placed.filter(({ at }) => at.height >= from).length, from, found.top);
      });
    }
  }

  /** A subject's feed items at or above `from` over the blocks its walk covered, for later runs' plans. */
  private observe(subject: string, walk: FeedWalk<unknown>, items: number, from: number, top: number): void {
    this.activity?.subject(subject, items, top - Math.max(from, walk.truncatedBelow ?? from) + 1);
  }

  private readPrincipal(
    principal: string,
    walk: FeedWalk<PrincipalFeedItem> | 'not-modified',
    from: number,
    headers: ReadonlyMap<number, HeaderLink>,
    found: Found,
  ): void {
    if (walk === 'not-modified') return;
    this.answered.add(walk.route);
    const placed = walk.items.map((item) => ({
      item,
      at: { height: item.block.height, txIndex: item.transaction.txIndex, eventIndex: -1 },
      blockHash: item.block.hash,
    }));
    checkPlaced(walk, placed, (item) => `transaction ${item.transaction.txId}`);
    const watched = watchedAssetsOf(this.watch.rules, principal);
    accept(walk, placed, headers, found, (item) => {
      found.full.add(item.transaction.txId);
      if (mayMoveWatched(item.transaction, principal, item.moves, watched)) found.moved.add(item.transaction.txId);
      return { transaction: item.transaction, block: item.block };
    });
    this.observe(principal, walk, walk.items.filter((item) => item.block.height >= from).length, from, found.top);
  }

  /** The logs route's ETag is its replica's tip: items above that tip are not in the page yet (delayed, not absent). */
  private checkAsOf(contract: string, walk: FeedWalk<LogFeedItem>, headers: ReadonlyMap<number, HeaderLink>, found: Found): void {
    if (walk.etag === null) return;
    const tip = [...headers.values()].find((header) => header.indexHash === walk.etag);
    if (!tip) return;
    const before = this.asOf.get(contract);
    if (before !== undefined && tip.height < before) {
      throw new SubjectFeedError(walk.route, tip.height + 1, `its ETag went back from the tip at block ${before} to block ${tip.height}`);
    }
    this.asOf.set(contract, tip.height);
    found.end = Math.min(found.end, tip.height);
  }
}

/** A watched contract's walk of its logs. */
interface LogWalk {
  contract: string;
  walk: FeedWalk<LogFeedItem>;
}

/**
 * The first block a failed feed leaves in doubt: the block it failed at when its items below were read and
 * accepted, else the first block asked for (a walk runs newest first: a feed that broke off did not reach below).
 */
function stopBefore(error: SubjectFeedError, from: number): number {
  return error.readBelow ? error.height : from;
}

/** Keeps the walk's items in range whose block is the header chain's; the first that is not stops the read before it. */
function accept<T>(
  walk: FeedWalk<T>,
  placed: readonly PlacedItem<T>[],
  headers: ReadonlyMap<number, HeaderLink>,
  found: Found,
  located: (item: T) => LocatedTransaction,
): void {
  if (walk.truncatedBelow !== null) found.end = Math.min(found.end, walk.truncatedBelow - 1);
  const from = Math.min(...headers.keys());
  for (const { item, at, blockHash } of [...placed].reverse()) {
    if (at.height < from) continue;
    const header = headers.get(at.height);
    if (header && header.hash !== blockHash) {
      throw new SubjectFeedError(
        walk.route,
        at.height,
        `puts an item in block ${at.height} ${blockHash}, but the header chain's block ${at.height} is ${header.hash}`,
        true,
      );
    }
    const tx = located(item);
    if (!found.txs.has(tx.transaction.txId)) found.txs.set(tx.transaction.txId, tx);
  }
}

/** Blocks `from` to `last` of the header chain, each with the named transactions placed in it, by tx_index. */
function assemble(from: number, last: number, headers: ReadonlyMap<number, HeaderLink>, txs: ReadonlyMap<string, LocatedTransaction>): Block[] {
  const byHeight = new Map<number, Transaction[]>();
  for (const { transaction, block } of txs.values()) {
    if (block.height < from || block.height > last) continue;
    const list = byHeight.get(block.height) ?? [];
    list.push(transaction);
    byHeight.set(block.height, list);
  }
  const blocks: Block[] = [];
  for (let height = from; height <= last; height += 1) {
    const { indexHash: _index, ...header } = headers.get(height)!;
    blocks.push({ header, transactions: (byHeight.get(height) ?? []).sort((a, b) => a.txIndex - b.txIndex) });
  }
  return blocks;
}
