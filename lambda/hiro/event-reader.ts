// Fetches the logs and asset movements of many transactions through `GET /extended/v1/tx/multiple`: as many ids per call as
// keep the URL short, and for transactions with more than one page of events, calls at the later offsets holding
// only those that have more. The block list tells each transaction's event count, so every page it implies is
// asked in the first round, side by side (the same calls as one offset after the other, one round trip instead of
// several); only a count the answers raise, or one the list did not give (v3), sends another round.
import type { AssetEvent, ContractLogEvent, StxLockEvent, TxEvents } from '../core/domain';
import { HiroInconsistentDataError } from './errors';
import type { HiroHttp } from './http';
import { toAssetEvent, toContractLog, toStxLock } from './mappers';
import { describeRequest, requestUrl, type HiroRequest } from './request';
import { txMultipleSchema } from './schemas';
import { cancelOnFailure } from './cancel-on-failure';

/** The route's maximum events per transaction per call. */
export const EVENT_PAGE_LIMIT = 100;
/** Proxies commonly refuse URLs past 8 KiB (Hiro's own limit is ~16 KiB): stay under it. */
export const MAX_URL_LENGTH = 8000;
export const TX_MULTIPLE_ROUTE = 'GET /extended/v1/tx/multiple';

export interface EventReaderContext {
  http: HiroHttp;
  baseUrl: URL;
  log: (level: 'warn', message: string, attributes: Record<string, unknown>) => void;
}

interface Pending {
  /** The id as the caller gave it (the key of the answer map). */
  txId: string;
  /** 0x-prefixed lower-case, as sent to the API. */
  apiId: string;
  /** What the block list said, or what the answer said once read (0 while unknown). */
  eventCount: number;
  offset: number;
  /** The last page asked in its round: its answer decides whether the transaction has more. */
  last: boolean;
}

/** The pages from `from` up to `eventCount` (at least the one at `from`), each asked in the same round. */
function pagesFrom(tx: Omit<Pending, 'offset' | 'last'>, from: number): Pending[] {
  const pages: Pending[] = [];
  for (let offset = from; offset === from || offset < tx.eventCount; offset += EVENT_PAGE_LIMIT) pages.push({ ...tx, offset, last: false });
  pages.at(-1)!.last = true;
  return pages;
}

export async function readTransactionEvents(
  context: EventReaderContext,
  txs: readonly { txId: string; eventCount: number | null }[],
  signal?: AbortSignal,
): Promise<Map<string, TxEvents>> {
  const logs = new Map<string, Found>();
  let pending: Pending[] = [];
  const upFront = context.http.deprecations.known(TX_MULTIPLE_ROUTE);
  for (const { txId, eventCount } of txs) {
    if (logs.has(txId)) continue;
    logs.set(txId, { logs: [], assets: [], locks: [], received: 0, eventCount: eventCount ?? 0 });
    // null: a v3 block list, which gives no count; the answer's event_count then plans the paging. Until the process
    // knows whether the route is served or retired, the first round asks the first pages only: a retired route then
    // costs one 410 a call, not one a page.
    const tx = { txId, apiId: apiTxId(txId), eventCount: upFront ? (eventCount ?? 0) : 0 };
    if (eventCount !== 0) pending.push(...pagesFrom(tx, 0));
  }
  while (pending.length > 0) {
    const batches = planBatches(context.baseUrl, pending);
    // The first call that fails cancels the others; all have settled when it is thrown.
    const next = await cancelOnFailure(batches, context.http.concurrency, (batch, batchSignal) => readBatch(context, batch, logs, batchSignal), signal);
    pending = next.flat();
  }
  const result = new Map<string, TxEvents>();
  for (const [txId, found] of logs) {
    if (found.received < found.eventCount) {
      context.log('warn', 'Hiro returned fewer events than the transaction counts', { txId, eventCount: found.eventCount, received: found.received });
    }
    result.set(txId, {
      txId,
      logs: byEventIndex(found.logs),
      assets: byEventIndex(found.assets),
      ...(found.locks.length > 0 ? { locks: byEventIndex(found.locks) } : {}),
    });
  }
  return result;
}

/** The events of one transaction the core uses, as read so far. */
interface Found {
  logs: ContractLogEvent[];
  assets: AssetEvent[];
  locks: StxLockEvent[];
  /** Events received over every page, and the most the list or an answer counted. */
  received: number;
  eventCount: number;
}

/** Ascending, once each: a page read twice (a retried call) adds nothing. */
function byEventIndex<E extends { eventIndex: number }>(found: readonly E[]): E[] {
  const unique = new Map(found.map((event) => [event.eventIndex, event]));
  return [...unique.values()].sort((a, b) => a.eventIndex - b.eventIndex);
}

/** Reads one call's worth; returns the transactions that need another page. */
async function readBatch(context: EventReaderContext, batch: Pending[], logs: Map<string, Found>, signal: AbortSignal): Promise<Pending[]> {
  const request = { ...batchRequest(batch), signal };
  const body = await context.http.getBody(request, txMultipleSchema);
  const entries = new Map(Object.entries(body).map(([key, entry]) => [apiTxId(key), entry]));
  const next: Pending[] = [];
  for (const tx of batch) {
    const entry = entries.get(tx.apiId);
    if (!entry || !entry.found) {
      // The block list just named this transaction; an API that cannot find it is mid-reorg or lagging.
      throw new HiroInconsistentDataError(
        { endpoint: describeRequest(request), route: request.route },
        `transaction ${tx.txId} is in a block the API listed, but the API answers it is not found.`,
      );
    }
    const events = entry.result.events;
    const found = logs.get(tx.txId)!;
    for (const raw of events) {
      const log = toContractLog(raw);
      if (log) found.logs.push(log);
      const asset = toAssetEvent(raw);
      if (asset) found.assets.push(asset);
      const lock = toStxLock(raw);
      if (lock) found.locks.push(lock);
    }
    found.received += events.length;
    const eventCount = Math.max(tx.eventCount, found.eventCount, entry.result.event_count ?? 0);
    found.eventCount = eventCount;
    // A full last page below the count: the pages the count now implies, in the next round.
    if (tx.last && events.length >= EVENT_PAGE_LIMIT && tx.offset + EVENT_PAGE_LIMIT < eventCount) {
      next.push(...pagesFrom({ txId: tx.txId, apiId: tx.apiId, eventCount }, tx.offset + EVENT_PAGE_LIMIT));
    }
  }
  return next;
}

/** Groups by offset (event_offset applies to every id of a call), then fills each call up to the URL budget. */
function planBatches(baseUrl: URL, pending: Pending[]): Pending[][] {
  const byOffset = new Map<number, Pending[]>();
  for (const tx of pending) {
    const group = byOffset.get(tx.offset);
    if (group) group.push(tx);
    else byOffset.set(tx.offset, [tx]);
  }
  const batches: Pending[][] = [];
  for (const [offset, group] of byOffset) {
    const baseLength = requestUrl(baseUrl, batchRequest([], offset)).href.length;
    let batch: Pending[] = [];
    let length = baseLength;
    for (const tx of group) {
      const added = `&tx_id=${encodeURIComponent(tx.apiId)}`.length;
      if (batch.length > 0 && length + added > MAX_URL_LENGTH) {
        batches.push(batch);
        batch = [];
        length = baseLength;
      }
      batch.push(tx);
      length += added;
    }
    if (batch.length > 0) batches.push(batch);
  }
  return batches;
}

function batchRequest(batch: Pending[], offset = batch[0]?.offset ?? 0): HiroRequest {
  return {
    route: TX_MULTIPLE_ROUTE,
    path: '/extended/v1/tx/multiple',
    query: [...batch.map((tx) => ['tx_id', tx.apiId] as const), ['event_limit', EVENT_PAGE_LIMIT], ['event_offset', offset]],
  };
}

function apiTxId(txId: string): string {
  const lower = txId.toLowerCase();
  return lower.startsWith('0x') ? lower : `0x${lower}`;
}
