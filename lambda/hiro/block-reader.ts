// Reads one whole block through `GET /extended/v2/blocks/{h}/transactions`, page by page up to `total`,
// and refuses a block whose pages disagree: a half-read block must never look like a complete one, or
// the watcher would advance past transactions it never saw.
import type { Block, BlockHeader } from '../core/domain';
import { checkedTotal, genesisTransactions, inconsistent, isGenesisEra, MAX_BLOCK_TRANSACTIONS } from './block-bounds';
import { HiroInconsistentDataError } from './errors';
import type { HiroHttp } from './http';
import { headerFromTransaction, toTransaction } from './mappers';
import type { HiroRequest } from './request';
import { blockTransactionsPageSchema, type RawBlockTransaction, type RawBlockTransactionsPage } from './schemas';

/** The route's maximum page size (51 is a 400). */
export const BLOCK_PAGE_LIMIT = 50;
export const BLOCK_TRANSACTIONS_ROUTE = 'GET /extended/v2/blocks/{height_or_hash}/transactions';

interface Page {
  request: HiroRequest;
  offset: number;
  body: RawBlockTransactionsPage;
}

export async function readBlock(
  http: HiroHttp,
  height: number,
  readHeader: (height: number) => Promise<BlockHeader | null>,
): Promise<Block | null> {
  const first = await readPage(http, height, 0);
  if (!first || first.body.results.length === 0) return readEmptyBlock(height, readHeader, pageRequest(height, 0));
  if (isGenesisEra(height)) {
    return readListedBlock(http, height, first).catch((error: unknown) => {
      if (error instanceof HiroInconsistentDataError) return readGenesisBlock(http, height, first);
      throw error;
    });
  }
  return readListedBlock(http, height, first);
}

async function readListedBlock(http: HiroHttp, height: number, first: Page): Promise<Block> {
  const total = checkedTotal(first.request, height, first.body.total);
  const offsets: number[] = [];
  for (let offset = BLOCK_PAGE_LIMIT; offset < total; offset += BLOCK_PAGE_LIMIT) offsets.push(offset);
  // The rest in parallel: the limiter spaces them and bounds how many are in flight.
  const rest = await Promise.all(
    offsets.map(async (offset) => {
      const page = await readPage(http, height, offset);
      if (!page) {
        throw inconsistent(pageRequest(height, offset), `the page at offset ${offset} is gone although the first page said total ${total}.`);
      }
      return page;
    }),
  );
  const pages = [first, ...rest];
  const raws = checkPages(height, total, pages);
  return { header: headerFromTransaction(raws[0]!, total), transactions: raws.map(toTransaction) };
}

/**
 * A genesis-era block that does not add up, as the API lists it: pages until one comes back short (its `total` undercounts), each
 * transaction once; still one block hash and one height, or it is refused like any other block.
 */
async function readGenesisBlock(http: HiroHttp, height: number, first: Page): Promise<Block> {
  const listed = [...first.body.results];
  for (let page: Page | null = first; page && page.body.results.length >= BLOCK_PAGE_LIMIT; ) {
    if (listed.length >= MAX_BLOCK_TRANSACTIONS) {
      throw inconsistent(page.request, `block ${height} lists more than ${MAX_BLOCK_TRANSACTIONS} transactions.`);
    }
    page = await readPage(http, height, page.offset + BLOCK_PAGE_LIMIT);
    listed.push(...(page?.body.results ?? []));
  }
  const raws = genesisTransactions(listed, (tx) => tx.tx_id, (tx) => tx.tx_index);
  for (const tx of raws) {
    if (tx.block_height !== height || tx.block_hash !== raws[0]!.block_hash) {
      throw inconsistent(first.request, `transaction ${tx.tx_id} is from block ${tx.block_height} (${tx.block_hash}), not ${height} (${raws[0]!.block_hash}).`);
    }
  }
  return { header: headerFromTransaction(raws[0]!, raws.length), transactions: raws.map(toTransaction) };
}

async function readPage(http: HiroHttp, height: number, offset: number): Promise<Page | null> {
  const request = pageRequest(height, offset);
  const answer = await http.get(request, blockTransactionsPageSchema);
  if (!answer.ok) return null; // 404: an empty page
  return { request, offset, body: answer.body };
}

function pageRequest(height: number, offset: number): HiroRequest {
  return {
    route: BLOCK_TRANSACTIONS_ROUTE,
    path: `/extended/v2/blocks/${height}/transactions`,
    query: [
      ['limit', BLOCK_PAGE_LIMIT],
      ['offset', offset],
    ],
    expect: [404],
  };
}

/** The API answers 404 both for a block with no transactions and for no block at all; the header tells which. */
async function readEmptyBlock(
  height: number,
  readHeader: (height: number) => Promise<BlockHeader | null>,
  request: HiroRequest,
): Promise<Block | null> {
  const header = await readHeader(height);
  if (!header) return null;
  if (header.height !== height) {
    throw inconsistent(request, `asked for block ${height}, the header answered block ${header.height}.`);
  }
  if (header.txCount > 0) {
    throw inconsistent(request, `block ${height} has tx_count ${header.txCount} but its first page of transactions was empty.`);
  }
  return { header, transactions: [] };
}

/** Returns the block's transactions in tx_index order, or throws naming the first disagreement. */
function checkPages(height: number, total: number, pages: Page[]): RawBlockTransaction[] {
  const byIndex = new Map<number, RawBlockTransaction>();
  // A transaction is in a block once; a repeated id would give two alerts one key, and the second claim
  // would find the first "in flight" and stop every run at this block without an error.
  const indexById = new Map<string, number>();
  const blockHash = pages[0]!.body.results[0]!.block_hash;
  for (const { request, offset, body } of pages) {
    if (body.total !== total) {
      throw inconsistent(request, `total changed from ${total} to ${body.total} between pages of block ${height}.`);
    }
    const expected = Math.min(BLOCK_PAGE_LIMIT, total - offset);
    if (body.results.length !== expected) {
      throw inconsistent(request, `the page at offset ${offset} has ${body.results.length} transactions; total ${total} means ${expected}.`);
    }
    for (const tx of body.results) {
      if (tx.block_height !== height) {
        throw inconsistent(request, `transaction ${tx.tx_id} is from block ${tx.block_height}, not ${height}.`);
      }
      if (tx.block_hash !== blockHash) {
        throw inconsistent(request, `block ${height} has transactions from two block hashes (${blockHash} and ${tx.block_hash}): it was replaced while being read.`);
      }
      if (byIndex.has(tx.tx_index)) {
        throw inconsistent(request, `tx_index ${tx.tx_index} appears twice in block ${height}.`);
      }
      const seenAt = indexById.get(tx.tx_id);
      if (seenAt !== undefined) {
        throw inconsistent(request, `transaction ${tx.tx_id} appears twice in block ${height} (tx_index ${seenAt} and ${tx.tx_index}).`);
      }
      indexById.set(tx.tx_id, tx.tx_index);
      byIndex.set(tx.tx_index, tx);
    }
  }
  const ordered: RawBlockTransaction[] = [];
  for (let index = 0; index < total; index += 1) {
    const tx = byIndex.get(index);
    if (!tx) throw inconsistent(pages[0]!.request, `tx_index ${index} is missing from block ${height} (total ${total}).`);
    ordered.push(tx);
  }
  return ordered;
}
