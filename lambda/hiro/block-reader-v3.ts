// Reads one whole block through `GET /extended/v3/blocks/{h}/transactions`, the successor of the v2 list:
// cursor paging (each page names the next, so pages follow one another), results in DESCENDING tx_index,
// summaries without events (with event counts since API 9.7.0), and an existing empty block as a 200 with no
// results (only an unknown block is a 404). The header comes from a block route where one is left. Pages that disagree are refused as in the v2 reader: a half-read block must never
// look like a complete one. Each page is checked and folded into domain transactions as it arrives (its answer
// is not kept), as in the v2 reader; the cursor makes pages follow one another, so one is in flight at a time.
import { UNKNOWN_BLOCK_HASH, type Block, type BlockHeader, type Transaction } from '../core/domain';
import { checkedTotal, compactTransaction, genesisTransactions, inconsistent, isGenesisEra, MAX_BLOCK_TRANSACTIONS } from './block-bounds';
import { HiroInconsistentDataError } from './errors';
import type { HiroHttp } from './http';
import { V3_ROUTES } from './deprecations';
import { fromTransactionSummary } from './mappers-v3';
import type { HiroRequest } from './request';
import { v3BlockTransactionsPageSchema, type RawTransactionSummary, type RawV3BlockTransactionsPage } from './schemas-v3';

/** The route's maximum page size. */
export const V3_BLOCK_PAGE_LIMIT = 50;

export interface V3BlockReading {
  /**
   * The block's header from a block route (null: that route knows no such block), or undefined when no block
   * route is left: the header is then built from the transactions (parent hash unknown) and `fallbackTime`
   * dates an empty block.
   */
  readHeader: (height: number) => Promise<BlockHeader | null | undefined>;
  fallbackTime: () => number;
}

/** A page as the block keeps it: checked, folded into domain transactions, its answer let go. */
interface Page {
  request: HiroRequest;
  total: number;
  transactions: Transaction[];
}

/** A block's pages, and the first transaction listed (its block's hash, time and Bitcoin height). */
interface Pages {
  pages: Page[];
  head: RawTransactionSummary | undefined;
}

/** Reads block `heightOrHash` (a height, or a hash when checking that a block is still canonical). */
export async function readBlockV3(http: HiroHttp, height: number, reading: V3BlockReading, signal?: AbortSignal): Promise<Block | null> {
  const read = await readCheckedPages(http, height, signal);
  if (!read) return null;
  const { pages, head, transactions, genesis } = read;
  // The genesis era's `total` undercounts what it lists: there the listing is the count.
  const total = genesis ? transactions.length : pages[0]!.total;
  const header = await blockHeader(height, total, head, pages[0]!.request, reading);
  if (!header) return null;
  return { header, transactions };
}

/** The block's pages and transactions; a genesis-era block that does not add up is read again as listed. */
async function readCheckedPages(
  http: HiroHttp,
  height: number,
  signal: AbortSignal | undefined,
): Promise<(Pages & { transactions: Transaction[]; genesis: boolean }) | null> {
  try {
    const read = await readPages(http, String(height), V3_BLOCK_PAGE_LIMIT, Infinity, { height, signal });
    return read && { ...read, transactions: checkPages(height, read.pages), genesis: false };
  } catch (error) {
    if (!(error instanceof HiroInconsistentDataError) || !isGenesisEra(height)) throw error;
    const read = await readPages(http, String(height), V3_BLOCK_PAGE_LIMIT, Infinity, { height, signal, genesis: true });
    return read && { ...read, transactions: genesisPages(read.pages), genesis: true };
  }
}

/**
 * A header from the first transaction of the block (parent hash unknown), for when the v2 header route is
 * retired; null when the API knows no such block. By hash it answers only for a canonical block.
 */
export async function readHeaderV3(http: HiroHttp, heightOrHash: string, fallbackTime: () => number): Promise<BlockHeader | null> {
  const read = await readPages(http, heightOrHash, 1, 1, {});
  if (!read) return null;
  const { request, total } = read.pages[0]!;
  const first = read.head;
  if (first) return { height: first.block.height, hash: first.block.hash, parentHash: null, time: first.block.time, txCount: total, ...burnHeightOf(first) };
  if (!/^\d+$/.test(heightOrHash)) {
    throw inconsistent(request, `block ${heightOrHash} is canonical but lists no transaction, so nothing tells its height.`);
  }
  return emptyBlockHeader(Number(heightOrHash), fallbackTime);
}

interface PageReading {
  /** The height the block is read at: each transaction is checked to be from it, and from one block hash. */
  height?: number;
  signal?: AbortSignal | undefined;
  genesis?: boolean;
}

async function readPages(http: HiroHttp, heightOrHash: string, limit: number, maxPages: number, reading: PageReading): Promise<Pages | null> {
  const pages: Page[] = [];
  let head: RawTransactionSummary | undefined;
  let listed = 0;
  let cursor: string | null = null;
  do {
    const request = pageRequest(heightOrHash, limit, cursor, reading.signal);
    const answer = await http.get(request, v3BlockTransactionsPageSchema);
    if (!answer.ok) {
      if (pages.length === 0) return null; // 404: the API knows no such block
      throw inconsistent(request, `block ${heightOrHash} is gone between two pages of its transactions.`);
    }
    head ??= answer.body.results[0];
    pages.push(fold(reading.height, head?.block.hash, request, answer.body));
    listed += answer.body.results.length;
    cursor = answer.body.cursor.next;
    // Bounded by total (by the cap in the genesis era, whose total undercounts): a cursor that never ends, or a
    // page with nothing in it, would page for ever.
    const bound = reading.genesis ? MAX_BLOCK_TRANSACTIONS : checkedTotal(request, heightOrHash, answer.body.total);
    if (cursor !== null && (answer.body.results.length === 0 || listed >= bound)) {
      throw inconsistent(request, `block ${heightOrHash} names a next page after ${listed} of its ${answer.body.total} transactions.`);
    }
  } while (cursor !== null && pages.length < maxPages);
  return { pages, head };
}

/** One page into domain transactions, each from block `height` (when reading one) and hash `blockHash`, or a throw naming the first that is not. */
function fold(height: number | undefined, blockHash: string | undefined, request: HiroRequest, body: RawV3BlockTransactionsPage): Page {
  for (const tx of body.results) {
    if (height !== undefined && tx.block.height !== height) {
      throw inconsistent(request, `transaction ${tx.tx_id} is from block ${tx.block.height}, not ${height}.`);
    }
    if (tx.block.hash !== blockHash) {
      throw inconsistent(
        request,
        `block ${height ?? tx.block.height} has transactions from two block hashes (${blockHash} and ${tx.block.hash}): it was replaced while being read.`,
      );
    }
  }
  return { request, total: body.total, transactions: body.results.map((tx) => compactTransaction(fromTransactionSummary(tx))) };
}

function pageRequest(heightOrHash: string, limit: number, cursor: string | null, signal: AbortSignal | undefined): HiroRequest {
  return {
    route: V3_ROUTES.blockTransactions,
    path: `/extended/v3/blocks/${heightOrHash}/transactions`,
    query: [['limit', limit], ...(cursor === null ? [] : [['cursor', cursor] as const])],
    expect: [404],
    ...(signal ? { signal } : {}),
  };
}

async function blockHeader(
  height: number,
  total: number,
  first: RawTransactionSummary | undefined,
  request: HiroRequest,
  reading: V3BlockReading,
): Promise<BlockHeader | null> {
  const header = await reading.readHeader(height);
  if (header !== undefined) {
    // Read apart from the transactions: a reorg in between would pair one block's header with another's.
    // The genesis era's header counts what its `total` counts, not what it lists: only the hash is compared there.
    const countsAgree = header?.txCount === total || isGenesisEra(height);
    if (!header || header.height !== height || (first && header.hash !== first.block.hash) || !countsAgree) {
      throw inconsistent(
        request,
        `block ${height}'s header (${header ? `${header.hash}, ${header.txCount} transactions` : 'none'}) does not match its transactions (${first?.block.hash ?? 'none'}, ${total}).`,
      );
    }
    return { ...header, txCount: total };
  }
  if (first) return { height, hash: first.block.hash, parentHash: null, time: first.block.time, txCount: total, ...burnHeightOf(first) };
  return emptyBlockHeader(height, reading.fallbackTime);
}

/**
 * An existing block with no transactions, when no header route is left: nothing in v3 names its hash or its
 * time. UNKNOWN_BLOCK_HASH says so to the core (which then cannot check links through it), and the latest block time
 * seen stands in for its time (blocks come seconds apart, so chain lag is off by that much at most).
 */
function emptyBlockHeader(height: number, fallbackTime: () => number): BlockHeader {
  return { height, hash: UNKNOWN_BLOCK_HASH, parentHash: null, time: fallbackTime(), txCount: 0 };
}

/** A genesis-era block's listing, each transaction once, in ascending tx_index (one height and one hash, checked as each page was folded). */
function genesisPages(pages: Page[]): Transaction[] {
  const listed = pages.flatMap((page) => page.transactions).reverse();
  return genesisTransactions(
    listed,
    (tx) => tx.txId,
    (tx) => tx.txIndex,
  );
}

/** Returns the block's transactions in ascending tx_index, or throws naming the first disagreement. */
function checkPages(height: number, pages: Page[]): Transaction[] {
  const total = pages[0]!.total;
  const byIndex = new Map<number, Transaction>();
  for (const { request, total: pageTotal, transactions } of pages) {
    if (pageTotal !== total) {
      throw inconsistent(request, `total changed from ${total} to ${pageTotal} between pages of block ${height}.`);
    }
    for (const tx of transactions) {
      if (byIndex.has(tx.txIndex)) {
        throw inconsistent(request, `tx_index ${tx.txIndex} appears twice in block ${height}.`);
      }
      byIndex.set(tx.txIndex, tx);
    }
  }
  if (byIndex.size !== total) {
    throw inconsistent(pages.at(-1)!.request, `block ${height} listed ${byIndex.size} transactions; total says ${total}.`);
  }
  const ordered: Transaction[] = [];
  for (let index = 0; index < total; index += 1) {
    const tx = byIndex.get(index);
    if (!tx) throw inconsistent(pages[0]!.request, `tx_index ${index} is missing from block ${height} (total ${total}).`);
    ordered.push(tx);
  }
  return ordered;
}

/** The Bitcoin height a block's transactions carry, when they do (STX locks end at one). */
function burnHeightOf(tx: { bitcoin_block?: { height: number } | undefined }): { burnHeight?: number } {
  return tx.bitcoin_block === undefined ? {} : { burnHeight: tx.bitcoin_block.height };
}
