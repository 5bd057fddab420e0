// A block's chain alerts: every chain kind's matches, in chain order, and the events the kinds need.
import { describe, expect, it } from 'vitest';
import type { Block, ContractLogEvent, Transaction, TxEvents } from '../../lambda/core/domain';
import type { ChainAlert } from '../../lambda/core/alert-kinds/alert';
import { blockAlerts, transactionsNeedingEvents } from '../../lambda/core/match/block-alerts';
import { chainKindList } from '../../lambda/core/alert-kinds/chain-kinds';
import type { ChainKind } from '../../lambda/core/alert-kinds/kind';
import { compileWatchRules } from '../../lambda/core/rules/rule-lists';
import { config, OTHER, ROUTER, TOKEN, WATCHED } from './harness';

const txId = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;

function tx(txIndex: number, over: Partial<Transaction>): Transaction {
  return { txId: txId(txIndex), txIndex, txType: 'contract_call', txStatus: 'success', sender: OTHER, eventCount: 0, ...over };
}

const log = (eventIndex: number, contractId = TOKEN): ContractLogEvent => ({
  eventIndex,
  contractId,
  topic: 'print',
  valueHex: '0x0c',
  valueRepr: `(tuple (n u${eventIndex}))`,
});

const header = { height: 100, hash: txId(1000), parentHash: txId(999), time: 1714564800, txCount: 4 };

/**
 * Logs in transactions before and after a native transfer, and a transaction whose events arrive out of
 * order: the order of the kinds in the registry, and of the events as listed, are both not chain order.
 */
const block: Block = {
  header,
  transactions: [
    tx(0, { contractId: ROUTER, eventCount: 3 }),
    tx(1, { txType: 'token_transfer', eventCount: 1, tokenTransfer: { recipient: WATCHED, amount: '5', memo: '0x' } }),
    tx(2, { contractId: TOKEN, eventCount: 2 }),
  ],
};
const events = new Map<string, TxEvents>([
  [txId(0), { txId: txId(0), logs: [log(2), log(0)], assets: [] }],
  [txId(2), { txId: txId(2), logs: [log(1)], assets: [] }],
]);
const rules = compileWatchRules(config());
const positions = (alerts: ChainAlert[]) =>
  alerts.map((a) => `${a.type}@${a.tx_id === txId(0) ? 0 : a.tx_id === txId(1) ? 1 : 2}:${a.type === 'contract_log' ? a.event_index : '-'}`);

describe('blockAlerts', () => {
  it("puts a block's alerts in chain order, by transaction and then event, whatever kind found them", () => {
    expect(positions(blockAlerts(block, events, rules, 'mainnet'))).toEqual(['contract_log@0:0', 'contract_log@0:2', 'token_transfer@1:-', 'contract_log@2:1']);
  });

  it('gives the same order whatever order the kinds are asked in', () => {
    const reversed = [...chainKindList].reverse();
    expect(blockAlerts(block, events, rules, 'mainnet', reversed)).toEqual(blockAlerts(block, events, rules, 'mainnet'));
  });

  it('finds nothing when the watch config watches nothing in the block', () => {
    const none = compileWatchRules(config({ addresses: [OTHER], contractLogs: [{ contractId: ROUTER }] }));
    expect(blockAlerts(block, events, none, 'mainnet')).toEqual([]);
  });
});

describe('transactionsNeedingEvents', () => {
  it('needs the events of successful contract transactions that have events, when logs are watched', () => {
    const failed = tx(3, { txStatus: 'abort_by_response', eventCount: 2 });
    const quiet = tx(4, { eventCount: 0 });
    const withMore = { ...block, transactions: [...block.transactions, failed, quiet] };
    expect(transactionsNeedingEvents(withMore, rules).map((t) => t.txIndex)).toEqual([0, 2]);
  });

  it('needs no events when no configured kind needs them (only contract statuses watched)', () => {
    expect(transactionsNeedingEvents(block, compileWatchRules(config({ contractLogs: [], addresses: [], contracts: [TOKEN] })))).toEqual([]);
  });

  it('needs the events of successful calls with events when only addresses are watched: STX arrives inside calls too', () => {
    const addressesOnly = compileWatchRules(config({ contractLogs: [] }));
    expect(transactionsNeedingEvents(block, addressesOnly).map((t) => t.txIndex)).toEqual(transactionsNeedingEvents(block, rules).map((t) => t.txIndex));
  });

  it('needs the union of what the kinds need', () => {
    const transfersToo: ChainKind<ChainAlert> = {
      ...chainKindList[0]!,
      chain: { ...chainKindList[0]!.chain, needsEvents: (t) => t.txType === 'token_transfer' },
    };
    expect(transactionsNeedingEvents(block, rules, [...chainKindList, transfersToo]).map((t) => t.txIndex)).toEqual([0, 1, 2]);
  });
});
