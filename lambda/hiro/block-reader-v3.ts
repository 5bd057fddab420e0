// Reads one whole block through `GET /extended/v3/blocks/{h}/transactions`, the successor of the v2 list:
// cursor paging (each page names the next, so pages follow one another), results in DESCENDING tx_index,
// summaries without events (with event counts since API 9.7.0), and an existing empty block as a 200 with no
// results (only an unknown block is a 404). The header comes from a block route where one is left. Pages that disagree are refused as in the v2 reader: a half-read block must never
// look like a complete one.
import { UNKNOWN_BLOCK_HASH, type Block, type BlockHeader } from '../core/domain';
import { checkedTotal, genesisTransactions, inconsistent, isGenesisEra, MAX_BLOCK_TRANSACTIONS } from './block-bounds';
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

interface Page {
  request: HiroRequest;
  body: RawV3BlockTransactionsPage;
}

/** Reads block `heightOrHash` (a height, or a hash when checking that a block is still canonical). */
export async function readBlockV3(http: HiroHttp, height: number, reading: V3BlockReading): Promise<Block | null> {
  const read = await readCheckedPages(http, height);
  if (!read) return null;
  const { pages, raws, genesis } = read;
  // The genesis era's `total` undercounts what it lists: there the listing is the count.
  const total = genesis ? raws.length : pages[0]!.body.total;
  const header = await blockHeader(height, total, raws[0], pages[0]!.request, reading);
  if (!header) return null;
  return { header, transactions: raws.map(fromTransactionSummary) };
}

/** The block's pages and transactions; a genesis-era block that does not add up is read again as listed. */
async function readCheckedPages(http: HiroHttp, height: number): Promise<{ pages: Page[]; raws: RawTransactionSummary[]; genesis: boolean } | null> {
  try {
    const pages = await readPages(http, String(height), V3_BLOCK_PAGE_LIMIT, Infinity);
    return pages && { pages, raws: checkPages(height, pages), genesis: false };
  } catch (error) {
    if (!(error instanceof HiroInconsistentDataError) || !isGenesisEra(height)) throw error;
    const pages = await readPages(http, String(height), V3_BLOCK_PAGE_LIMIT, Infinity, true);
    return pages && { pages, raws: genesisPages(height, pages), genesis: true };
  }
}

/**
 * A header from the first transaction of the block (parent hash unknown), for when the v2 header route is
 * retired; null when the API knows no such block. By hash it answers only for a canonical block.
 */
export async function readHeaderV3(http: HiroHttp, heightOrHash: string, fallbackTime: () => number): Promise<BlockHeader | null> {
  const pages = await readPages(http, heightOrHash, 1, 1);
  if (!pages) return null;
  const { request, body } = pages[0]!;
  const first = body.results[0];
  if (first) return { height: first.block.height, hash: first.block.hash, parentHash: null, time: first.block.time, txCount: body.total, ...burnHeightOf(first) };
  if (!/^\d+$/.test(heightOrHash)) {
    throw inconsistent(request, `block ${heightOrHash} is canonical but lists no transaction, so nothing tells its height.`);
  }
  return emptyBlockHeader(Number(heightOrHash), fallbackTime);
}

async function readPages(http: HiroHttp, heightOrHash: string, limit: number, maxPages: number, genesis = false): Promise<Page[] | null> {
  const pages: Page[] = [];
  let listed = 0;
  let cursor: string | null = null;
  do {
    const request = pageRequest(heightOrHash, limit, cursor);
    const answer = await http.get(request, v3BlockTransactionsPageSchema);
    if (!answer.ok) {
      if (pages.length === 0) return null; // 404: the API knows no such block
      throw inconsistent(request, `block ${heightOrHash} is gone between two pages of its transactions.`);
    }
    pages.push({ request, body: answer.body });
    listed += answer.body.results.length;
    cursor = answer.body.cursor.next;
    // Bounded by total (by the cap in the genesis era, whose total undercounts): a cursor that never ends, or a
    // page with nothing in it, would page for ever.
    const bound = genesis ? MAX_BLOCK_TRANSACTIONS : checkedTotal(request, heightOrHash, answer.body.total);
    if (cursor !== null && (answer.body.results.length === 0 || listed >= bound)) {
      throw inconsistent(request, `block ${heightOrHash} names a next page after ${listed} of its ${answer.body.total} transactions.`);
    }
  } while (cursor !== null && pages.length < maxPages);
  return pages;
}

function pageRequest(heightOrHash: string, limit: number, cursor: string | null): HiroRequest {
  return {
    route: V3_ROUTES.blockTransactions,
    path: `/extended/v3/blocks/${heightOrHash}/transactions`,
    query: [['limit', limit], ...(cursor === null ? [] : [['cursor', cursor] as const])],
    expect: [404],
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
      throw inconsistent(request, `block ${height}'s header (${header ? `${header.hash}, ${header.txCount} transactions` : 'none'}) does not match its transactions (${first?.block.hash ?? 'none'}, ${total}).`);
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

/** A genesis-era block's listing, each transaction once, in ascending tx_index; one height and one hash still. */
function genesisPages(height: number, pages: Page[]): RawTransactionSummary[] {
  const listed = pages.flatMap((page) => page.body.results).reverse();
  const raws = genesisTransactions(listed, (tx) => tx.tx_id, (tx) => tx.block.tx_index);
  for (const tx of raws) {
    if (tx.block.height !== height || tx.block.hash !== raws[0]!.block.hash) {
      throw inconsistent(pages[0]!.request, `transaction ${tx.tx_id} is from block ${tx.block.height} (${tx.block.hash}), not ${height} (${raws[0]!.block.hash}).`);
    }
  }
  return raws;
}

/** Returns the block's transactions in ascending tx_index, or throws naming the first disagreement. */
function checkPages(height: number, pages: Page[]): RawTransactionSummary[] {
  const total = pages[0]!.body.total;
  const byIndex = new Map<number, RawTransactionSummary>();
  const blockHash = pages[0]!.body.results[0]?.block.hash;
  for (const { request, body } of pages) {
    if (body.total !== total) {
      throw inconsistent(request, `total changed from ${total} to ${body.total} between pages of block ${height}.`);
    }
    for (const tx of body.results) {
      if (tx.block.height !== height) {
        throw inconsistent(request, `transaction ${tx.tx_id} is from block ${tx.block.height}, not ${height}.`);
      }
      if (tx.block.hash !== blockHash) {
        throw inconsistent(request, `block ${height} has transactions from two block hashes (${blockHash} and ${tx.block.hash}): it was replaced while being read.`);
      }
      if (byIndex.has(tx.block.tx_index)) {
        throw inconsistent(request, `tx_index ${tx.block.tx_index} appears twice in block ${height}.`);
      }
      byIndex.set(tx.block.tx_index, tx);
    }
  }
  if (byIndex.size !== total) {
    throw inconsistent(pages.at(-1)!.request, `block ${height} listed ${byIndex.size} transactions; total says ${total}.`);
  }
  const ordered: RawTransactionSummary[] = [];
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
