// The per-subject feeds as the core reads them: a watched contract's logs and a tracked principal's
// transactions, newest first, page by page, and the header chain they are checked against. A port like
// ChainApi (ports.ts); the Hiro adapter is lambda/hiro/subject-feeds.ts, the routes docs/api-routes.md.
import type { BlockHeader, ChainTip, ContractLogEvent, Transaction } from '../domain';
import type { PrincipalMoves } from './feed-row-moves';

/** Where an item sits in the chain: a transaction row has eventIndex -1. */
export interface FeedPosition {
  height: number;
  txIndex: number;
  eventIndex: number;
}

/** A header of the header chain with the index hash the feeds' ETags name. */
export interface HeaderLink extends BlockHeader {
  indexHash: string;
}

/** A transaction and the block the API put it in. */
export interface LocatedTransaction {
  transaction: Transaction;
  block: { height: number; hash: string };
}

/** One log of a contract's feed: it names the transaction, not the block (the batch lookup tells that). */
export interface LogFeedItem {
  txId: string;
  log: ContractLogEvent;
}

/** One transaction of a principal's feed, with its block and, when the row says, the principal's own movements in it. */
export interface PrincipalFeedItem extends LocatedTransaction {
  moves?: PrincipalMoves;
}

export interface FeedPage<T> {
  /** The route template that answered, for errors. */
  route: string;
  /** Newest first. */
  items: T[];
  /** The page's own (inclusive) cursor: where its first item sits; null on an empty feed. */
  at: FeedPosition | null;
  /** The cursor of the next older page, and where that page starts; null at the feed's end. */
  older: { cursor: string; at: FeedPosition } | null;
  /** The answer's ETag (quotes kept off), when the route sends one. */
  etag: string | null;
}

export type FeedAnswer<T> =
  | { kind: 'page'; page: FeedPage<T> }
  /** 304: nothing new since the ETag sent. */
  | { kind: 'not-modified' }
  /** The API no longer knows the cursor sent (404 `Cursor not found`). */
  | { kind: 'unknown-cursor'; route: string }
  /** The route itself is missing (404 on an API older than it). */
  | { kind: 'missing'; route: string };

export interface SubjectFeedApi {
  /** The header chain's route, for errors. */
  readonly headerRoute: string;
  /** Which API answers (its base URL): the routes a process found missing are remembered per API (subject-fallback.ts). */
  readonly api?: string;
  /** The transaction batch's route, to know when it answered (subject-fallback.ts). */
  readonly batchRoute?: string;
  /**
   * The canonical headers from the tip down to `fromHeight`, ascending, each with its index hash and its
   * parent (the lowest's may be null); null when the API has no header chain route.
   */
  headerChain(fromHeight: number): Promise<HeaderLink[] | null>;
  /**
   * The chain tip from the header chain's newest page, which the header chain read right after it reuses: a run
   * read per subject pays one request for both. undefined when the API has no header chain route it can read.
   */
  tip?(): Promise<ChainTip | null | undefined>;
  contractLogs(contractId: string, cursor: string | null, ifNoneMatch?: string): Promise<FeedAnswer<LogFeedItem>>;
  principalTransactions(principal: string, cursor: string | null, ifNoneMatch?: string): Promise<FeedAnswer<PrincipalFeedItem>>;
  /** True once the batched events route has answered 410: the block scan then pays a request per transaction. */
  eventsRetired?(): boolean;
  /**
   * The canonical transactions among `txIds` with their blocks; an id the API does not know is absent.
   * `missing` when the API has no batch route (a 404 naming the route, as on an API older than it).
   */
  transactions(txIds: readonly string[]): Promise<Map<string, LocatedTransaction> | { missing: string }>;
}
