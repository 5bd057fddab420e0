// The Hiro routes the watcher uses, answered from a FakeChain the way the real API answers them,
// including its quirks: 404 for any empty page, 400 for limit > 50, repeated query keys, ETag on the tip.
import type { IncomingHttpHeaders } from 'node:http';
import { normalizeHex, type FakeChain } from './chain';
import { balancesAt, renderBalances } from './balances';
import { errorBody, renderBlock, renderNodeInfo, renderStatus, renderTx } from './shapes';
import { v3BlockTransactions, v3TransactionEvents } from './routes-v3';
import { v3Block, v3Blocks, v3Transaction, type V3BlockShape } from './routes-v3-blocks';
import { mempoolTxV1, v1MempoolList, v3MempoolList, v3MempoolTransaction, v3PrincipalMempool } from './routes-mempool';
import { contractLogs, ftBalances, ftTransfers, principalTransactions, stxBalance, stxTransfers, SUBJECT_PATHS, transactionBatch } from './routes-subjects';

/** Route names, as the request log and the per-route counts report them. */
export const ROUTES = {
  tip: 'GET /extended',
  contractStatus: 'GET /extended/v2/smart-contracts/status',
  block: 'GET /extended/v2/blocks/{height_or_hash}',
  blockTransactions: 'GET /extended/v2/blocks/{height_or_hash}/transactions',
  txMultiple: 'GET /extended/v1/tx/multiple',
  nodeInfo: 'GET /v2/info',
  v3BlockTransactions: 'GET /extended/v3/blocks/{height_or_hash}/transactions',
  v3TransactionEvents: 'GET /extended/v3/transactions/{tx_id}/events',
  v3Blocks: 'GET /extended/v3/blocks',
  v3Block: 'GET /extended/v3/blocks/{height_or_hash}',
  v3Transaction: 'GET /extended/v3/transactions/{tx_id}',
  balances: 'GET /extended/v1/address/{principal}/balances',
  v3Mempool: 'GET /extended/v3/mempool/transactions',
  v1Mempool: 'GET /extended/v1/tx/mempool',
  tokenMetadata: 'GET /metadata/v1/ft/{principal}',
  contractLogs: 'GET /extended/v2/smart-contracts/{contract_id}/logs',
  principalTransactions: 'GET /extended/v3/principals/{principal}/transactions',
  stxTransfers: 'GET /extended/v3/principals/{principal}/transfers/stx/{direction}',
  ftTransfers: 'GET /extended/v3/principals/{principal}/transfers/ft/{asset_identifier}',
  stxBalance: 'GET /extended/v3/principals/{principal}/balances/stx',
  ftBalances: 'GET /extended/v3/principals/{principal}/balances/ft',
  transactionBatch: 'GET /extended/v3/transactions/batch',
  principalMempool: 'GET /extended/v3/principals/{principal}/mempool/transactions',
  unknown: 'unknown',
} as const;

/** The deprecated routes that read blocks, events and balances, all answering 410 once the API turns them off (the mempool's apart). */
export const DEPRECATED_CHAIN_READS = [ROUTES.blockTransactions, ROUTES.txMultiple, ROUTES.block, ROUTES.balances];

export interface SeenRequest {
  /** 1 for the first request the server saw. */
  seq: number;
  method: string;
  /** The path without the query. */
  path: string;
  query: URLSearchParams;
  /** Path and query as sent. */
  url: string;
  headers: IncomingHttpHeaders;
  route: string;
  /** performance.now() when it arrived. */
  receivedAt: number;
}

export interface FakeAnswer {
  status: number;
  headers?: Record<string, string>;
  /** An object is sent as JSON; a string is sent as is (HTML, truncated JSON). */
  body?: unknown;
}

const BLOCK_PATH = /^\/extended\/v2\/blocks\/([^/]+)$/;
const BLOCK_TXS_PATH = /^\/extended\/v2\/blocks\/([^/]+)\/transactions$/;
const CONTRACT_ID = /^[0-9A-Z]{28,41}\.[a-zA-Z]([a-zA-Z0-9]|[-_]){0,39}$/;
const TX_ID = /^(0x)?[0-9a-fA-F]{64}$/;
const V3_BLOCK_TXS_PATH = /^\/extended\/v3\/blocks\/([^/]+)\/transactions$/;
const V3_TX_EVENTS_PATH = /^\/extended\/v3\/transactions\/([^/]+)\/events$/;
const V3_BLOCK_PATH = /^\/extended\/v3\/blocks\/([^/]+)$/;
const V3_TX_PATH = /^\/extended\/v3\/transactions\/([^/]+)$/;
const BALANCES_PATH = /^\/extended\/v1\/address\/([^/]+)\/balances$/;
const TOKEN_METADATA_PATH = /^\/metadata\/v1\/ft\/([^/]+)$/;

/** The deprecated routes stacks-watch reads, with the `Warning` header the API's deprecation plugin adds. */
export const DEPRECATION_WARNINGS: Readonly<Record<string, string>> = {
  [ROUTES.blockTransactions]: '299 - "Deprecated: use GET /extended/v3/blocks/{height_or_hash}/transactions instead"',
  [ROUTES.txMultiple]: '299 - "Deprecated: use GET /extended/v3/transactions/{tx_id}/events instead"',
  [ROUTES.block]: '299 - "Deprecated: use the v3 block endpoints instead"',
  [ROUTES.balances]: '299 - "Deprecated: use GET /extended/v3/principals/{principal}/balances/stx, /ft and /nft instead"',
};

export function routeOf(method: string, path: string): string {
  if (method !== 'GET') return ROUTES.unknown;
  if (path === '/extended' || path === '/extended/') return ROUTES.tip;
  if (path === '/extended/v2/smart-contracts/status') return ROUTES.contractStatus;
  if (path === '/extended/v1/tx/multiple') return ROUTES.txMultiple;
  if (path === '/v2/info') return ROUTES.nodeInfo;
  if (path === '/extended/v3/mempool/transactions') return ROUTES.v3Mempool;
  if (path === '/extended/v1/tx/mempool') return ROUTES.v1Mempool;
  if (BLOCK_TXS_PATH.test(path)) return ROUTES.blockTransactions;
  if (V3_BLOCK_TXS_PATH.test(path)) return ROUTES.v3BlockTransactions;
  if (V3_TX_EVENTS_PATH.test(path)) return ROUTES.v3TransactionEvents;
  const subject = subjectRouteOf(path);
  if (subject) return subject;
  if (path === '/extended/v3/blocks') return ROUTES.v3Blocks;
  if (V3_BLOCK_PATH.test(path)) return ROUTES.v3Block;
  if (V3_TX_PATH.test(path)) return ROUTES.v3Transaction;
  if (BLOCK_PATH.test(path)) return ROUTES.block;
  if (BALANCES_PATH.test(path)) return ROUTES.balances;
  if (TOKEN_METADATA_PATH.test(path)) return ROUTES.tokenMetadata;
  return ROUTES.unknown;
}

function subjectRouteOf(path: string): string | undefined {
  for (const [name, pattern] of Object.entries(SUBJECT_PATHS)) if (pattern.test(path)) return ROUTES[name as keyof typeof SUBJECT_PATHS];
  return undefined;
}

/**
 * Which per-subject routes the API has: all of them (`'present'`, the default), all but the principal transfer
 * routes (`'before-9.1'`, as API 9.0.x), or none (`'absent'`, an older API: 404 `Route … not found`).
 */
export type SubjectRoutes = 'present' | 'before-9.1' | 'absent';

/** `v3BlockShape` 'absent' serves an API older than 9.7.0, which has no v3 block routes. */
export function answer(
  chain: FakeChain,
  request: SeenRequest,
  deprecationWarnings = true,
  v3BlockShape: V3BlockShape | 'absent' = 'v3',
  subjectRoutes: SubjectRoutes = 'present',
): FakeAnswer {
  const served = serveSubjects(chain, request, subjectRoutes) ?? serveV3Blocks(chain, request, v3BlockShape) ?? serve(chain, request);
  const warning = deprecationWarnings ? DEPRECATION_WARNINGS[request.route] : undefined;
  return warning ? { ...served, headers: { ...served.headers, warning } } : served;
}

function serve(chain: FakeChain, request: SeenRequest): FakeAnswer {
  switch (request.route) {
    case ROUTES.tip:
      return tip(chain, request);
    case ROUTES.contractStatus:
      return contractStatuses(chain, request.query);
    case ROUTES.block:
      return block(chain, BLOCK_PATH.exec(request.path)![1]!);
    case ROUTES.blockTransactions:
      return blockTransactions(chain, BLOCK_TXS_PATH.exec(request.path)![1]!, request.query);
    case ROUTES.txMultiple:
      return txMultiple(chain, request.query);
    case ROUTES.nodeInfo:
      return json(200, renderNodeInfo(chain));
    case ROUTES.v3BlockTransactions:
      return v3BlockTransactions(findBlock(chain, V3_BLOCK_TXS_PATH.exec(request.path)![1]!), request.query);
    case ROUTES.v3Mempool:
      return v3MempoolList(chain, request.query);
    case ROUTES.v1Mempool:
      return v1MempoolList(chain, request.query);
    case ROUTES.v3TransactionEvents:
      return v3TransactionEvents(chain, V3_TX_EVENTS_PATH.exec(request.path)![1]!, request.query);
    case ROUTES.balances:
      return balances(chain, decodeURIComponent(BALANCES_PATH.exec(request.path)![1]!), request.query);
    case ROUTES.tokenMetadata: {
      // The token metadata API answers a token it has not indexed with a 404 and `{ error: 'Token not found' }`.
      const found = chain.tokenMetadata.get(decodeURIComponent(TOKEN_METADATA_PATH.exec(request.path)![1]!));
      return found ? json(200, found) : json(404, { error: 'Token not found' });
    }
    default:
      return json(404, errorBody(404, 'Not Found', `Route ${request.method}:${request.path} not found`));
  }
}

function serveSubjects(chain: FakeChain, request: SeenRequest, routes: SubjectRoutes): FakeAnswer | null {
  const name = Object.entries(SUBJECT_PATHS).find(([, pattern]) => pattern.test(request.path));
  if (!name) return null;
  const [key, pattern] = name as [keyof typeof SUBJECT_PATHS, RegExp];
  const transfers = key === 'stxTransfers' || key === 'ftTransfers';
  if (routes === 'absent' || (routes === 'before-9.1' && transfers)) {
    return json(404, errorBody(404, 'Not Found', `Route ${request.method}:${request.path} not found`));
  }
  const [, first = '', second = ''] = pattern.exec(request.path)!;
  const subject = decodeURIComponent(first);
  switch (key) {
    case 'contractLogs':
      return contractLogs(chain, subject, request.query, request.headers);
    case 'principalTransactions':
      return principalTransactions(chain, subject, request.query, request.headers);
    case 'stxTransfers':
      return stxTransfers(chain, subject, second, request.query);
    case 'ftTransfers':
      return ftTransfers(chain, subject, decodeURIComponent(second), request.query);
    case 'stxBalance':
      return stxBalance(chain, subject);
    case 'ftBalances':
      return ftBalances(chain, subject, request.query);
    case 'transactionBatch':
      return transactionBatch(chain, request.query);
    case 'principalMempool':
      return v3PrincipalMempool(chain, subject, request.query);
  }
}

function serveV3Blocks(chain: FakeChain, request: SeenRequest, shape: V3BlockShape | 'absent'): FakeAnswer | null {
  if (request.route === ROUTES.v3Transaction) {
    const txId = V3_TX_PATH.exec(request.path)![1]!;
    const waiting = chain.findTx(normalizeHex(txId)) ? undefined : chain.mempool.find(txId);
    const include = new Set(request.query.getAll('include').flatMap((value) => value.split(',')));
    return waiting ? v3MempoolTransaction(chain, waiting, include) : v3Transaction(chain, txId, request.query);
  }
  if (request.route !== ROUTES.v3Blocks && request.route !== ROUTES.v3Block) return null;
  if (shape === 'absent') return json(404, errorBody(404, 'Not Found', `Route ${request.method}:${request.path} not found`));
  if (request.route === ROUTES.v3Blocks) return v3Blocks(chain, request.query, shape);
  return v3Block(findBlock(chain, V3_BLOCK_PATH.exec(request.path)![1]!), shape);
}

function tip(chain: FakeChain, request: SeenRequest): FakeAnswer {
  const tipBlock = chain.synced ? (chain.apiTip ?? chain.tip) : undefined;
  if (!tipBlock) return json(200, renderStatus(undefined));
  const etag = `"${tipBlock.indexBlockHash}"`;
  const ifNoneMatch = request.headers['if-none-match'];
  if (typeof ifNoneMatch === 'string' && ifNoneMatch.split(',').some((tag) => stripWeak(tag) === etag)) {
    return { status: 304, headers: { etag } };
  }
  return { status: 200, headers: { etag }, body: renderStatus(tipBlock) };
}

function contractStatuses(chain: FakeChain, query: URLSearchParams): FakeAnswer {
  const ids = query.getAll('contract_id');
  if (ids.length === 0) return validation("querystring must have required property 'contract_id'");
  const bad = ids.findIndex((id) => !CONTRACT_ID.test(id));
  if (bad >= 0) return validation(`querystring/contract_id/${bad} must match pattern "${CONTRACT_ID.source}"`);
  const body: Record<string, unknown> = {};
  for (const id of ids) {
    const status = chain.contractStatus(id);
    body[id] = status
      ? {
          found: true,
          result: {
            contract_id: id,
            status: status.status,
            tx_id: status.txId,
            ...(status.blockHeight === undefined ? {} : { block_height: status.blockHeight }),
          },
        }
      : { found: false };
  }
  return json(200, body);
}

function findBlock(chain: FakeChain, param: string) {
  if (param === 'latest') return chain.tip;
  if (/^\d+$/.test(param)) return chain.block(Number(param));
  if (/^(0x)?[0-9a-fA-F]{64}$/.test(param)) return chain.block(param);
  return undefined;
}

function block(chain: FakeChain, param: string): FakeAnswer {
  const found = findBlock(chain, param);
  if (!found) return blockNotFound();
  return json(200, renderBlock(found, true));
}

function blockTransactions(chain: FakeChain, param: string, query: URLSearchParams): FakeAnswer {
  const limit = intParam(query, 'limit', 20, { min: 0, max: 50 });
  if (typeof limit === 'string') return validation(limit);
  const offset = intParam(query, 'offset', 0, { min: 0 });
  if (typeof offset === 'string') return validation(offset);
  const found = findBlock(chain, param);
  const results = found ? found.txs.slice(offset, offset + limit) : [];
  // The real API answers 404 for every empty page: unknown block, empty block, or offset past total.
  if (!found || results.length === 0) return blockNotFound();
  return {
    status: 200,
    body: {
      limit,
      offset,
      total: found.txs.length,
      results: results.map((tx) => renderTx(tx, found, { canonical: true })),
    },
  };
}

function txMultiple(chain: FakeChain, query: URLSearchParams): FakeAnswer {
  const ids = query.getAll('tx_id');
  if (ids.length === 0) return validation("querystring must have required property 'tx_id'");
  const bad = ids.findIndex((id) => !TX_ID.test(id));
  if (bad >= 0) return validation(`querystring/tx_id/${bad} must match pattern "${TX_ID.source}"`);
  const limit = intParam(query, 'event_limit', 96, { min: 0, max: 100 });
  if (typeof limit === 'string') return validation(limit);
  const offset = intParam(query, 'event_offset', 0, { min: 0 });
  if (typeof offset === 'string') return validation(offset);
  const body: Record<string, unknown> = {};
  for (const id of ids) {
    const key = normalizeHex(id);
    const found = chain.findTx(key);
    const waiting = found ? undefined : chain.mempool.find(key);
    body[key] = found
      ? { found: true, result: renderTx(found.tx, found.block, { canonical: found.canonical, events: { limit, offset } }) }
      : waiting
        ? { found: true, result: mempoolTxV1(waiting) }
        : { found: false, result: { tx_id: key } };
  }
  return json(200, body);
}

function intParam(query: URLSearchParams, name: string, fallback: number, range: { min: number; max?: number }): number | string {
  const raw = query.get(name);
  if (raw === null) return fallback;
  if (!/^-?\d+$/.test(raw)) return `querystring/${name} must be integer`;
  const value = Number(raw);
  if (value < range.min) return `querystring/${name} must be >= ${range.min}`;
  if (range.max !== undefined && value > range.max) return `querystring/${name} must be <= ${range.max}`;
  return value;
}

function stripWeak(tag: string): string {
  return tag.trim().replace(/^W\//, '');
}

function json(status: number, body: unknown): FakeAnswer {
  return { status, body };
}

function validation(message: string): FakeAnswer {
  return json(400, errorBody(400, 'Bad Request', message, 'FST_ERR_VALIDATION'));
}

function blockNotFound(): FakeAnswer {
  return json(404, errorBody(404, 'Not Found', 'Block not found'));
}

/** Balances after block `until_block` (a height; the tip without it), like the API's deprecated v1 route. */
function balances(chain: FakeChain, principal: string, query: URLSearchParams): FakeAnswer {
  const until = query.get('until_block');
  const height = until === null ? chain.height : Number(until);
  // The API refuses 0 as it refuses any height that is not a block (the first block is 1).
  if (!Number.isSafeInteger(height) || height < 1) return json(400, errorBody(400, 'Bad Request', 'until_block must be a block height'));
  return json(200, renderBalances(balancesAt(chain, principal, height)));
}
