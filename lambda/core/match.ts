// Matching: which transactions and events of a block the watcher alerts on. Pure functions of a block.
import type {
  Block,
  ContractLogAlert,
  Network,
  TokenTransferAlert,
  Transaction,
  TxEvents,
} from './domain';
import { alertKeys } from './alert-keys';
import { watchesLogs, type WatchRules } from './watch-rules';

// Only these transaction types run contract code, so only they can print.
const LOG_CARRYING_TYPES = new Set(['contract_call', 'smart_contract']);

/**
 * The transactions whose events must be fetched to match log rules: successful ones that can carry logs and
 * have events. A failed transaction's events were rolled back, so they never alert and are not fetched.
 */
export function transactionsNeedingEvents(block: Block, rules: WatchRules): Transaction[] {
  if (!watchesLogs(rules)) return [];
  return block.transactions.filter(
    (tx) => tx.txStatus === 'success' && tx.eventCount !== 0 && LOG_CARRYING_TYPES.has(tx.txType),
  );
}

export function matchTokenTransfers(block: Block, rules: WatchRules, network: Network): TokenTransferAlert[] {
  if (rules.addresses.size === 0) return [];
  const alerts: TokenTransferAlert[] = [];
  for (const tx of block.transactions) {
    if (tx.txType !== 'token_transfer' || tx.txStatus !== 'success' || !tx.tokenTransfer) continue;
    if (!rules.addresses.has(tx.tokenTransfer.recipient)) continue;
    alerts.push({
      type: 'token_transfer',
      key: alertKeys.tokenTransfer(tx.txId),
      network,
      tx_id: tx.txId,
      block_height: block.header.height,
      block_hash: block.header.hash,
      block_time: block.header.time,
      sender: tx.sender,
      recipient: tx.tokenTransfer.recipient,
      amount: tx.tokenTransfer.amount,
      memo: tx.tokenTransfer.memo,
    });
  }
  return alerts;
}

/**
 * Every log printed by a watched contract, whatever contract the transaction called: a watched contract
 * reached through another contract still counts.
 */
export function matchContractLogs(
  block: Block,
  events: ReadonlyMap<string, TxEvents>,
  rules: WatchRules,
  network: Network,
): ContractLogAlert[] {
  if (!watchesLogs(rules)) return [];
  const alerts: ContractLogAlert[] = [];
  for (const tx of block.transactions) {
    if (tx.txStatus !== 'success') continue;
    const txEvents = events.get(tx.txId);
    if (!txEvents) continue;
    for (const log of txEvents.logs) {
      const logRules = rules.logRules.get(log.contractId);
      if (!logRules) continue;
      const matches = logRules.some((rule) => rule.contains === undefined || log.valueRepr.includes(rule.contains));
      if (!matches) continue;
      alerts.push({
        type: 'contract_log',
        key: alertKeys.contractLog(tx.txId, log.eventIndex),
        network,
        tx_id: tx.txId,
        block_height: block.header.height,
        block_hash: block.header.hash,
        block_time: block.header.time,
        event_index: log.eventIndex,
        contract_id: log.contractId,
        topic: log.topic,
        value_repr: log.valueRepr,
        value_hex: log.valueHex,
      });
    }
  }
  return alerts;
}
