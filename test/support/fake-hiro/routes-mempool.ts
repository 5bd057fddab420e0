// The mempool routes, as stacks-blockchain-api 9.x serves them (src/api/routes/v3/mempool.ts,
// src/datastore/v3/pg-store-v3.ts getMempoolTransactionSummaries; v1 /tx/multiple's mempool half): the v3 list
// holds waiting transactions only (`pruned = false`), newest first by (receipt_time, tx_id), with an inclusive
// `receipt_time:tx_id` cursor and API 9.8.0's `type` filter; `/v1/tx/multiple` also returns dropped ones with
// their `tx_status` and `replaced_by_tx_id`; the v3 transaction route shows a waiting one, and 404s a dropped one.
// A principal's own mempool route (routes/v3/principals.ts, getPrincipalMempoolTransactionSummaries, API 9.0.0)
// pages the same summaries the same way, keeping those where the principal is the sender, the STX transfer's
// recipient, or the called or deployed contract (not a sponsor), with `total` counting the principal's own.
import type { FakeChain } from './chain';
import type { FakeMempoolTx } from './mempool';
import { errorBody } from './shapes';

const CURSOR = /^(\d+):(0x)?([a-fA-F0-9]{64})$/;

/** `GET /extended/v3/mempool/transactions?limit=(1..50, default 20)&cursor=&type=` */
export function v3MempoolList(chain: FakeChain, query: URLSearchParams): { status: number; body: unknown } {
  const types = new Set(query.getAll('type').flatMap((value) => value.split(',')));
  const waiting = chain.mempool.pending();
  return mempoolPage(
    chain,
    waiting.filter((tx) => types.size === 0 || types.has(tx.spec.txType)),
    waiting.length,
    query,
  );
}

/** `GET /extended/v3/principals/{principal}/mempool/transactions?limit=(1..50, default 20)&cursor=`: no `type` filter. */
export function v3PrincipalMempool(chain: FakeChain, principal: string, query: URLSearchParams): { status: number; body: unknown } {
  const involved = chain.mempool.pending().filter((tx) => involves(tx, principal));
  return mempoolPage(chain, involved, involved.length, query);
}

/** As the API's principal filter: the sender, a native transfer's recipient, the called or the deployed contract. */
function involves(tx: FakeMempoolTx, principal: string): boolean {
  const payload = tx.spec.payload as Record<string, Record<string, unknown> | undefined>;
  return (
    tx.spec.sender === principal ||
    payload.token_transfer?.recipient_address === principal ||
    payload.contract_call?.contract_id === principal ||
    payload.smart_contract?.contract_id === principal
  );
}

/** One page of `list` (newest first) at the query's inclusive `receipt_time:tx_id` cursor. */
function mempoolPage(chain: FakeChain, all: FakeMempoolTx[], total: number, query: URLSearchParams): { status: number; body: unknown } {
  const raw = query.get('limit');
  const limit = raw === null ? 20 : Number(raw);
  if (!Number.isInteger(limit) || limit < 1 || limit > 50) {
    return { status: 400, body: errorBody(400, 'Bad Request', 'querystring/limit must be <= 50', 'FST_ERR_VALIDATION') };
  }
  let list = all;
  const cursor = query.get('cursor');
  if (cursor !== null) {
    const parsed = CURSOR.exec(cursor);
    if (!parsed) return { status: 400, body: errorBody(400, 'Bad Request', 'querystring/cursor must match pattern', 'FST_ERR_VALIDATION') };
    const [time, id] = [Number(parsed[1]), `0x${parsed[3]!.toLowerCase()}`];
    list = list.filter((tx) => tx.receiptTime < time || (tx.receiptTime === time && tx.spec.txId <= id));
  }
  const page = list.slice(0, limit);
  const next = list[limit];
  return {
    status: 200,
    body: {
      limit,
      total,
      cursor: { next: next ? cursorOf(next) : null, previous: null, current: page[0] ? cursorOf(page[0]) : null },
      results: page.map((tx) => mempoolSummary(chain, tx)),
    },
  };
}

/**
 * `GET /extended/v1/tx/mempool?limit=(1..50, default 20)&offset=&order_by=age&order=desc` (deprecated, the only
 * mempool list of an API older than the v3 one): the same waiting transactions in full v1 form, offset paging.
 */
export function v1MempoolList(chain: FakeChain, query: URLSearchParams): { status: number; body: unknown } {
  const limit = Number(query.get('limit') ?? 20);
  const offset = Number(query.get('offset') ?? 0);
  if (!Number.isInteger(limit) || limit < 1 || limit > 50 || !Number.isInteger(offset) || offset < 0) {
    return { status: 400, body: errorBody(400, 'Bad Request', 'querystring/limit must be <= 50', 'FST_ERR_VALIDATION') };
  }
  const list = chain.mempool.pending();
  if (query.get('order') === 'asc') list.reverse();
  return { status: 200, body: { limit, offset, total: list.length, results: list.slice(offset, offset + limit).map(mempoolTxV1) } };
}

function cursorOf(tx: FakeMempoolTx): string {
  return `${tx.receiptTime}:${tx.spec.txId}`;
}

/** The v3 mempool summary: no call arguments. */
export function mempoolSummary(chain: FakeChain, tx: FakeMempoolTx): Record<string, unknown> {
  const { spec } = tx;
  const payload = spec.payload as Record<string, Record<string, unknown> | undefined>;
  const summary: Record<string, unknown> = {
    tx_id: spec.txId,
    sender: { address: spec.sender, nonce: spec.nonce },
    sponsor: null,
    fee_rate: spec.feeRate ?? '3000',
    receipt_time: tx.receiptTime,
    receipt_block_height: chain.height,
    status: tx.status,
    type: spec.txType,
  };
  if (spec.txType === 'token_transfer' && payload.token_transfer) {
    const memo = payload.token_transfer.memo as string | undefined;
    summary.token_transfer = {
      recipient: payload.token_transfer.recipient_address,
      amount: payload.token_transfer.amount,
      memo: memo ? { hex: memo, repr: memo } : null,
    };
  } else if (spec.txType === 'contract_call' && payload.contract_call) {
    summary.contract_call = { contract_id: payload.contract_call.contract_id, function_name: payload.contract_call.function_name };
  } else if (spec.txType === 'smart_contract' && payload.smart_contract) {
    summary.smart_contract = { clarity_version: payload.smart_contract.clarity_version ?? null, contract_id: payload.smart_contract.contract_id };
  }
  return summary;
}

/** `GET /extended/v3/transactions/{tx_id}` for a waiting transaction (a dropped one is pruned: 404). */
export function v3MempoolTransaction(chain: FakeChain, tx: FakeMempoolTx, include: ReadonlySet<string>): { status: number; body: unknown } {
  if (tx.status !== 'pending') return { status: 404, body: errorBody(404, 'Not Found', 'Transaction not found') };
  const detail: Record<string, unknown> = { ...mempoolSummary(chain, tx), replaced_by_tx_id: null };
  const call = tx.spec.payload.contract_call as { function_args?: { hex: string; repr: string }[] } | undefined;
  if (call && include.has('function_args')) {
    detail.contract_call = { ...(detail.contract_call as object), function_args: (call.function_args ?? []).map(({ hex, repr }) => ({ hex, repr })) };
  }
  return { status: 200, body: detail };
}

/** A mempool transaction as `/extended/v1/tx/multiple` returns it (waiting or dropped). */
export function mempoolTxV1(tx: FakeMempoolTx): Record<string, unknown> {
  return {
    tx_id: tx.spec.txId,
    nonce: tx.spec.nonce,
    fee_rate: tx.spec.feeRate ?? '3000',
    sender_address: tx.spec.sender,
    sponsored: false,
    post_condition_mode: 'deny',
    post_conditions: [],
    anchor_mode: 'any',
    tx_status: tx.status,
    replaced_by_tx_id: tx.replacedBy,
    receipt_time: tx.receiptTime,
    receipt_time_iso: new Date(tx.receiptTime * 1000).toISOString(),
    tx_type: tx.spec.txType,
    ...tx.spec.payload,
  };
}
