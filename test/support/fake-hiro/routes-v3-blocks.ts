// The v3 block routes (API 9.7.0) and the single-transaction route, as stacks-watch reads them. The block
// routes' exact JSON is not in the API source stacks-watch was built from; they are served here in the v3
// conventions (nested `parent_block` and `bitcoin_block`, `index_hash`, `time`), the list newest first with an
// opaque inclusive cursor, summaries without the parent hash. `blockShape: 'v2-names'` serves the same
// facts under the v2 field names, and `'unknown'` a body nothing can read, for the client's fallbacks.
import { normalizeHex, type FakeBlock, type FakeChain } from './chain';
import { errorBody } from './shapes';
import { renderTxSummary, type V3Answer } from './routes-v3';

export type V3BlockShape = 'v3' | 'v2-names' | 'unknown';

const LIST_MAX = 30;

/** `GET /extended/v3/blocks/{height_or_hash}`: 404 "Block not found" when unknown or not canonical. */
export function v3Block(block: FakeBlock | undefined, shape: V3BlockShape): V3Answer {
  if (!block) return { status: 404, body: errorBody(404, 'Not Found', 'Block not found') };
  return { status: 200, body: renderV3Block(block, shape, true) };
}

/** `GET /extended/v3/blocks?limit=(1..30, default 20)&cursor=`: canonical blocks, newest first. */
export function v3Blocks(chain: FakeChain, query: URLSearchParams, shape: V3BlockShape): V3Answer {
  const raw = query.get('limit');
  const limit = raw === null ? 20 : Number(raw);
  if (!Number.isInteger(limit) || limit < 1 || limit > LIST_MAX) {
    return { status: 400, body: errorBody(400, 'Bad Request', `querystring/limit must be <= ${LIST_MAX}`, 'FST_ERR_VALIDATION') };
  }
  const newestFirst = [...chain.blocks()].reverse();
  const cursor = query.get('cursor');
  const start = cursor === null ? 0 : newestFirst.findIndex((block) => String(block.height) === cursor);
  if (start < 0) return { status: 404, body: errorBody(404, 'Not Found', 'Cursor not found') };
  const page = newestFirst.slice(start, start + limit);
  const after = newestFirst[start + limit];
  return {
    status: 200,
    body: {
      limit,
      total: newestFirst.length,
      cursor: { next: after ? String(after.height) : null, previous: null, current: page[0] ? String(page[0].height) : null },
      results: page.map((block) => renderV3Block(block, shape, false)),
    },
  };
}

function renderV3Block(block: FakeBlock, shape: V3BlockShape, withParent: boolean): Record<string, unknown> {
  if (shape === 'unknown') return { block_id: block.hash, number: block.height };
  if (shape === 'v2-names') {
    return {
      canonical: true,
      height: block.height,
      hash: block.hash,
      index_block_hash: block.indexBlockHash,
      ...(withParent ? { parent_block_hash: block.parentHash, parent_index_block_hash: block.parentIndexBlockHash } : {}),
      block_time: block.time,
      tenure_height: block.tenureHeight,
      tx_count: block.txs.length,
      burn_block_height: block.burnBlockHeight,
      burn_block_hash: block.burnBlockHash,
    };
  }
  return {
    canonical: true,
    height: block.height,
    hash: block.hash,
    index_hash: block.indexBlockHash,
    ...(withParent ? { parent_block: { hash: block.parentHash, index_hash: block.parentIndexBlockHash } } : {}),
    time: block.time,
    tenure_height: block.tenureHeight,
    tx_count: block.txs.length,
    bitcoin_block: { height: block.burnBlockHeight, hash: block.burnBlockHash, time: block.burnBlockTime },
  };
}

/**
 * `GET /extended/v3/transactions/{tx_id}?include=function_args&include=result` (also `include=A,B`): the
 * summary plus `event_count`, `parent_block`, and the heavy fields only when asked for; 404 when unknown.
 */
export function v3Transaction(chain: FakeChain, txId: string, query: URLSearchParams): V3Answer {
  const found = chain.findTx(normalizeHex(txId));
  if (!found?.canonical) return { status: 404, body: errorBody(404, 'Not Found', 'Transaction not found') };
  const include = new Set(query.getAll('include').flatMap((value) => value.split(',')));
  const { tx, block } = found;
  const detail: Record<string, unknown> = {
    ...renderTxSummary(tx, block),
    parent_block: { hash: block.parentHash, index_hash: block.parentIndexBlockHash },
    vm_error: null,
  };
  const call = tx.payload.contract_call as { function_args?: { hex: string; repr: string }[] } | undefined;
  if (tx.txType === 'contract_call' && call && include.has('function_args')) {
    detail.contract_call = {
      ...(detail.contract_call as object),
      function_args: (call.function_args ?? []).map(({ hex, repr }) => ({ hex, repr })),
    };
  }
  if (include.has('result')) {
    const result = tx.payload.tx_result as { hex: string; repr: string } | undefined;
    detail.result = result ?? (tx.txStatus === 'success' ? { hex: '0x0703', repr: '(ok true)' } : { hex: '0x0803', repr: '(err true)' });
  }
  return { status: 200, body: detail };
}
