// Fetches the logs and asset movements of many transactions through `GET /extended/v3/transactions/{tx_id}/events`,
// the successor of `/extended/v1/tx/multiple`: one transaction per call (no batching on v3), every page of it
// by cursor. Both come from the same pages, mapped to the same domain values as the v1 reader's.
// It costs one request per transaction whose events the rules need and which has any (the API source has no
// batch or per-block events route as of 9.x), where /tx/multiple shared one call among up to ~100 transactions.
import type { AssetEvent, ContractLogEvent, StxLockEvent, TxEvents } from '../core/domain';
import { HiroBadRequestError, HiroInconsistentDataError } from './errors';
import type { EventReaderContext } from './event-reader';
import { V3_ROUTES } from './deprecations';
import { fromV3AssetEvent, fromV3Event, fromV3StxLock } from './mappers-v3';
import { describeRequest, type HiroRequest } from './request';
import { v3TransactionEventsPageSchema } from './schemas-v3';
import { cancelOnFailure } from './cancel-on-failure';

/** The route's maximum events per page. */
export const V3_EVENT_PAGE_LIMIT = 100;

export async function readTransactionEventsV3(
  context: EventReaderContext,
  txs: readonly { txId: string; eventCount: number | null }[],
  signal?: AbortSignal,
): Promise<Map<string, TxEvents>> {
  const wanted = new Map<string, number | null>();
  for (const { txId, eventCount } of txs) if (!wanted.has(txId)) wanted.set(txId, eventCount);
  // As many at once as the client sends; the first that fails cancels the rest, all settled when it is thrown.
  const entries = await cancelOnFailure(
    [...wanted],
    context.http.concurrency,
    async ([txId, eventCount], txSignal): Promise<[string, TxEvents]> => {
      // A count of 0 (every summary has one since API 9.7.0) needs no request.
      const events = eventCount === 0 ? { txId, logs: [], assets: [] } : await readEvents(context, txId, txSignal);
      return [txId, events];
    },
    signal,
  );
  return new Map(entries);
}

async function readEvents(context: EventReaderContext, txId: string, signal: AbortSignal): Promise<TxEvents> {
  // Keyed by event index: ascending, once each, however the pages overlap.
  const logs = new Map<number, ContractLogEvent>();
  const assets = new Map<number, AssetEvent>();
  const locks = new Map<number, StxLockEvent>();
  let cursor: string | null = null;
  let received = 0;
  let total = 0;
  do {
    const request: HiroRequest = { ...pageRequest(txId, cursor), signal };
    const body = await context.http.getBody(request, v3TransactionEventsPageSchema).catch((error: unknown) => {
      throw notFound(request, txId, error);
    });
    total = body.total;
    received += body.results.length;
    for (const raw of body.results) {
      const log = fromV3Event(raw);
      if (log) logs.set(log.eventIndex, log);
      const asset = fromV3AssetEvent(raw);
      if (asset) assets.set(asset.eventIndex, asset);
      const lock = fromV3StxLock(raw);
      if (lock) locks.set(lock.eventIndex, lock);
    }
    const last = body.results.at(-1)?.event_index;
    cursor = body.cursor.next;
    // Each page must move past the last: a cursor that does not would page for ever.
    if (cursor !== null && (last === undefined || !/^\d+$/.test(cursor) || Number(cursor) <= last)) {
      throw new HiroInconsistentDataError(identity(request), `transaction ${txId}'s events name next cursor ${cursor} after event ${last ?? 'none'}.`);
    }
  } while (cursor !== null);
  if (received < total) {
    context.log('warn', 'Hiro returned fewer events than the transaction counts', { txId, eventCount: total, received });
  }
  return { txId, logs: byEventIndex(logs), assets: byEventIndex(assets), ...(locks.size > 0 ? { locks: byEventIndex(locks) } : {}) };
}

function byEventIndex<E extends { eventIndex: number }>(found: Map<number, E>): E[] {
  return [...found.values()].sort((a, b) => a.eventIndex - b.eventIndex);
}

/**
 * The route answers 400 "Transaction not found" for a transaction that is not canonical: the block list just
 * named it, so the API is mid-reorg or lagging (tried again next run). Any other 400 is a request it rejects.
 */
function notFound(request: HiroRequest, txId: string, error: unknown): unknown {
  if (!(error instanceof HiroBadRequestError) || !/transaction not found/i.test(error.message)) return error;
  return new HiroInconsistentDataError(identity(request), `transaction ${txId} is in a block the API listed, but its events answer 400 Transaction not found.`);
}

function pageRequest(txId: string, cursor: string | null): HiroRequest {
  const id = txId.toLowerCase().startsWith('0x') ? txId.toLowerCase() : `0x${txId.toLowerCase()}`;
  return {
    route: V3_ROUTES.transactionEvents,
    path: `/extended/v3/transactions/${encodeURIComponent(id)}/events`,
    query: [['limit', V3_EVENT_PAGE_LIMIT], ...(cursor === null ? [] : [['cursor', cursor] as const])],
  };
}

function identity(request: HiroRequest) {
  return { endpoint: describeRequest(request), route: request.route };
}
