// The chain alerts of one block, given the events fetched for it: transfers from the transaction list,
// logs from the events, in chain order.
import type { Block, ChainAlert, Network, TxEvents } from './domain';
import { matchContractLogs, matchTokenTransfers } from './match';
import type { WatchRules } from './watch-rules';

export function blockAlerts(
  block: Block,
  events: ReadonlyMap<string, TxEvents>,
  rules: WatchRules,
  network: Network,
): ChainAlert[] {
  const transfers = matchTokenTransfers(block, rules, network);
  const logs = matchContractLogs(block, events, rules, network);
  if (logs.length === 0) return transfers;
  // By transaction, then event.
  const order = new Map(block.transactions.map((tx) => [tx.txId, tx.txIndex]));
  return [...transfers, ...logs].sort(
    (a, b) =>
      order.get(a.tx_id)! - order.get(b.tx_id)! ||
      (a.type === 'contract_log' ? a.event_index : -1) - (b.type === 'contract_log' ? b.event_index : -1),
  );
}
