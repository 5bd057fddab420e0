// Reads one whole block through `GET /extended/v2/blocks/{h}/transactions`, page by page up to `total`,
// and refuses a block whose pages disagree: a half-read block must never look like a complete one, or
// the watcher would advance past transactions it never saw. Each page is checked and folded into the domain's
// transactions as it arrives (its answer is not kept), a few pages are in flight at once, and the first page
// that fails cancels the others: a block of thousands of transactions costs the memory of its compact form,
// and a failed one sends no request past the ones already in flight. When the header list already told the
// block's hash and transaction count (the newest page the tip came from), its later pages are asked beside the
// first: one round trip instead of two for a block of more than a page, the same requests. They are kept only if
// the first page tells the same hash and total; otherwise they are given up, never trusted, and read anew.
import type { Block, BlockHeader, Transaction } from '../core/domain';
import { checkedTotal, compactTransaction, genesisTransactions, inconsistent, isGenesisEra, MAX_BLOCK_TRANSACTIONS, PAGES_IN_FLIGHT } from './block-bounds';
import { HiroInconsistentDataError } from './errors';
import type { HiroHttp } from './http';
import { headerFromTransaction, toTransaction } from './mappers';
import type { HiroRequest } from './request';
import { blockTransactionsPageSchema, type RawBlockTransactionsPage } from './schemas';
import { cancelOnFailure } from './cancel-on-failure';

/** The route's maximum page size (51 is a 400). */
export const BLOCK_PAGE_LIMIT = 50;
export const BLOCK_TRANSACTIONS_ROUTE = 'GET /extended/v2/blocks/{height_or_hash}/transactions';

/** A page as the block keeps it: checked, folded into domain transactions, its answer let go. */
interface Page {
  request: HiroRequest;
  offset: number;
  total: number;
  /** Listed entries (the genesis era lists more than it counts). */
  listed: number;
  transactions: Transaction[];
}

/** The first page also gives what every other page is checked against. */
interface FirstPage extends Page {
  header: BlockHeader;
  blockHash: string;
}

/** What the header list says of a block before it is read. */
export interface ExpectedBlock {
  hash: string;
  txCount: number;
}

export async function readBlock(
  http: HiroHttp,
  height: number,
  readHeader: (height: number) => Promise<BlockHeader | null>,
  signal?: AbortSignal,
  expected?: ExpectedBlock,
): Promise<Block | null> {
  // Within the ceiling a block's total is held to, so that a count the list got wrong costs a few pages at most.
  const early =
    expected && expected.txCount > BLOCK_PAGE_LIMIT && expected.txCount <= MAX_BLOCK_TRANSACTIONS && !isGenesisEra(height)
      ? new EarlyPages(http, height, expected)
      : null;
  const first = await readFirstPage(http, height, signal).catch(async (error: unknown) => {
    await early?.drop();
    throw error;
  });
  if (!first) {
    await early?.drop();
    return readEmptyBlock(height, readHeader, pageRequest(height, 0));
  }
  if (isGenesisEra(height)) {
    return readListedBlock(http, height, first, signal, null).catch((error: unknown) => {
      if (error instanceof HiroInconsistentDataError) return readGenesisBlock(http, height, first, signal);
      throw error;
    });
  }
  return readListedBlock(http, height, first, signal, early);
}

async function readListedBlock(http: HiroHttp, height: number, first: FirstPage, signal: AbortSignal | undefined, early: EarlyPages | null): Promise<Block> {
  const total = checkedTotal(first.request, height, first.total);
  checkPage(height, total, first);
  const rest = (await early?.take(first.blockHash, total)) ?? (await readPages(http, height, total, first.blockHash, signal));
  const transactions = inIndexOrder(height, total, [first, ...rest]);
  return { header: { ...first.header, txCount: total }, transactions };
}

/** The pages after the first of a block of `total` transactions and hash `blockHash`, each checked as it arrives. */
function readPages(http: HiroHttp, height: number, total: number, blockHash: string, signal: AbortSignal | undefined): Promise<Page[]> {
  const offsets: number[] = [];
  for (let offset = BLOCK_PAGE_LIMIT; offset < total; offset += BLOCK_PAGE_LIMIT) offsets.push(offset);
  return cancelOnFailure(
    offsets,
    PAGES_IN_FLIGHT,
    async (offset, pageSignal) => {
      const page = await readPage(http, height, offset, blockHash, pageSignal);
      if (!page) {
        throw inconsistent(pageRequest(height, offset), `the page at offset ${offset} is gone although the first page said total ${total}.`);
      }
      return checkPage(height, total, page);
    },
    signal,
  );
}

/** The later pages of a block, asked beside its first from what the header list said of it. */
class EarlyPages {
  private readonly stop = new AbortController();
  private readonly pages: Promise<Page[]>;

  constructor(
    http: HiroHttp,
    height: number,
    private readonly expected: ExpectedBlock,
  ) {
    this.pages = readPages(http, height, expected.txCount, expected.hash, this.stop.signal);
    this.pages.catch(() => {});
  }

  /** The pages, when the first page tells the block the header list did; else null, once they are given up. */
  async take(blockHash: string, total: number): Promise<Page[] | null> {
    if (blockHash === this.expected.hash && total === this.expected.txCount) return this.pages;
    await this.drop();
    return null;
  }

  /** Gives the pages up: those not yet asked never are, and none is left in flight. */
  async drop(): Promise<void> {
    this.stop.abort();
    await this.pages.catch(() => {});
  }
}

/**
 * A genesis-era block that does not add up, as the API lists it: pages until one comes back short (its `total` undercounts), each
 * transaction once; still one block hash and one height (checked as each page is folded), or it is refused like any other block.
 */
async function readGenesisBlock(http: HiroHttp, height: number, first: FirstPage, signal: AbortSignal | undefined): Promise<Block> {
  const listed = [...first.transactions];
  for (let page: Page | null = first; page && page.listed >= BLOCK_PAGE_LIMIT; ) {
    if (listed.length >= MAX_BLOCK_TRANSACTIONS) {
      throw inconsistent(page.request, `block ${height} lists more than ${MAX_BLOCK_TRANSACTIONS} transactions.`);
    }
    page = await readPage(http, height, page.offset + BLOCK_PAGE_LIMIT, first.blockHash, signal);
    listed.push(...(page?.transactions ?? []));
  }
  const transactions = genesisTransactions(
    listed,
    (tx) => tx.txId,
    (tx) => tx.txIndex,
  );
  return { header: { ...first.header, txCount: transactions.length }, transactions };
}

async function readFirstPage(http: HiroHttp, height: number, signal: AbortSignal | undefined): Promise<FirstPage | null> {
  const request = pageRequest(height, 0, signal);
  const answer = await http.get(request, blockTransactionsPageSchema);
  const head = answer.ok ? answer.body.results[0] : undefined;
  if (!answer.ok || !head) return null; // 404 or no results: an empty page
  const page = fold(height, head.block_hash, request, 0, answer.body);
  return { ...page, header: headerFromTransaction(head, answer.body.total), blockHash: head.block_hash };
}

async function readPage(http: HiroHttp, height: number, offset: number, blockHash: string, signal: AbortSignal | undefined): Promise<Page | null> {
  const request = pageRequest(height, offset, signal);
  const answer = await http.get(request, blockTransactionsPageSchema);
  if (!answer.ok) return null; // 404: an empty page
  return fold(height, blockHash, request, offset, answer.body);
}

/** One page into the block's domain transactions, each from block `height` and hash `blockHash`, or a throw naming the first that is not. */
function fold(height: number, blockHash: string, request: HiroRequest, offset: number, body: RawBlockTransactionsPage): Page {
  for (const tx of body.results) {
    if (tx.block_height !== height) {
      throw inconsistent(request, `transaction ${tx.tx_id} is from block ${tx.block_height}, not ${height}.`);
    }
    if (tx.block_hash !== blockHash) {
      throw inconsistent(
        request,
        `block ${height} has transactions from two block hashes (${blockHash} and ${tx.block_hash}): it was replaced while being read.`,
      );
    }
  }
  return { request, offset, total: body.total, listed: body.results.length, transactions: body.results.map((tx) => compactTransaction(toTransaction(tx))) };
}

function pageRequest(height: number, offset: number, signal?: AbortSignal): HiroRequest {
  return {
    route: BLOCK_TRANSACTIONS_ROUTE,
    path: `/extended/v2/blocks/${height}/transactions`,
    query: [
      ['limit', BLOCK_PAGE_LIMIT],
      ['offset', offset],
    ],
    expect: [404],
    ...(signal ? { signal } : {}),
  };
}

/** The API answers 404 both for a block with no transactions and for no block at all; the header tells which. */
async function readEmptyBlock(height: number, readHeader: (height: number) => Promise<BlockHeader | null>, request: HiroRequest): Promise<Block | null> {
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

/** A page that says the block's `total` and holds as many transactions as its offset leaves. */
function checkPage(height: number, total: number, page: Page): Page {
  if (page.total !== total) {
    throw inconsistent(page.request, `total changed from ${total} to ${page.total} between pages of block ${height}.`);
  }
  const expected = Math.min(BLOCK_PAGE_LIMIT, total - page.offset);
  if (page.listed !== expected) {
    throw inconsistent(page.request, `the page at offset ${page.offset} has ${page.listed} transactions; total ${total} means ${expected}.`);
  }
  return page;
}

/** Returns the block's transactions in tx_index order, or throws naming the first disagreement. */
function inIndexOrder(height: number, total: number, pages: Page[]): Transaction[] {
  const byIndex = new Map<number, Transaction>();
  // A transaction is in a block once; a repeated id would give two alerts one key, and the second claim
  // would find the first "in flight" and stop every run at this block without an error.
  const indexById = new Map<string, number>();
  for (const { request, transactions } of pages) {
    for (const tx of transactions) {
      if (byIndex.has(tx.txIndex)) {
        throw inconsistent(request, `tx_index ${tx.txIndex} appears twice in block ${height}.`);
      }
      const seenAt = indexById.get(tx.txId);
      if (seenAt !== undefined) {
        throw inconsistent(request, `transaction ${tx.txId} appears twice in block ${height} (tx_index ${seenAt} and ${tx.txIndex}).`);
      }
      indexById.set(tx.txId, tx.txIndex);
      byIndex.set(tx.txIndex, tx);
    }
  }
  const ordered: Transaction[] = [];
  for (let index = 0; index < total; index += 1) {
    const tx = byIndex.get(index);
    if (!tx) throw inconsistent(pages[0]!.request, `tx_index ${index} is missing from block ${height} (total ${total}).`);
    ordered.push(tx);
  }
  return ordered;
}
