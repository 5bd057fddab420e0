// The v3 successors of the deprecated routes, as stacks-blockchain-api 9.x serves them
// (src/api/routes/v3/blocks.ts and transactions.ts, src/datastore/v3/pg-store-v3.ts): cursor paging,
// block transactions in DESCENDING tx_index as summaries without events (with event counts since 9.7.0), and events per
// transaction. Their quirks: an existing empty block is a 200 with no results (only an unknown block is a
// 404), a cursor is inclusive, and an unknown or non-canonical transaction's events are a 400.
import { normalizeHex, type FakeBlock, type FakeChain, type FakeTx } from './chain';
import type { FakeEvent } from './tx-builders';
import { errorBody } from './shapes';

const MICROBLOCK_SEQUENCE_NONE = 2147483647;
const TX_CURSOR = /^(\d+):(\d+):(\d+)$/;

export interface V3Answer {
  status: number;
  body: unknown;
}

/** `GET /extended/v3/blocks/{height_or_hash}/transactions?limit=(1..50, default 20)&cursor=` */
export function v3BlockTransactions(block: FakeBlock | undefined, query: URLSearchParams): V3Answer {
  const limit = intParam(query, 'limit', 20, 1, 50);
  if (typeof limit === 'string') return validation(limit);
  if (!block) return { status: 404, body: errorBody(404, 'Not Found', 'Block not found') };
  const descending = [...block.txs].sort((a, b) => b.txIndex - a.txIndex);
  let start = 0;
  const cursor = query.get('cursor');
  if (cursor !== null) {
    const parsed = TX_CURSOR.exec(cursor);
    if (!parsed) return validation('querystring/cursor must match pattern "^[0-9]+:[0-9]+:[0-9]+$"');
    const index = Number(parsed[3]);
    start = descending.findIndex((tx) => tx.txIndex === index);
    if (Number(parsed[1]) !== block.height || start < 0) return validation('Invalid cursor');
  }
  const page = descending.slice(start, start + limit);
  const after = descending[start + limit];
  const before = start > 0 ? descending[Math.max(0, start - limit)] : undefined;
  return {
    status: 200,
    body: {
      limit,
      total: block.txs.length,
      cursor: {
        next: after ? txCursor(block, after) : null,
        previous: before ? txCursor(block, before) : null,
        current: page[0] ? txCursor(block, page[0]) : null,
      },
      results: page.map((tx) => renderTxSummary(tx, block)),
    },
  };
}

/** `GET /extended/v3/transactions/{tx_id}/events?limit=(1..100, default 20)&cursor=` */
export function v3TransactionEvents(chain: FakeChain, txId: string, query: URLSearchParams): V3Answer {
  const limit = intParam(query, 'limit', 20, 1, 100);
  if (typeof limit === 'string') return validation(limit);
  const found = chain.findTx(normalizeHex(txId));
  if (!found?.canonical) return { status: 400, body: errorBody(400, 'Bad Request', 'Transaction not found') };
  const cursor = query.get('cursor');
  if (cursor !== null && !/^\d+$/.test(cursor)) return validation('querystring/cursor must match pattern "^[0-9]+$"');
  const from = cursor === null ? 0 : Number(cursor);
  const events = found.tx.events.map((event, index) => renderEvent(event, index)).filter((e) => e.event_index >= from);
  const page = events.slice(0, limit);
  const first = page[0];
  return {
    status: 200,
    body: {
      total: found.tx.events.length,
      limit,
      cursor: {
        next: events[limit] ? String(events[limit]!.event_index) : null,
        previous: first && first.event_index > 0 ? String(Math.max(first.event_index - limit, 0)) : null,
        current: first ? String(first.event_index) : null,
      },
      results: page,
    },
  };
}

function txCursor(block: FakeBlock, tx: FakeTx): string {
  return `${block.height}:${MICROBLOCK_SEQUENCE_NONE}:${tx.txIndex}`;
}

/** The v3 transaction summary: no events, its event count, the block as a nested position. */
export function renderTxSummary(tx: FakeTx, block: FakeBlock): Record<string, unknown> {
  const summary: Record<string, unknown> = {
    tx_id: tx.txId,
    sender: { address: tx.sender, nonce: tx.nonce },
    sponsor: tx.sponsor === undefined ? null : { address: tx.sponsor, nonce: 0 },
    fee_rate: tx.feeRate,
    block: { height: block.height, hash: block.hash, index_hash: block.indexBlockHash, time: block.time, tx_index: tx.txIndex },
    bitcoin_block: { height: block.burnBlockHeight, time: block.burnBlockTime },
    status: tx.txStatus,
    type: tx.txType,
    // Every v3 summary carries it since API 9.7.0.
    event_count: tx.events.length,
  };
  const payload = tx.payload as Record<string, Record<string, unknown> | undefined>;
  if (tx.txType === 'token_transfer' && payload.token_transfer) {
    const memo = payload.token_transfer.memo as string | undefined;
    summary.token_transfer = {
      recipient: payload.token_transfer.recipient_address,
      amount: payload.token_transfer.amount,
      memo: memo ? { hex: memo, repr: memoText(memo) } : null,
    };
  } else if (tx.txType === 'contract_call' && payload.contract_call) {
    summary.contract_call = { contract_id: payload.contract_call.contract_id, function_name: payload.contract_call.function_name };
  } else if (tx.txType === 'smart_contract' && payload.smart_contract) {
    summary.smart_contract = { clarity_version: null, contract_id: payload.smart_contract.contract_id };
  }
  return summary;
}

/** A v1 event (`event_type`, `asset`) in its v3 shape (`type` and one object named after it). */
export function renderEvent(event: FakeEvent, index: number): { event_index: number } & Record<string, unknown> {
  const asset = (event.asset ?? {}) as Record<string, unknown>;
  const parties = { sender: asset.sender || undefined, recipient: asset.recipient || undefined };
  switch (event.event_type) {
    case 'smart_contract_log':
      return { event_index: index, type: 'contract_log', contract_log: event.contract_log };
    case 'stx_asset': {
      // Only a transfer names a memo (null without one); a mint or burn has no memo field at all.
      const memo = asset.memo as string | undefined;
      const transfer = asset.asset_event_type === 'transfer' ? { memo: memo ? { hex: memo, repr: memoText(memo) } : null } : {};
      return { event_index: index, type: 'stx_asset', stx_asset: { type: asset.asset_event_type, ...parties, amount: asset.amount, ...transfer } };
    }
    case 'fungible_token_asset':
      return {
        event_index: index,
        type: 'ft_asset',
        ft_asset: { type: asset.asset_event_type, asset_identifier: asset.asset_id, ...parties, amount: asset.amount },
      };
    case 'non_fungible_token_asset':
      return {
        event_index: index,
        type: 'nft_asset',
        nft_asset: { type: asset.asset_event_type, asset_identifier: asset.asset_id, ...parties, value: asset.value },
      };
    case 'stx_lock': {
      const lock = event.stx_lock_event as { locked_amount: string; unlock_height: number; locked_address: string };
      return {
        event_index: index,
        type: 'stx_lock',
        stx_lock: { amount: lock.locked_amount, unlock_bitcoin_height: lock.unlock_height, address: lock.locked_address },
      };
    }
    default:
      return { event_index: index, type: event.event_type, [event.event_type]: event[event.event_type] ?? {} };
  }
}

/** A memo's bytes as text, trailing zero padding dropped, as the API's memoToString shows them. */
function memoText(hex: string): string {
  return Buffer.from(hex.slice(2), 'hex').toString('utf8').replace(/\0+$/, '');
}

function intParam(query: URLSearchParams, name: string, fallback: number, min: number, max: number): number | string {
  const raw = query.get(name);
  if (raw === null) return fallback;
  if (!/^-?\d+$/.test(raw)) return `querystring/${name} must be integer`;
  const value = Number(raw);
  if (value < min) return `querystring/${name} must be >= ${min}`;
  if (value > max) return `querystring/${name} must be <= ${max}`;
  return value;
}

function validation(message: string): V3Answer {
  return { status: 400, body: errorBody(400, 'Bad Request', message, 'FST_ERR_VALIDATION') };
}
