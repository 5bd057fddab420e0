// What the scan reads of transactions beyond a block's list: their events through /tx/multiple while it
// answers, then per transaction on v3; and, for calls the list gave without arguments or result (the v3
// list), those from the v3 transaction route, one request per alerting call.
import type { ContractCallDetails, TxEvents } from '../core/domain';
import type { TxReadRequest } from '../core/ports';
import { readCallDetailsV3 } from './call-details-v3';
import { withSuccessor } from './deprecations';
import { readTransactionEvents, TX_MULTIPLE_ROUTE, type EventReaderContext } from './event-reader';
import { readTransactionEventsV3 } from './event-reader-v3';
import { cancelOnFailure } from './cancel-on-failure';

export async function readTransactions(context: EventReaderContext, txs: readonly TxReadRequest[], signal?: AbortSignal): Promise<Map<string, TxEvents>> {
  const withEvents = txs.filter((tx) => tx.events !== false);
  const calls = [...new Set(txs.filter((tx) => tx.call).map((tx) => tx.txId))];
  let events = new Map<string, TxEvents>();
  let details: (readonly [string, ContractCallDetails])[] = [];
  // Events and call details side by side, settling together: the first failure cancels the other reads.
  const parts = [
    async (partSignal: AbortSignal) => {
      events = await readEvents(context, withEvents, partSignal);
    },
    async (partSignal: AbortSignal) => {
      details = await cancelOnFailure(
        calls,
        context.http.concurrency,
        async (txId, callSignal) => [txId, await readCallDetailsV3(context.http, txId, callSignal)] as const,
        partSignal,
      );
    },
  ];
  await cancelOnFailure(parts, parts.length, (part, partSignal) => part(partSignal), signal);
  const read = new Map(events);
  for (const [txId, call] of details) read.set(txId, { ...(read.get(txId) ?? { txId, logs: [], assets: [] }), call });
  return read;
}

function readEvents(context: EventReaderContext, txs: readonly TxReadRequest[], signal: AbortSignal): Promise<Map<string, TxEvents>> {
  if (txs.length === 0) return Promise.resolve(new Map<string, TxEvents>());
  return withSuccessor(
    context.http.deprecations,
    TX_MULTIPLE_ROUTE,
    () => readTransactionEvents(context, txs, signal),
    () => readTransactionEventsV3(context, txs, signal),
    context.log,
  );
}
