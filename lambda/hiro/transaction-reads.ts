// What the scan reads of transactions beyond a block's list: their events through /tx/multiple while it
// answers, then per transaction on v3; and, for calls the list gave without arguments or result (the v3
// list), those from the v3 transaction route, one request per alerting call.
import type { TxEvents } from '../core/domain';
import type { TxReadRequest } from '../core/ports';
import { readCallDetailsV3 } from './call-details-v3';
import { withSuccessor } from './deprecations';
import { readTransactionEvents, TX_MULTIPLE_ROUTE, type EventReaderContext } from './event-reader';
import { readTransactionEventsV3 } from './event-reader-v3';

export async function readTransactions(context: EventReaderContext, txs: readonly TxReadRequest[]): Promise<Map<string, TxEvents>> {
  const withEvents = txs.filter((tx) => tx.events !== false);
  const calls = [...new Set(txs.filter((tx) => tx.call).map((tx) => tx.txId))];
  const [events, details] = await Promise.all([
    withEvents.length === 0
      ? new Map<string, TxEvents>()
      : withSuccessor(
          context.http.deprecations,
          TX_MULTIPLE_ROUTE,
          () => readTransactionEvents(context, withEvents),
          () => readTransactionEventsV3(context, withEvents),
          context.log,
        ),
    Promise.all(calls.map(async (txId) => [txId, await readCallDetailsV3(context.http, txId)] as const)),
  ]);
  const read = new Map(events);
  for (const [txId, call] of details) read.set(txId, { ...(read.get(txId) ?? { txId, logs: [], assets: [] }), call });
  return read;
}
