import { describe, expect, it } from 'vitest';
import type { Block, Transaction } from '../../../lambda/core/domain';
import type { ContractCallRule } from '../../../lambda/core/rules/contract-call-rules';
import { contractCallKind } from '../../../lambda/core/alert-kinds/contract-call';
import { filterAttributes } from '../../../lambda/core/alert-kinds/registry';
import { blockAlerts, transactionsNeedingEvents } from '../../../lambda/core/match/block-alerts';
import { renderEmail, renderTerminal } from '../../../lambda/core/render';
import { compileWatchRules } from '../../../lambda/core/rules/rule-lists';
import { config, OTHER, ROUTER, TOKEN, WATCHED } from '../harness';

const header = { height: 182345, hash: `0x${'cd'.repeat(32)}`, parentHash: `0x${'ef'.repeat(32)}`, time: 1714564800, txCount: 4 };
const txId = (n: number) => `0x${String(n).padStart(2, '0').repeat(32)}`;

function call(n: number, over: Partial<Transaction> & { functionName?: string } = {}): Transaction {
  const { functionName = 'withdraw', ...rest } = over;
  return {
    txId: txId(n),
    txIndex: n,
    txType: 'contract_call',
    txStatus: 'success',
    sender: WATCHED,
    eventCount: 0,
    contractId: TOKEN,
    contractCall: { functionName, args: ['u100', `'${OTHER}`], resultRepr: '(ok true)' },
    ...rest,
  };
}

const statuses: [string, string][] = [
  ['success', '(ok true)'],
  ['abort_by_response', '(err u102)'],
  ['abort_by_post_condition', '(ok true)'],
];
const block: Block = {
  header,
  transactions: statuses.map(([txStatus, resultRepr], i) => call(i, { txStatus, contractCall: { functionName: 'withdraw', args: ['u100'], resultRepr } })),
};

function matchedKeys(rules: ContractCallRule[], b: Block = block): string[] {
  return contractCallKind.chain
    .match({ block: b, events: new Map(), rules: compileWatchRules(config({ contractLogs: [], addresses: [], calls: rules })), network: 'mainnet' })
    .map((m) => m.alert.key);
}

describe('contract_call kind', () => {
  it.each([
    ['success', [0]],
    ['failed', [1, 2]],
    ['any', [0, 1, 2]],
  ] as const)('status %s: alerts the calls with that outcome', (status, expected) => {
    expect(matchedKeys([{ contractId: TOKEN, status }])).toEqual(expected.map((n) => `contract_call:${txId(n)}`));
  });

  it('filters on the function called and on the sender', () => {
    const b: Block = { header, transactions: [call(0), call(1, { functionName: 'deposit' }), call(2, { sender: OTHER })] };
    expect(matchedKeys([{ contractId: TOKEN, status: 'any', functions: ['withdraw'] }], b)).toEqual([`contract_call:${txId(0)}`, `contract_call:${txId(2)}`]);
    expect(matchedKeys([{ contractId: TOKEN, status: 'any', from: [OTHER] }], b)).toEqual([`contract_call:${txId(2)}`]);
    expect(matchedKeys([{ contractId: TOKEN, status: 'any', functions: ['deposit'], from: [OTHER] }], b)).toEqual([]);
  });

  it('alerts only calls to the watched contract itself, not other transactions', () => {
    const b: Block = {
      header,
      transactions: [
        call(0, { contractId: ROUTER }),
        { ...call(1), txType: 'smart_contract' },
        { txId: txId(2), txIndex: 2, txType: 'token_transfer', txStatus: 'success', sender: WATCHED, eventCount: 1 },
      ],
    };
    expect(matchedKeys([{ contractId: TOKEN, status: 'any' }], b)).toEqual([]);
  });

  it('alerts a call meeting several rules once, with its function, arguments and result', () => {
    const alerts = blockAlerts(
      block,
      new Map(),
      compileWatchRules(
        config({
          contractLogs: [],
          addresses: [],
          calls: [
            { contractId: TOKEN, status: 'failed' },
            { contractId: TOKEN, status: 'any', functions: ['withdraw'], name: 'Withdrawal', severity: 'critical' },
          ],
        }),
      ),
      'mainnet',
    );
    expect(alerts.map((a) => a.key)).toEqual([0, 1, 2].map((n) => `contract_call:${txId(n)}`));
    expect(alerts[1]).toEqual({
      type: 'contract_call',
      key: `contract_call:${txId(1)}`,
      network: 'mainnet',
      tx_id: txId(1),
      block_height: 182345,
      block_hash: header.hash,
      block_time: 1714564800,
      contract_id: TOKEN,
      function_name: 'withdraw',
      sender: WATCHED,
      tx_status: 'abort_by_response',
      args: ['u100'],
      result_repr: '(err u102)',
      // Both rules match; the more severe one names the alert.
      rule: 'Withdrawal',
      severity: 'critical',
    });
  });

  it("needs no events: everything is in the block's transaction list", () => {
    const rules = compileWatchRules(config({ contractLogs: [], calls: [{ contractId: TOKEN, status: 'any' }] }));
    expect(transactionsNeedingEvents(block, rules)).toEqual([]);
  });

  it('reads as the call, its outcome, arguments and result', () => {
    const { sample } = contractCallKind;
    expect(renderTerminal(sample)).toContain('withdraw on arkadiko-vault failed');
    expect(renderTerminal(sample)).toContain(`  Args:   1. u1000000000, 2. '${sample.sender}`);
    expect(renderEmail(sample)).toContain(`Arguments (Clarity):\n  1. u1000000000\n  2. '${sample.sender}`);
    expect(renderEmail(sample)).toContain('Result (Clarity):\n(err u102)');
    expect(renderEmail({ ...sample, args: null, result_repr: null })).toContain('Arguments (Clarity):\n  not listed by the API');
    expect(filterAttributes(sample)).toEqual({
      type: 'contract_call',
      network: 'mainnet',
      rule: 'Vault withdrawal failed',
      severity: 'critical',
      contract_id: sample.contract_id,
    });
  });
});
