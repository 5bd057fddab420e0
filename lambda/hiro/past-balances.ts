// What an address held after a past block without the retired v1 balances route: its balance now (the v3
// balance routes, which have no past block) less every change since that block: each of its v3 transactions'
// STX balance change (fees included, whoever paid them), each movement of a watched token (API 9.1.0's transfer
// route). The principal's transaction list is read before and after the balances, and its ETag (its newest
// transaction) must not move in between: the balance and the changes then describe the same chain. The v1
// route stays first while it answers (one request, where this costs at least three): balances.ts.
import { BalanceUnavailableError, type PrincipalBalances } from '../core/domain';
import * as z from '../zod-mini';
import { HiroNotFoundError, HiroResponseError } from './errors';
import type { HiroHttp } from './http';
import { readFtBalancesNow, readFtTransfers, readStxBalanceNow, type RequestCount, type TransferRow } from './principal-reads';
import { describeRequest, type HiroRequest } from './request';
import { principalTransactionsPageSchema } from './schemas-subjects';
import { PRINCIPAL_PAGE_LIMIT, SUBJECT_ROUTES } from './subject-feeds';
import { checkBody } from './validate';

/** Pages of changes walked back at most per read (1,000 transactions, or token movements): past it, unavailable. */
export const MAX_CHANGE_PAGES = 20;
/** Times the balance is read again when the principal moved while it was read; then the read fails, for a later run. */
const SNAPSHOT_TRIES = 3;
/** Stacking calls go to the boot contracts `pox`, `pox-2` … `pox-5`: they change the locked STX without a balance change. */
const STACKING_CONTRACT = /^S[PT]000000000000000000002(Q6VF78|AMW42H)\.pox(-\d+)?$/;

interface ChangeRow {
  txId: string;
  height: number;
  txIndex: number;
  /** STX in less STX out, fees included, micro-STX. */
  stxNet: bigint;
  stacking: boolean;
}

interface ChangePage {
  rows: ChangeRow[];
  older: string | null;
  etag: string | null;
}

const anyBody = z.unknown();

/** `retryFrom`: the lowest block a read could be made at with a chance (below it the same changes stand in the way). */
function unavailable(principal: string, at: number, why: string, count: RequestCount, retryFrom?: number): BalanceUnavailableError {
  return new BalanceUnavailableError(`the balance of ${principal} after block ${at} cannot be rebuilt from the API's current balance and its changes: ${why}`, {
    requests: count.requests,
    ...(retryFrom === undefined ? {} : { retryFrom }),
  });
}

async function changePage(
  http: HiroHttp,
  principal: string,
  cursor: string | null,
  count: RequestCount,
  ifNoneMatch?: string,
): Promise<ChangePage | 'not-modified' | null> {
  const request: HiroRequest = {
    route: SUBJECT_ROUTES.principalTransactions,
    path: `/extended/v3/principals/${encodeURIComponent(principal)}/transactions`,
    query: [['limit', PRINCIPAL_PAGE_LIMIT], ...(cursor === null ? [] : [['cursor', cursor] as const])],
    ...(ifNoneMatch === undefined ? {} : { headers: { 'if-none-match': `"${ifNoneMatch}"` } }),
    expect: [304, 404],
  };
  count.requests += 1;
  const answer = await http.get(request, anyBody);
  if (!answer.ok && answer.status === 304) return 'not-modified';
  if (!answer.ok) {
    if (cursor === null) return null;
    throw new HiroResponseError({ endpoint: describeRequest(request), route: request.route }, 404, 'the API no longer knows the cursor of the older page');
  }
  const checked = checkBody(principalTransactionsPageSchema, answer.body);
  if (!checked.ok) throw new HiroResponseError({ endpoint: describeRequest(request), route: request.route }, 200, checked.problem);
  const tag = answer.headers.get('etag');
  return {
    rows: checked.value.results.map((row) => ({
      txId: row.transaction.tx_id,
      height: row.transaction.block.height,
      txIndex: row.transaction.block.tx_index,
      stxNet: BigInt(row.balance_changes.stx.net),
      stacking: row.transaction.type === 'contract_call' && STACKING_CONTRACT.test(row.transaction.contract_call?.contract_id ?? ''),
    })),
    older: checked.value.cursor.next,
    etag: tag === null ? null : tag.replace(/^W\//, '').replace(/^"|"$/g, ''),
  };
}

/** The same newest transaction, or a 304 on the ETag: nothing moved the principal between the two reads. */
async function unmoved(http: HiroHttp, principal: string, first: ChangePage, count: RequestCount): Promise<ChangePage | true> {
  const again = await changePage(http, principal, null, count, first.etag ?? undefined);
  if (again === 'not-modified') return true;
  if (again === null) throw new Error(`${SUBJECT_ROUTES.principalTransactions} went missing between two reads`);
  return again.rows[0]?.txId === first.rows[0]?.txId ? true : again;
}

interface Snapshot {
  newest: ChangePage;
  stx: Awaited<ReturnType<typeof readStxBalanceNow>> | null;
  fts: Map<string, bigint>;
}

async function balancesNow(http: HiroHttp, principal: string, at: number, assets: readonly string[], count: RequestCount): Promise<Snapshot> {
  const first = await changePage(http, principal, null, count);
  if (first === null || first === 'not-modified')
    throw unavailable(principal, at, `the API has no ${SUBJECT_ROUTES.principalTransactions} (older than it)`, count);
  let newest = first;
  for (let tries = 0; tries < SNAPSHOT_TRIES; tries += 1) {
    const stx = assets.includes('stx') ? await nowOrMissing(() => readStxBalanceNow(http, principal, count), principal, at, count) : null;
    const fts = assets.some((a) => a !== 'stx')
      ? await nowOrMissing(() => readFtBalancesNow(http, principal, count), principal, at, count)
      : new Map<string, bigint>();
    const check = await unmoved(http, principal, newest, count);
    if (check === true) return { newest, stx, fts };
    newest = check;
  }
  throw new Error(`${principal} kept moving while its balance was read (${SNAPSHOT_TRIES} tries): read again next run`);
}

async function nowOrMissing<T>(read: () => Promise<T>, principal: string, at: number, count: RequestCount): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof HiroNotFoundError) throw unavailable(principal, at, `the API has no ${error.route} (older than it)`, count);
    throw error;
  }
}

/** The STX changes after block `at`, newest first from `newest`; the block of the newest stacking call among them, if any. */
async function stxSince(
  http: HiroHttp,
  principal: string,
  at: number,
  newest: ChangePage,
  count: RequestCount,
): Promise<{ net: bigint; stackingAt: number | null }> {
  let net = 0n;
  let stackingAt: number | null = null;
  let page = newest;
  for (let pages = 1; ; pages += 1) {
    for (const row of page.rows) {
      if (row.height <= at) return { net, stackingAt };
      net += row.stxNet;
      if (row.stacking) stackingAt = Math.max(stackingAt ?? row.height, row.height);
    }
    if (page.older === null) return { net, stackingAt };
    // The changes walked all lie above the oldest one's block: a read below it would walk them again.
    if (pages >= MAX_CHANGE_PAGES)
      throw unavailable(
        principal,
        at,
        `more than ${MAX_CHANGE_PAGES * PRINCIPAL_PAGE_LIMIT} transactions since, the most a read walks`,
        count,
        page.rows.at(-1)?.height,
      );
    const older = await changePage(http, principal, page.older, count);
    if (older === null || older === 'not-modified') throw new Error(`${SUBJECT_ROUTES.principalTransactions} answered no older page`);
    page = older;
  }
}

/** A token's movements after block `at` and up to `until` (the newest transaction the balance was read with). */
async function tokenSince(http: HiroHttp, principal: string, assetId: string, at: number, until: ChangeRow | undefined, count: RequestCount): Promise<bigint> {
  let net = 0n;
  let cursor: string | null = null;
  let oldest: number | undefined;
  const after = (row: TransferRow) =>
    until === undefined || row.block.height > until.height || (row.block.height === until.height && row.block.txIndex > until.txIndex);
  for (let pages = 0; pages < MAX_CHANGE_PAGES; pages += 1) {
    count.requests += 1;
    const page = await readFtTransfers(http, principal, assetId, cursor);
    if (page === null) throw unavailable(principal, at, `the API has no ${SUBJECT_ROUTES.ftTransfers} (API 9.1.0)`, count);
    oldest = page.rows.at(-1)?.block.height ?? oldest;
    for (const row of page.rows) {
      if (row.block.height <= at) return net;
      if (after(row)) continue;
      if (row.recipient === principal) net += BigInt(row.amount);
      if (row.sender === principal) net -= BigInt(row.amount);
    }
    if (page.older === null) return net;
    cursor = page.older;
  }
  throw unavailable(principal, at, `more than ${MAX_CHANGE_PAGES * PRINCIPAL_PAGE_LIMIT} movements of ${assetId} since, the most a read walks`, count, oldest);
}

/** What `principal` held after block `at`, in `assets` (`stx` and token ids), from its balance now less its changes since. */
export async function readBalancesFromChanges(http: HiroHttp, principal: string, at: number, assets: readonly string[]): Promise<PrincipalBalances> {
  const count: RequestCount = { requests: 0 };
  const { newest, stx, fts } = await balancesNow(http, principal, at, assets, count);
  let stxTotal = 0n;
  let stxLocked = 0n;
  let unlockBurnHeight: number | null = null;
  if (stx !== null) {
    const since = await stxSince(http, principal, at, newest, count);
    if (since.stackingAt !== null)
      throw unavailable(
        principal,
        at,
        `a stacking call since then (block ${since.stackingAt}) changed its locked STX, which no route gives for a past block; a later run, past that call, reads it`,
        count,
        since.stackingAt,
      );
    stxTotal = stx.total - since.net;
    if (stxTotal < stx.locked)
      throw new Error(
        `${SUBJECT_ROUTES.principalTransactions} gave ${principal} changes past its STX balance (${stx.total} now, ${since.net} since block ${at})`,
      );
    [stxLocked, unlockBurnHeight] = stx.locked > 0n ? [stx.locked, stx.unlockBurnHeight] : [0n, null];
  }
  const held = new Map<string, bigint>();
  for (const assetId of assets.filter((a) => a !== 'stx')) {
    const then = (fts.get(assetId) ?? 0n) - (await tokenSince(http, principal, assetId, at, newest.rows[0], count));
    if (then < 0n) throw new Error(`${SUBJECT_ROUTES.ftTransfers} gave ${principal} movements of ${assetId} past its balance`);
    held.set(assetId, then);
  }
  return { stxTotal, stxLocked, unlockBurnHeight, fts: held, requests: count.requests };
}
