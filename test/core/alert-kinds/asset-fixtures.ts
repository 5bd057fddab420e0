// Blocks with asset events for the asset kinds' unit tests.
import type { AssetEvent, Block, ContractLogEvent, Transaction, TxEvents } from '../../../lambda/core/domain';
import type { TransferRule } from '../../../lambda/core/rules/transfer-rules';
import type { WatchConfig } from '../../../lambda/core/watch-config/watch-config-schema';
import { compileWatchRules, type WatchRules } from '../../../lambda/core/rules/rule-lists';
import { config } from '../harness';

export const TREASURY = 'SP3FBR2AGK5H9QBDH3EEN6DF8EK8JY7RX8QJ5SVTE';
export const SEND_MANY = `${TREASURY}.send-many-memo`;
export const SBTC = 'SM3VDXK3WZZSA84XXFKAFAF15NNZX32CTSG82JFQ4.sbtc-token::sbtc-token';
export const BNS = 'SP000000000000000000002Q6VF78.bns::names';
export const header = { height: 182345, hash: `0x${'cd'.repeat(32)}`, parentHash: `0x${'ef'.repeat(32)}`, time: 1714564800, txCount: 1 };
export const TX = `0x${'ab'.repeat(32)}`;

export function callTx(over: Partial<Transaction> = {}): Transaction {
  return { txId: TX, txIndex: 3, txType: 'contract_call', txStatus: 'success', sender: TREASURY, eventCount: 4, contractId: SEND_MANY, ...over };
}

export function rules(over: Partial<WatchConfig> = {}, transfers: Partial<TransferRule>[] = []): WatchRules {
  return compileWatchRules(
    config({
      contractLogs: [],
      ...over,
      transfers: transfers.map((rule) => ({ asset: 'stx', to: [], from: [], actions: ['transfer', 'mint', 'burn'], ...rule })),
    }),
  );
}

/** The match input of one block holding `tx` with these events. */
export function input(tx: Transaction, assets: AssetEvent[], watch: WatchRules, logs: ContractLogEvent[] = []) {
  const block: Block = { header, transactions: [tx] };
  const events = new Map<string, TxEvents>([[tx.txId, { txId: tx.txId, logs, assets }]]);
  return { block, events, rules: watch, network: 'mainnet' as const };
}

/** A print of a `(buff n)` by `contractId`, as the send-many-memo contract prints a leg's memo. */
export function bufferPrint(eventIndex: number, contractId: string, bytesHex: string): ContractLogEvent {
  const length = (bytesHex.length / 2).toString(16).padStart(8, '0');
  return { eventIndex, contractId, topic: 'print', valueHex: `0x02${length}${bytesHex}`, valueRepr: `0x${bytesHex}` };
}
