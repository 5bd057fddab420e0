// Event reads are planned from one place: the matchers' kinds and the stages each say which transactions'
// events they need. The balance stage reads the events of every successful transaction that may carry more
// than its list says (any call may move a watched balance); its alert kind, which no matcher finds, says nothing.
import { describe, expect, it } from 'vitest';
import type { Block, Transaction } from '../../../lambda/core/domain';
import { balanceThresholdKind } from '../../../lambda/core/alert-kinds/balance-threshold';
import { chainKindList } from '../../../lambda/core/alert-kinds/chain-kinds';
import { blockScanCost } from '../../../lambda/core/follow/fetch-plan';
import { transactionReads, transactionsNeedingEvents } from '../../../lambda/core/match/block-alerts';
import { compileWatchRules } from '../../../lambda/core/rules/rule-lists';
import { BLOCK_STAGES } from '../../../lambda/core/stages/registry';
import { stageEventWants } from '../../../lambda/core/stages/stage-events';
import { config, OTHER, WATCHED } from '../harness';

const txId = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;
const tx = (txIndex: number, over: Partial<Transaction> = {}): Transaction => ({
  txId: txId(txIndex),
  txIndex,
  txType: 'contract_call',
  txStatus: 'success',
  sender: OTHER,
  eventCount: 2,
  contractId: `${OTHER}.pool`,
  ...over,
});
const block: Block = {
  header: { height: 10, hash: txId(100), parentHash: txId(99), time: 1, txCount: 4 },
  transactions: [
    tx(0),
    tx(1, { txStatus: 'abort_by_response' }),
    tx(2, { txType: 'token_transfer', eventCount: 1, tokenTransfer: { recipient: OTHER, amount: '5', memo: '0x' } }),
    tx(3, { eventCount: 0 }),
  ],
};
const balances = compileWatchRules(config({ contracts: [], contractLogs: [], addresses: [], balances: [{ address: WATCHED, asset: 'stx', below: '1000' }] }));
const nothing = compileWatchRules(config({ contracts: [], contractLogs: [], addresses: [], chainHealth: {} }));

describe('the events the stages read', () => {
  it('reads, for a balance rule alone, the events of the successful transactions that carry more than their listing', () => {
    expect(transactionsNeedingEvents(block, balances).map((t) => t.txIndex)).toEqual([0]);
    expect(transactionReads(block, balances)).toEqual([{ txId: txId(0), eventCount: 2, events: true }]);
    expect(transactionsNeedingEvents(block, nothing)).toEqual([]);
  });

  it('asks the balance stage, not its alert kind: without the stage no event is read, with it and no kind they are', () => {
    expect(balanceThresholdKind.chain).not.toHaveProperty('needsEvents');
    expect(balanceThresholdKind.chain.reads).toEqual({});
    expect(transactionsNeedingEvents(block, balances, chainKindList, [])).toEqual([]);
    expect(transactionsNeedingEvents(block, balances, [], BLOCK_STAGES).map((t) => t.txIndex)).toEqual([0]);
    expect(stageEventWants(nothing)).toEqual([]);
  });

  it("counts the stage's event reads in the block scan's estimate", () => {
    expect(blockScanCost(10, balances, false)).toBeGreaterThan(blockScanCost(10, nothing, false));
  });
});
