// The MempoolApi over Hiro's routes (docs/pending.md): the v3 mempool list, newest first, filtered to calls
// and STX transfers (API 9.8.0's `type` filter; an older API ignores it and the types are checked here too),
// read until a transaction seen before; what became of a tracked transaction, from `/extended/v1/tx/multiple`
// for several at once (the only route that still shows a dropped one, with its reason) and from the v3
// transaction route once that is retired; and waiting calls' arguments, from the same routes. An API without the
// v3 list (404: a self-hosted one older than it) is read through the deprecated v1 list instead, with a notice.
// What an older API lacks (the v3 list, its type filter, a principal's route) is remembered by the process
// (RouteMemory, kept by its runner across the clients it builds) and asked again an hour later.
import type { ApiDeprecation } from '../core/domain';
import type { RouteMemory } from '../core/follow/missing-routes';
import type { MempoolApi, MempoolTx, PendingTxStatus } from '../core/mempool/mempool-ports';
import { DROP_REASONS, type DropReason } from '../core/mempool/mempool-ports';
import { MEMPOOL_LIST_PAGE } from '../core/mempool/mempool-plan';
import { V3_TRANSACTION_ROUTE } from './call-details-v3';
import { withSuccessor } from './deprecations';
import { TX_MULTIPLE_ROUTE, type EventReaderContext } from './event-reader';
import { HiroBadRequestError } from './errors';
import { readV1MempoolPage, V1_MEMPOOL_ROUTE, type ListedTx } from './mempool-list-v1';
import type { HiroRequest } from './request';
import { v1TxStatusesSchema, v3MempoolPageSchema, v3TxStatusSchema } from './schemas-mempool';
import { listedV3 } from './mempool-summary';
import { principalMempoolReader, V3_PRINCIPAL_MEMPOOL_ROUTE } from './mempool-principals';
import { settleAll } from '../core/settle';

export const V3_MEMPOOL_ROUTE = 'GET /extended/v3/mempool/transactions';
/** The v3 list's `type` filter, as the process remembers an API that refused it. */
export const V3_MEMPOOL_TYPE_FILTER = `${V3_MEMPOOL_ROUTE}?type=`;
const MINED = new Set(['success', 'abort_by_response', 'abort_by_post_condition', 'problematic_skipped']);

/**
 * `onMissing` hears that the API has no v3 list (the operator's notice) and the v1 list is read instead, when a
 * request finds it so: once, then once an hour at most while `routes` (the process's memory) keeps it unasked.
 */
export function createMempoolReader(context: EventReaderContext, routes: RouteMemory, onMissing: (notice: ApiDeprecation) => void = () => {}): MempoolApi {
  const { http } = context;
  const startList = mempoolList(context, routes, onMissing);
  // An API without a principal's mempool route is read through the v3 list (or what stands for it), one notice.
  const principals = principalMempoolReader(context, routes, (detail) =>
    onMissing({ route: V3_PRINCIPAL_MEMPOOL_ROUTE, replacement: V3_MEMPOOL_ROUTE, gone: false, unreadable: true, detail }),
  );
  return {
    readPrincipalsMempool: principals,

    async readMempool({ stopAt, receivedFrom, maxPages }) {
      const found: MempoolTx[] = [];
      let cursor: string | null = null;
      // An offset-paged list shifts when transactions arrive between pages: one listed twice counts once.
      const ids = new Set<string>();
      const readListed = startList();
      for (let page = 0; page < maxPages; page++) {
        const { listed, next } = await readListed(cursor);
        for (const { txId, receivedAt, tx } of listed) {
          if (stopAt.has(txId) || (receivedFrom !== null && receivedAt < receivedFrom)) return found;
          if (tx && !ids.has(txId)) found.push(tx);
          ids.add(txId);
        }
        cursor = next;
        if (cursor === null) break;
      }
      return found;
    },

    readPendingStatuses: (txIds) =>
      withSuccessor(
        http.deprecations,
        TX_MULTIPLE_ROUTE,
        () => statusesV1(context, txIds),
        async () => new Map(await settleAll(txIds.map(async (txId) => [txId, await statusV3(context, txId)] as const))),
        context.log,
      ),

    readPendingCallArgs: (txIds) =>
      withSuccessor(
        http.deprecations,
        TX_MULTIPLE_ROUTE,
        async () =>
          new Map([...(await multiple(context, txIds, true))].map(([txId, entry]) => [txId, entry?.contract_call?.function_args?.map((a) => a.repr) ?? null])),
        async () => new Map(await settleAll(txIds.map(async (txId) => [txId, await callArgsV3(context, txId)] as const))),
        context.log,
      ),
  };
}

/**
 * Starts a read of whichever mempool list this API has, a page at a time: the v3 list, or the v1 list when the
 * process found the v3 one missing (404: an API older than it) within the hour. One read keeps to one list, whose
 * cursor it pages by: the v3 list's, or the v1 offset in decimal.
 */
function mempoolList(
  context: EventReaderContext,
  routes: RouteMemory,
  onMissing: (notice: ApiDeprecation) => void,
): () => (cursor: string | null) => Promise<{ listed: ListedTx[]; next: string | null }> {
  const { http } = context;
  const readPage = async (cursor: string | null) => {
    const request = (filtered: boolean): HiroRequest => ({
      route: V3_MEMPOOL_ROUTE,
      path: '/extended/v3/mempool/transactions',
      query: [
        ['limit', MEMPOOL_LIST_PAGE],
        ...(filtered
          ? ([
              ['type', 'contract_call'],
              ['type', 'token_transfer'],
            ] as const)
          : []),
        ...(cursor === null ? [] : [['cursor', cursor] as const]),
      ],
      // Read again next run anyway: a failing mempool must not hold the run up with retries.
      retries: 0,
      expect: [404],
    });
    // The `type` filter's exact form is not in the API source read here (9.8.0 added it): an API that refuses it
    // (400) is asked without it for the hour after, and the types are checked here anyway.
    if (!routes.skips(V3_MEMPOOL_TYPE_FILTER)) {
      try {
        const answer = await http.get(request(true), v3MempoolPageSchema);
        if (answer.ok) routes.answered(V3_MEMPOOL_TYPE_FILTER);
        return answer;
      } catch (error) {
        if (!(error instanceof HiroBadRequestError)) throw error;
        const askAgainAt = new Date(routes.found(V3_MEMPOOL_TYPE_FILTER)).toISOString();
        context.log('warn', "the API refused the mempool list's type filter; reading the list unfiltered", { detail: error.message, askAgainAt });
      }
    }
    return http.get(request(false), v3MempoolPageSchema);
  };
  return () => {
    let v3List = !routes.skips(V3_MEMPOOL_ROUTE);
    return async (cursor) => {
      if (v3List) {
        const answer = await readPage(cursor);
        if (answer.ok) {
          if (cursor === null) routes.answered(V3_MEMPOOL_ROUTE);
          return { listed: answer.body.results.flatMap(listedV3), next: answer.body.cursor.next };
        }
        // Only the first page can find the route missing: a later page's 404 would be a route that vanished mid-read.
        if (cursor !== null) throw new Error(`${V3_MEMPOOL_ROUTE} answered 404 for a later page`);
        v3List = false;
        routes.found(V3_MEMPOOL_ROUTE);
        const detail = 'answered 404: this API has no v3 mempool list';
        onMissing({ route: V3_MEMPOOL_ROUTE, replacement: V1_MEMPOOL_ROUTE, gone: false, unreadable: true, detail });
      }
      const page = await readV1MempoolPage(http, cursor === null ? 0 : Number(cursor), MEMPOOL_LIST_PAGE);
      return { listed: page.listed, next: page.next === null ? null : String(page.next) };
    };
  };
}

function dropReason(status: string | undefined): DropReason | undefined {
  return (DROP_REASONS as readonly string[]).includes(status ?? '') ? (status as DropReason) : undefined;
}

/** One request for every id: `/tx/multiple` answers mined and mempool transactions, dropped ones too. */
async function multiple(context: EventReaderContext, txIds: readonly string[], withArgs: boolean) {
  const body = await context.http.getBody(
    {
      route: TX_MULTIPLE_ROUTE,
      path: '/extended/v1/tx/multiple',
      query: [...txIds.map((id) => ['tx_id', id] as const), ...(withArgs ? [] : [['exclude_function_args', 'true'] as const])],
    },
    v1TxStatusesSchema,
  );
  return new Map(
    txIds.map((txId) => {
      const entry = body[txId] ?? body[txId.toLowerCase()];
      return [txId, entry?.found ? entry.result : undefined] as const;
    }),
  );
}

async function statusesV1(context: EventReaderContext, txIds: readonly string[]): Promise<Map<string, PendingTxStatus>> {
  const statuses = new Map<string, PendingTxStatus>();
  for (const [txId, result] of await multiple(context, txIds, false)) {
    const reason = dropReason(result?.tx_status);
    if (!result) statuses.set(txId, { state: 'unknown' });
    else if (reason) statuses.set(txId, { state: 'dropped', reason, replacedBy: result.replaced_by_tx_id ?? null });
    else if (result.tx_status === 'pending') statuses.set(txId, { state: 'pending' });
    else if (typeof result.block_height === 'number' && result.canonical !== false && MINED.has(result.tx_status ?? '')) statuses.set(txId, { state: 'mined' });
    else statuses.set(txId, { state: 'unknown' });
  }
  return statuses;
}

async function callArgsV3(context: EventReaderContext, txId: string): Promise<string[] | null> {
  const answer = await context.http.get(
    { route: V3_TRANSACTION_ROUTE, path: `/extended/v3/transactions/${encodeURIComponent(txId)}`, query: [['include', 'function_args']], expect: [404] },
    v3TxStatusSchema,
  );
  return answer.ok ? (answer.body.contract_call?.function_args?.map((arg) => arg.repr) ?? null) : null;
}

/**
 * The v3 transaction route knows mined and still-waiting transactions only: a 404 for one that was waiting
 * means it left the mempool unmined, and this route does not keep the reason.
 */
async function statusV3(context: EventReaderContext, txId: string): Promise<PendingTxStatus> {
  const answer = await context.http.get(
    { route: V3_TRANSACTION_ROUTE, path: `/extended/v3/transactions/${encodeURIComponent(txId)}`, expect: [404] },
    v3TxStatusSchema,
  );
  if (!answer.ok) return { state: 'dropped', reason: null, replacedBy: null };
  const { block, status, replaced_by_tx_id: replacedBy } = answer.body;
  const reason = dropReason(status);
  if (reason) return { state: 'dropped', reason, replacedBy: replacedBy ?? null };
  if (block) return { state: 'mined' };
  return status === 'pending' ? { state: 'pending' } : { state: 'unknown' };
}
