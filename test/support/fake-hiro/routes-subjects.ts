// The per-subject routes (none deprecated), answered from the same scripted chain as the block routes, so one
// chain can be read either way: a contract's logs (`/extended/v2/smart-contracts/{id}/logs`), a principal's
// transactions, STX transfers and token transfers (`/extended/v3/principals/{p}/…`), its current balances,
// and the transaction batch (`/extended/v3/transactions/batch`). Shapes from the API source (9.x) where it has
// them (src/api/routes/v2/smart-contracts.ts, routes/v3/principals.ts, pg-store-v2 getSmartContractEvents);
// the batch and the 9.1.0 transfer routes as the release notes describe them. Cursors are inclusive, as in
// the API; an ETag answers 304 on `If-None-Match`.
import { createHash } from 'node:crypto';
import { normalizeHex, type FakeBlock, type FakeChain, type FakeTx } from './chain';
import { balancesAt } from './balances';
import { renderTxSummary } from './routes-v3';
import { errorBody } from './shapes';
import type { FakeEvent } from './tx-builders';

const MICROBLOCK_SEQUENCE_NONE = 2147483647;

export interface SubjectAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

export const SUBJECT_PATHS = {
  contractLogs: /^\/extended\/v2\/smart-contracts\/([^/]+)\/logs$/,
  principalTransactions: /^\/extended\/v3\/principals\/([^/]+)\/transactions$/,
  stxTransfers: /^\/extended\/v3\/principals\/([^/]+)\/transfers\/stx\/(inbound|outbound)$/,
  ftTransfers: /^\/extended\/v3\/principals\/([^/]+)\/transfers\/ft\/([^/]+)$/,
  stxBalance: /^\/extended\/v3\/principals\/([^/]+)\/balances\/stx$/,
  ftBalances: /^\/extended\/v3\/principals\/([^/]+)\/balances\/ft$/,
  transactionBatch: /^\/extended\/v3\/transactions\/batch$/,
  principalMempool: /^\/extended\/v3\/principals\/([^/]+)\/mempool\/transactions$/,
} as const;

interface Positioned {
  block: FakeBlock;
  tx: FakeTx;
  /** -1 for a row that is the transaction itself. */
  eventIndex: number;
}

type Asset = { asset_event_type: string; sender?: string; recipient?: string; amount?: string; asset_id?: string; memo?: string };

/** Newest first: (height, tx_index, event_index) descending. */
function newestFirst(rows: Positioned[]): Positioned[] {
  return rows.sort((a, b) => b.block.height - a.block.height || b.tx.txIndex - a.tx.txIndex || b.eventIndex - a.eventIndex);
}

function position(row: Positioned, withEvent: boolean): string {
  const base = `${row.block.height}:${MICROBLOCK_SEQUENCE_NONE}:${row.tx.txIndex}`;
  return withEvent ? `${base}:${row.eventIndex}` : base;
}

function parseCursor(cursor: string, parts: number): number[] | null {
  const values = cursor.split(':');
  if (values.length !== parts || values.some((v) => !/^\d+$/.test(v))) return null;
  return values.map(Number);
}

function compareTo(row: Positioned, cursor: number[]): number {
  const [height, , txIndex, eventIndex] = cursor;
  return row.block.height - height! || row.tx.txIndex - txIndex! || (eventIndex === undefined ? 0 : row.eventIndex - eventIndex);
}

function canonicalRows(chain: FakeChain, pick: (block: FakeBlock, tx: FakeTx) => number[]): Positioned[] {
  const rows: Positioned[] = [];
  for (const block of chain.blocks()) for (const tx of block.txs) for (const eventIndex of pick(block, tx)) rows.push({ block, tx, eventIndex });
  return newestFirst(rows);
}

/** One inclusive-cursor page of `rows` (newest first): the rows at or below the cursor, or null when none is. */
function pageOf(rows: Positioned[], cursor: number[] | null, limit: number): { page: Positioned[]; start: number } | null {
  const start = cursor === null ? 0 : rows.findIndex((row) => compareTo(row, cursor) <= 0);
  if (start < 0) return null;
  return { page: rows.slice(start, start + limit), start };
}

function etagged(request: { headers: Record<string, string | string[] | undefined> }, tag: string | null, body: () => unknown): SubjectAnswer {
  if (tag === null) return { status: 200, body: body() };
  const etag = `"${tag}"`;
  const sent = request.headers['if-none-match'];
  if (typeof sent === 'string' && sent.split(',').some((t) => t.trim().replace(/^W\//, '') === etag)) return { status: 304, headers: { etag } };
  return { status: 200, headers: { etag }, body: body() };
}

/** `GET /extended/v2/smart-contracts/{contract_id}/logs?limit=(1..100)&cursor=H:M:T:E`; ETag: the tip's index hash. */
export function contractLogs(
  chain: FakeChain,
  contractId: string,
  query: URLSearchParams,
  headers: Record<string, string | string[] | undefined>,
): SubjectAnswer {
  const limit = limitParam(query, 20, 100);
  if (typeof limit === 'string') return validation(limit);
  const raw = query.get('cursor');
  const cursor = raw === null ? null : parseCursor(raw, 4);
  if (raw !== null && cursor === null) return validation('querystring/cursor must match pattern "^[0-9]+:[0-9]+:[0-9]+:[0-9]+$"');
  const rows = canonicalRows(chain, (_, tx) => tx.events.flatMap((event, index) => (isLogOf(event, contractId) ? [index] : [])));
  const found = pageOf(rows, cursor, limit);
  if (!found) return { status: 404, body: errorBody(404, 'Not Found', 'Cursor not found') };
  const { page, start } = found;
  const older = rows[start + limit];
  const newer = start > 0 ? rows[Math.max(0, start - limit)] : undefined;
  return etagged({ headers }, chain.tip?.indexBlockHash ?? null, () => ({
    limit,
    offset: 0,
    total: rows.length,
    next_cursor: newer ? position(newer, true) : null,
    prev_cursor: older ? position(older, true) : null,
    cursor: page[0] ? position(page[0], true) : null,
    results: page.map(({ tx, eventIndex }) => ({
      event_index: eventIndex,
      event_type: 'smart_contract_log',
      tx_id: tx.txId,
      contract_log: tx.events[eventIndex]!.contract_log,
    })),
  }));
}

function isLogOf(event: FakeEvent, contractId: string): boolean {
  return event.event_type === 'smart_contract_log' && (event.contract_log as { contract_id?: string } | undefined)?.contract_id === contractId;
}

function assetOf(event: FakeEvent): Asset | null {
  return event.event_type === 'stx_asset' || event.event_type === 'fungible_token_asset' || event.event_type === 'non_fungible_token_asset'
    ? (event.asset as Asset)
    : null;
}

/** How `principal` takes part in `tx`, or null when it does not (the API's principal_txs rules). */
function involvement(tx: FakeTx, principal: string): 'sender' | 'sponsor' | 'affected' | null {
  if (tx.sender === principal) return 'sender';
  if (tx.sponsor === principal) return 'sponsor';
  const payload = tx.payload as Record<string, Record<string, unknown> | undefined>;
  if (payload.token_transfer?.recipient_address === principal) return 'affected';
  if (payload.contract_call?.contract_id === principal || payload.smart_contract?.contract_id === principal) return 'affected';
  const moved = tx.events.some((event) => {
    const asset = assetOf(event);
    return asset !== null && (asset.sender === principal || asset.recipient === principal);
  });
  return moved ? 'affected' : null;
}

function stxChanges(tx: FakeTx, principal: string): { sent: string; received: string; net: string } {
  let sent = (tx.sponsor ?? tx.sender) === principal ? BigInt(tx.feeRate) : 0n;
  let received = 0n;
  for (const event of tx.events) {
    const asset = event.event_type === 'stx_asset' ? assetOf(event) : null;
    if (!asset || tx.txStatus !== 'success') continue;
    if (asset.sender === principal) sent += BigInt(asset.amount ?? '0');
    if (asset.recipient === principal) received += BigInt(asset.amount ?? '0');
  }
  return { sent: String(sent), received: String(received), net: String(received - sent) };
}

/** `GET /extended/v3/principals/{p}/transactions?limit=(1..50)&cursor=H:M:T`; ETag from the newest transaction's id. */
export function principalTransactions(
  chain: FakeChain,
  principal: string,
  query: URLSearchParams,
  headers: Record<string, string | string[] | undefined>,
): SubjectAnswer {
  const limit = limitParam(query, 20, 50);
  if (typeof limit === 'string') return validation(limit);
  const raw = query.get('cursor');
  const cursor = raw === null ? null : parseCursor(raw, 3);
  if (raw !== null && cursor === null) return validation('querystring/cursor must match pattern "^[0-9]+:[0-9]+:[0-9]+$"');
  const rows = canonicalRows(chain, (_, tx) => (involvement(tx, principal) ? [-1] : []));
  const found = pageOf(rows, cursor, limit) ?? { page: [], start: rows.length };
  const { page, start } = found;
  const tag = rows[0] ? createHash('sha256').update(`${rows[0].tx.txId}::`).digest('hex') : null;
  return etagged({ headers }, tag, () =>
    v3Page(
      rows,
      start,
      limit,
      page,
      (row) => position(row, false),
      ({ tx, block }) => {
        const kinds = new Set(
          tx.events
            .filter((e) => {
              const a = assetOf(e);
              return a && (a.sender === principal || a.recipient === principal);
            })
            .map((e) => e.event_type),
        );
        const stx = stxChanges(tx, principal);
        return {
          transaction: renderTxSummary(tx, block),
          involvement: involvement(tx, principal),
          balance_changes: { stx },
          affected_balances: {
            stx: stx.sent !== '0' || stx.received !== '0',
            ft: kinds.has('fungible_token_asset'),
            nft: kinds.has('non_fungible_token_asset'),
          },
        };
      },
    ),
  );
}

/** `GET /extended/v3/principals/{p}/transfers/stx/inbound|outbound?limit=(1..50)&cursor=H:M:T:E` (API 9.1.0). */
export function stxTransfers(chain: FakeChain, principal: string, direction: string, query: URLSearchParams): SubjectAnswer {
  const side = direction === 'inbound' ? 'recipient' : 'sender';
  return transfersPage(
    chain,
    query,
    (event) => event.event_type === 'stx_asset' && (event.asset as Asset).asset_event_type === 'transfer' && (event.asset as Asset)[side] === principal,
  );
}

/** `GET /extended/v3/principals/{p}/transfers/ft/{asset_identifier}`: the token's movements in and out of `p`. */
export function ftTransfers(chain: FakeChain, principal: string, assetId: string, query: URLSearchParams): SubjectAnswer {
  return transfersPage(
    chain,
    query,
    (event) => {
      const asset = event.event_type === 'fungible_token_asset' ? (event.asset as Asset) : null;
      return asset !== null && asset.asset_id === assetId && (asset.sender === principal || asset.recipient === principal);
    },
    assetId,
  );
}

function transfersPage(chain: FakeChain, query: URLSearchParams, wanted: (event: FakeEvent) => boolean, assetId?: string): SubjectAnswer {
  const limit = limitParam(query, 20, 50);
  if (typeof limit === 'string') return validation(limit);
  const raw = query.get('cursor');
  const cursor = raw === null ? null : parseCursor(raw, 4);
  if (raw !== null && cursor === null) return validation('querystring/cursor must match pattern "^[0-9]+:[0-9]+:[0-9]+:[0-9]+$"');
  const rows = canonicalRows(chain, (_, tx) => (tx.txStatus === 'success' ? tx.events.flatMap((event, index) => (wanted(event) ? [index] : [])) : []));
  const { page, start } = pageOf(rows, cursor, limit) ?? { page: [], start: rows.length };
  return {
    status: 200,
    body: v3Page(
      rows,
      start,
      limit,
      page,
      (row) => position(row, true),
      ({ tx, block, eventIndex }) => {
        const asset = tx.events[eventIndex]!.asset as Asset;
        // A native transfer's memo is the transaction's; the route shows it on its movement.
        const memo = asset.memo ?? ((tx.payload.token_transfer as { memo?: string } | undefined)?.memo || undefined);
        return {
          sender: asset.sender ?? null,
          recipient: asset.recipient ?? null,
          amount: asset.amount,
          ...(assetId === undefined ? { memo: memo ? { hex: memo, repr: '' } : null } : { asset_identifier: assetId }),
          transaction: { tx_id: tx.txId, event_index: eventIndex },
          block: { height: block.height, hash: block.hash, index_hash: block.indexBlockHash, time: block.time, tx_index: tx.txIndex },
        };
      },
    ),
  };
}

/** `GET /extended/v3/principals/{p}/balances/stx`: the balance now (no past block). */
export function stxBalance(chain: FakeChain, principal: string): SubjectAnswer {
  const held = balancesAt(chain, principal, chain.height);
  const locked =
    held.locked > 0n
      ? {
          amount: String(held.locked),
          pox_version: 5,
          lock_tx_id: `0x${'00'.repeat(32)}`,
          stacks_lock_height: 1,
          burn_lock_height: 1,
          burn_unlock_height: held.unlockHeight ?? 0,
        }
      : null;
  return { status: 200, body: { balance: String(held.stx), available: String(held.stx - held.locked), locked, mempool: null } };
}

/** `GET /extended/v3/principals/{p}/balances/ft?limit=(1..200)&cursor=balance:asset`: by balance, descending. */
export function ftBalances(chain: FakeChain, principal: string, query: URLSearchParams): SubjectAnswer {
  const limit = limitParam(query, 100, 200);
  if (typeof limit === 'string') return validation(limit);
  const held = [...balancesAt(chain, principal, chain.height).fts]
    .filter(([, balance]) => balance > 0n)
    .sort(([a, x], [b, y]) => (y > x ? 1 : y < x ? -1 : a.localeCompare(b)));
  const key = ([asset, balance]: [string, bigint]) => `${balance}:${asset}`;
  const raw = query.get('cursor');
  const start = raw === null ? 0 : held.findIndex((entry) => key(entry) === raw);
  if (start < 0) return { status: 404, body: errorBody(404, 'Not Found', 'Cursor not found') };
  const page = held.slice(start, start + limit);
  const after = held[start + limit];
  return {
    status: 200,
    body: {
      total: held.length,
      limit,
      cursor: { next: after ? key(after) : null, previous: null, current: page[0] ? key(page[0]) : null },
      results: page.map(([asset, balance]) => ({ asset_identifier: asset, balance: String(balance) })),
    },
  };
}

/** `GET /extended/v3/transactions/batch?tx_id=A,B` (or repeated): the canonical ones' summaries, unknown ids left out. */
export function transactionBatch(chain: FakeChain, query: URLSearchParams): SubjectAnswer {
  const ids = query.getAll('tx_id').flatMap((value) => value.split(','));
  if (ids.length === 0) return validation("querystring must have required property 'tx_id'");
  if (ids.length > 50) return validation('querystring/tx_id must NOT have more than 50 items');
  const results = ids.flatMap((id) => {
    const found = chain.findTx(normalizeHex(id));
    return found?.canonical ? [renderTxSummary(found.tx, found.block)] : [];
  });
  return { status: 200, body: { results } };
}

function v3Page(
  rows: Positioned[],
  start: number,
  limit: number,
  page: Positioned[],
  cursorOf: (row: Positioned) => string,
  render: (row: Positioned) => unknown,
): unknown {
  const older = rows[start + limit];
  const newer = start > 0 ? rows[Math.max(0, start - limit)] : undefined;
  return {
    total: rows.length,
    limit,
    cursor: { next: older ? cursorOf(older) : null, previous: newer ? cursorOf(newer) : null, current: page[0] ? cursorOf(page[0]) : null },
    results: page.map(render),
  };
}

function limitParam(query: URLSearchParams, fallback: number, max: number): number | string {
  const raw = query.get('limit');
  if (raw === null) return fallback;
  if (!/^\d+$/.test(raw)) return 'querystring/limit must be integer';
  const value = Number(raw);
  if (value < 1) return 'querystring/limit must be >= 1';
  if (value > max) return `querystring/limit must be <= ${max}`;
  return value;
}

function validation(message: string): SubjectAnswer {
  return { status: 400, body: errorBody(400, 'Bad Request', message, 'FST_ERR_VALIDATION') };
}
