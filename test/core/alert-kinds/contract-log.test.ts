import { describe, expect, it } from 'vitest';
import type { Block, ContractLogEvent, Transaction, TxEvents } from '../../../lambda/core/domain';
import { contractLogKind } from '../../../lambda/core/alert-kinds/contract-log';
import { filterAttributes } from '../../../lambda/core/alert-kinds/registry';
import { renderTerminal } from '../../../lambda/core/render';
import { compileWatchRules } from '../../../lambda/core/rules/rule-lists';
import { config, OTHER, ROUTER, TOKEN } from '../harness';

const TX = `0x${'ab'.repeat(32)}`;
const header = { height: 182345, hash: `0x${'cd'.repeat(32)}`, parentHash: `0x${'ef'.repeat(32)}`, time: 1714564800, txCount: 1 };

const call = (over: Partial<Transaction> = {}): Transaction => ({
  txId: TX,
  txIndex: 4,
  txType: 'contract_call',
  txStatus: 'success',
  sender: OTHER,
  eventCount: 3,
  contractId: ROUTER,
  ...over,
});
const log = (eventIndex: number, valueRepr: string, contractId = TOKEN): ContractLogEvent => ({
  eventIndex,
  contractId,
  topic: 'print',
  valueHex: '0x0c',
  valueRepr,
});

function match(tx: Transaction, logs: ContractLogEvent[], cfg = config()) {
  const events = new Map<string, TxEvents>([[tx.txId, { txId: tx.txId, logs, assets: [] }]]);
  const block: Block = { header, transactions: [tx] };
  return contractLogKind.chain.match({ block, events, rules: compileWatchRules(cfg), network: 'mainnet' });
}

describe('contract_log kind', () => {
  it("matches a watched contract's log reached through another contract, at its event position", () => {
    expect(match(call(), [log(2, '(tuple (op "mint"))'), log(1, 'u1', ROUTER)])).toEqual([
      {
        at: { txIndex: 4, eventIndex: 2 },
        alert: {
          type: 'contract_log',
          key: `contract_log:${TX}:2`,
          network: 'mainnet',
          tx_id: TX,
          block_height: 182345,
          block_hash: header.hash,
          block_time: 1714564800,
          event_index: 2,
          contract_id: TOKEN,
          topic: 'print',
          value_repr: '(tuple (op "mint"))',
          value_hex: '0x0c',
          rule: `contractLogs:${TOKEN}`,
          severity: 'warning',
        },
      },
    ]);
  });

  it('keeps a log when any rule on its contract matches its repr', () => {
    const cfg = config({
      contractLogs: [
        { contractId: TOKEN, contains: 'burn' },
        { contractId: TOKEN, contains: 'mint' },
      ],
    });
    expect(match(call(), [log(0, '(op "mint")'), log(1, '(op "swap")')], cfg).map((m) => m.alert.event_index)).toEqual([0]);
  });

  it("never alerts a failed transaction's logs", () => {
    expect(match(call({ txStatus: 'abort_by_response' }), [log(0, 'u1')])).toEqual([]);
  });

  it('needs the events of successful contract calls and deploys with events, only when logs are watched', () => {
    const rules = compileWatchRules(config());
    expect(contractLogKind.chain.needsEvents(call(), rules)).toBe(true);
    expect(contractLogKind.chain.needsEvents(call({ txType: 'smart_contract' }), rules)).toBe(true);
    expect(contractLogKind.chain.needsEvents(call({ eventCount: 0 }), rules)).toBe(false);
    expect(contractLogKind.chain.needsEvents(call({ txStatus: 'abort_by_response' }), rules)).toBe(false);
    expect(contractLogKind.chain.needsEvents(call({ txType: 'token_transfer' }), rules)).toBe(false);
    expect(contractLogKind.chain.needsEvents(call(), compileWatchRules(config({ contractLogs: [] })))).toBe(false);
  });

  it('is filtered on the printing contract as `contract_id`', () => {
    const { sample } = contractLogKind;
    expect(filterAttributes(sample)).toEqual({
      type: 'contract_log',
      network: 'mainnet',
      rule: sample.rule,
      severity: 'warning',
      contract_id: sample.contract_id,
    });
  });

  it('reads at a terminal as the contract, the value as fields when it is a tuple, and the event, then the link', () => {
    expect(renderTerminal(contractLogKind.sample)).toBe(
      [
        'WARNING  print from arkadiko-token (block 182,345)',
        '  Contract: SP2C2YFP12AJZB4MABJBAJ55XECVS7E4PMMZ89YZR.arkadiko-token',
        '  Value:    action: mint, amount: 1,000,000',
        '  Event:    #3 in block 182,345 at 2024-05-01T12:00:00Z',
        `  https://explorer.hiro.so/txid/${contractLogKind.sample.tx_id}?chain=mainnet`,
        '',
      ].join('\n'),
    );
    const notTuple = { ...contractLogKind.sample, value: '5', value_repr: 'u5', value_hex: '0x0100000000000000000000000000000005' };
    expect(renderTerminal(notTuple)).toContain('  Value:    u5\n');
  });

  it('caps a long value at a terminal', () => {
    const block = renderTerminal({ ...contractLogKind.sample, value_repr: `(buff ${'a'.repeat(50_000)})` });
    expect(block.length).toBeLessThan(700);
  });
});
