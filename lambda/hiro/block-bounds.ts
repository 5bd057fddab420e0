// What the block readers believe of a page of block transactions, and where they stop believing it.
// `total` is the API's word and sizes the paging, so a hostile or broken `total` (1e7) must not decide how many
// requests are made or how much is allocated; and the genesis era is listed the way the API really lists it.
import type { Transaction } from '../core/domain';
import { HiroInconsistentDataError } from './errors';
import { describeRequest, type HiroRequest } from './request';

/**
 * More transactions than any Stacks block holds (a Nakamoto block is bounded by its cost budget to a few
 * thousand): a `total` past this is a broken answer, refused before a single further page is asked for.
 */
export const MAX_BLOCK_TRANSACTIONS = 20_000;

/**
 * The API lists the genesis boot-contract deploys under block 1 (and block 0 where it has one) with repeated
 * `tx_index` values and a `total` that counts fewer than it lists: on testnet 12 listed, `total` 5. Those blocks
 * are read as listed instead of checked against `total`, or a devnet, regtest or full replay never passes them.
 */
export const GENESIS_ERA_LAST_HEIGHT = 1;

export function isGenesisEra(height: number): boolean {
  return height <= GENESIS_ERA_LAST_HEIGHT;
}

/** The genesis era's transactions as listed: each id once (its first listing), ascending tx_index, listing order among equals. */
export function genesisTransactions<T>(listed: readonly T[], id: (tx: T) => string, index: (tx: T) => number): T[] {
  const byId = new Map<string, T>();
  for (const tx of listed) if (!byId.has(id(tx))) byId.set(id(tx), tx);
  return [...byId.values()]
    .map((tx, order) => ({ tx, order }))
    .sort((a, b) => index(a.tx) - index(b.tx) || a.order - b.order)
    .map(({ tx }) => tx);
}

/** The page's `total`, refused when no block could hold it (the block then stalls with the operator told, not a crash). */
export function checkedTotal(request: HiroRequest, height: number | string, total: number): number {
  if (total > MAX_BLOCK_TRANSACTIONS) {
    throw inconsistent(request, `block ${height} claims ${total} transactions, more than the ${MAX_BLOCK_TRANSACTIONS} any Stacks block holds.`);
  }
  return total;
}

/**
 * Pages of one block's list in flight at once: as many as the client's default concurrency, so a lone block is
 * read as fast as before, and a failed page leaves at most this many requests to cancel, none queued behind it.
 */
export const PAGES_IN_FLIGHT = 4;

/**
 * Most Clarity text a listed call keeps, its arguments and result together. A block is held as its domain
 * transactions while its pages are read, and a call's arguments can be megabytes (a big buffer): past this they
 * are dropped (null, as a v3 list gives them), and read again only for a call that a `calls` rule alerts on.
 */
export const MAX_LISTED_CALL_TEXT = 2 * 1024;

/** The transaction as a block holds it: a listed call's text past MAX_LISTED_CALL_TEXT left to be read when needed. */
export function compactTransaction(tx: Transaction): Transaction {
  const call = tx.contractCall;
  if (!call) return tx;
  const size = (call.resultRepr?.length ?? 0) + (call.args ?? []).reduce((sum, arg) => sum + arg.length, 0);
  return size <= MAX_LISTED_CALL_TEXT ? tx : { ...tx, contractCall: { ...call, args: null, resultRepr: null } };
}

export function inconsistent(request: HiroRequest, problem: string): HiroInconsistentDataError {
  return new HiroInconsistentDataError({ endpoint: describeRequest(request), route: request.route }, problem);
}
