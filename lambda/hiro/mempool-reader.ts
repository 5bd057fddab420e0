// The MempoolApi over Hiro's routes (docs/pending.md): the v3 mempool list, newest first, filtered to calls
// and STX transfers (API 9.8.0's `type` filter; an older API ignores it and the types are checked here too),
// read until a transaction seen before; what became of a tracked transaction, from `/extended/v1/tx/multiple`
// for several at once (the only route that still shows a dropped one, with its reason) and from the v3
// transaction route once that is retired; and waiting calls' arguments, from the same routes.
import type { MempoolApi, MempoolTx, PendingTxStatus } from '../core/mempool/mempool-ports';
import { DROP_REASONS, type DropReason } from '../core/mempool/mempool-ports';
import { V3_TRANSACTION_ROUTE } from './call-details-v3';
import { withSuccessor } from './deprecations';
import { TX_MULTIPLE_ROUTE, type EventReaderContext } from './event-reader';
import { HiroBadRequestError } from './errors';
import type { HiroRequest } from './request';
import { v1TxStatusesSchema, v3MempoolPageSchema, v3MempoolSummarySchema, v3TxStatusSchema, type RawMempoolSummary } from './schemas-mempool';

export const V3_MEMPOOL_ROUTE = 'GET /extended/v3/mempool/transactions';
/** The list's largest page (the API's transaction limit). */
const PAGE = 50;
const MINED = new Set(['success', 'abort_by_response', 'abort_by_post_condition', 'problematic_skipped']);

export function createMempoolReader(context: EventReaderContext): MempoolApi {
  const { http } = context;
  // The `type` filter's exact form is not in the API source read here (9.8.0 added it): an API that refuses it
  // (400) is asked without it from then on, and the types are checked here anyway.
  let typeFilter = true;
  const readPage = async (cursor: string | null) => {
    const request = (filtered: boolean): HiroRequest => ({
      route: V3_MEMPOOL_ROUTE,
      path: '/extended/v3/mempool/transactions',
      query: [
        ['limit', PAGE],
        ...(filtered ? ([['type', 'contract_call'], ['type', 'token_transfer']] as const) : []),
        ...(cursor === null ? [] : [['cursor', cursor] as const]),
      ],
      // Read again next run anyway: a failing mempool must not hold the run up with retries.
      retries: 0,
    });
    if (typeFilter) {
      try {
        return await http.getBody(request(true), v3MempoolPageSchema);
      } catch (error) {
        if (!(error instanceof HiroBadRequestError)) throw error;
        context.log('warn', 'the API refused the mempool list\'s type filter; reading the list unfiltered', { detail: error.message });
        typeFilter = false;
      }
    }
    return http.getBody(request(false), v3MempoolPageSchema);
  };
  return {
    async readMempool({ stopAt, receivedFrom, maxPages }) {
      const found: MempoolTx[] = [];
      let cursor: string | null = null;
      for (let page = 0; page < maxPages; page++) {
        const body = await readPage(cursor);
        for (const entry of body.results) {
          const summary = v3MempoolSummarySchema.safeParse(entry);
          if (!summary.success) continue;
          if (stopAt.has(summary.data.tx_id.toLowerCase()) || (receivedFrom !== null && summary.data.receipt_time < receivedFrom)) return found;
          const tx = toMempoolTx(summary.data);
          if (tx) found.push(tx);
        }
        cursor = body.cursor.next;
        if (cursor === null) break;
      }
      return found;
    },

    readPendingStatuses: (txIds) =>
      withSuccessor(
        http.deprecations,
        TX_MULTIPLE_ROUTE,
        () => statusesV1(context, txIds),
        async () => new Map(await Promise.all(txIds.map(async (txId) => [txId, await statusV3(context, txId)] as const))),
        context.log,
      ),

    readPendingCallArgs: (txIds) =>
      withSuccessor(
        http.deprecations,
        TX_MULTIPLE_ROUTE,
        async () => new Map([...(await multiple(context, txIds, true))].map(([txId, entry]) => [txId, entry?.contract_call?.function_args?.map((a) => a.repr) ?? null])),
        async () => new Map(await Promise.all(txIds.map(async (txId) => [txId, await callArgsV3(context, txId)] as const))),
        context.log,
      ),
  };
}

function toMempoolTx(raw: RawMempoolSummary): MempoolTx | null {
  const common = { txId: raw.tx_id.toLowerCase(), sender: raw.sender.address, nonce: raw.sender.nonce, fee: raw.fee_rate, receivedAt: raw.receipt_time };
  if (raw.type === 'contract_call' && raw.contract_call) {
    return { ...common, type: 'contract_call', contractCall: { contractId: raw.contract_call.contract_id, functionName: raw.contract_call.function_name } };
  }
  if (raw.type === 'token_transfer' && raw.token_transfer) {
    const { recipient, amount, memo } = raw.token_transfer;
    return { ...common, type: 'token_transfer', tokenTransfer: { recipient, amount, memo: memo?.hex ?? null } };
  }
  return null;
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
  return new Map(txIds.map((txId) => {
    const entry = body[txId] ?? body[txId.toLowerCase()];
    return [txId, entry?.found ? entry.result : undefined] as const;
  }));
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
