// A principal's own mempool route, `GET /extended/v3/principals/{principal}/mempool/transactions` (API 9.0.0, not
// deprecated): the waiting transactions where the principal is the sender, a native transfer's recipient, or the
// called or deployed contract, newest first by (receipt_time, tx_id), 50 a page, by cursor, as the v3 list pages.
// Each principal is walked as the list is (until a transaction seen before or received before the newest seen),
// and the walks merged newest first, so the pending rules see what the list would have shown them. No
// `If-None-Match`: the route's ETag covers a principal's sends and receipts, not calls to a contract, and a 304 is
// a request all the same. An item that repeats an earlier one of the walk, or that does not name the principal, is
// not believed: left out (nothing alerted from it, nothing remembered of it) and named in a warning.
import type { RouteMemory } from '../core/follow/missing-routes';
import type { MempoolReadOptions, MempoolTx } from '../core/mempool/mempool-ports';
import { MEMPOOL_LIST_PAGE } from '../core/mempool/mempool-plan';
import type { EventReaderContext } from './event-reader';
import { listedV3 } from './mempool-summary';
import type { HiroRequest } from './request';
import { v3MempoolPageSchema } from './schemas-mempool';

export const V3_PRINCIPAL_MEMPOOL_ROUTE = 'GET /extended/v3/principals/{principal}/mempool/transactions';

interface Ignored {
  txId: string;
  why: 'repeats an earlier item' | 'does not name the principal';
}

/**
 * Reads principals' mempool routes; null once the API answered 404 (it has no such route: `onMissing` hears it),
 * so the caller reads the list, for the hour the process (`routes`, kept by its runner) does not ask it again.
 */
export function principalMempoolReader(
  context: EventReaderContext,
  routes: RouteMemory,
  onMissing: (detail: string) => void,
): (principals: readonly string[], options: MempoolReadOptions) => Promise<MempoolTx[] | null> {
  return async (principals, options) => {
    if (routes.skips(V3_PRINCIPAL_MEMPOOL_ROUTE)) return null;
    const found = new Map<string, MempoolTx>();
    for (const [index, principal] of principals.entries()) {
      const walked = await walkPrincipal(context, principal, options);
      if (walked === null) {
        // Only the first request can find the route missing: after one answered, a 404 is a route that vanished mid-read.
        if (index > 0) throw new Error(`${V3_PRINCIPAL_MEMPOOL_ROUTE} answered 404 for ${principal} after answering for ${principals[0]}`);
        routes.found(V3_PRINCIPAL_MEMPOOL_ROUTE);
        onMissing('answered 404: this API has no principal mempool route');
        return null;
      }
      if (index === 0) routes.answered(V3_PRINCIPAL_MEMPOOL_ROUTE);
      if (walked.ignored.length > 0) {
        context.log('warn', `${V3_PRINCIPAL_MEMPOOL_ROUTE} gave items for ${principal} that cannot be believed: ignored, nothing alerted from them`, {
          principal,
          ignored: walked.ignored,
        });
      }
      // A transaction between two watched principals is on both routes: once here.
      for (const tx of walked.txs) found.set(tx.txId, tx);
    }
    return [...found.values()].sort(newestFirst);
  };
}

/** As the v3 list orders: receipt time, then id, descending. */
function newestFirst(a: MempoolTx, b: MempoolTx): number {
  return b.receivedAt - a.receivedAt || (a.txId < b.txId ? 1 : a.txId > b.txId ? -1 : 0);
}

/** One principal's new waiting calls and transfers, and the items ignored; null when the route answered 404. */
async function walkPrincipal(
  context: EventReaderContext,
  principal: string,
  { stopAt, receivedFrom, maxPages }: MempoolReadOptions,
): Promise<{ txs: MempoolTx[]; ignored: Ignored[] } | null> {
  const txs: MempoolTx[] = [];
  const ignored: Ignored[] = [];
  const ids = new Set<string>();
  let cursor: string | null = null;
  for (let page = 0; page < maxPages; page++) {
    const request: HiroRequest = {
      route: V3_PRINCIPAL_MEMPOOL_ROUTE,
      path: `/extended/v3/principals/${encodeURIComponent(principal)}/mempool/transactions`,
      query: [['limit', MEMPOOL_LIST_PAGE], ...(cursor === null ? [] : [['cursor', cursor] as const])],
      // Read again next run anyway: a failing mempool must not hold the run up with retries.
      retries: 0,
      expect: [404],
    };
    const answer = await context.http.get(request, v3MempoolPageSchema);
    if (!answer.ok) {
      if (cursor !== null) throw new Error(`${V3_PRINCIPAL_MEMPOOL_ROUTE} answered 404 for a later page of ${principal}`);
      return null;
    }
    for (const item of answer.body.results.flatMap(listedV3)) {
      const why = ids.has(item.txId) ? 'repeats an earlier item' : item.names.includes(principal) ? null : 'does not name the principal';
      if (why !== null) {
        ignored.push({ txId: item.txId, why });
        continue;
      }
      ids.add(item.txId);
      if (stopAt.has(item.txId) || (receivedFrom !== null && item.receivedAt < receivedFrom)) return { txs, ignored };
      if (item.tx) txs.push(item.tx);
    }
    cursor = answer.body.cursor.next;
    if (cursor === null) break;
  }
  return { txs, ignored };
}
