import { Cl, cvToString, serializeCV, type ClarityValue } from '@stacks/transactions';
import { describe, expect, it } from 'vitest';
import type { Block, ContractLogEvent, Transaction, TxEvents } from '../../../lambda/core/domain';
import type { ContractLogRule } from '../../../lambda/core/rules/contract-log-rules';
import { contractLogKind } from '../../../lambda/core/alert-kinds/contract-log';
import { renderEmail } from '../../../lambda/core/render';
import { compileWatchRules } from '../../../lambda/core/rules/rule-lists';
import { config, OTHER, TOKEN, WATCHED } from '../harness';

const TX = `0x${'ab'.repeat(32)}`;
const header = { height: 182345, hash: `0x${'cd'.repeat(32)}`, parentHash: `0x${'ef'.repeat(32)}`, time: 1714564800, txCount: 1 };
const tx: Transaction = { txId: TX, txIndex: 0, txType: 'contract_call', txStatus: 'success', sender: OTHER, eventCount: 3, contractId: TOKEN };

const printed = (eventIndex: number, value: ClarityValue): ContractLogEvent => ({
  eventIndex,
  contractId: TOKEN,
  topic: 'print',
  valueHex: `0x${serializeCV(value)}`,
  valueRepr: cvToString(value),
});
const withdraw = (amount: bigint, user = WATCHED) =>
  Cl.tuple({ action: Cl.stringAscii('withdraw'), amount: Cl.uint(amount), user: Cl.standardPrincipal(user) });

function matched(logs: ContractLogEvent[], contractLogs: ContractLogRule[]) {
  const events = new Map<string, TxEvents>([[TX, { txId: TX, logs, assets: [] }]]);
  const block: Block = { header, transactions: [tx] };
  return contractLogKind.chain.match({ block, events, rules: compileWatchRules(config({ contractLogs })), network: 'mainnet' }).map((m) => m.alert);
}

describe('contract_log with where conditions', () => {
  it("alerts only the logs whose decoded value meets the rule's where", () => {
    const logs = [printed(0, withdraw(5n)), printed(1, withdraw(2_000_000_000n)), printed(2, withdraw(3_000_000_000n, OTHER))];
    const rule = { contractId: TOKEN, where: { action: 'withdraw', amount: { gte: '1000000000' }, user: { in: [WATCHED] } } };
    expect(matched(logs, [rule]).map((a) => a.event_index)).toEqual([1]);
  });

  it('carries the decoded value, integers as decimal strings', () => {
    const [alert] = matched([printed(0, withdraw(2n ** 100n))], [{ contractId: TOKEN }]);
    expect(alert?.value).toEqual({ action: 'withdraw', amount: (2n ** 100n).toString(), user: WATCHED });
  });

  it('holds a rule to both its contains and its where', () => {
    const logs = [printed(0, withdraw(2_000n)), printed(1, Cl.tuple({ action: Cl.stringAscii('deposit'), amount: Cl.uint(2_000n) }))];
    expect(matched(logs, [{ contractId: TOKEN, contains: 'deposit', where: { amount: { gt: 1000 } } }]).map((a) => a.event_index)).toEqual([1]);
    expect(matched(logs, [{ contractId: TOKEN, contains: 'deposit', where: { amount: { gt: 5000 } } }])).toEqual([]);
  });

  it('alerts a log that meets several rules on its contract once', () => {
    const rules = [
      { contractId: TOKEN, where: { amount: { gte: 1 } } },
      { contractId: TOKEN, where: { action: 'withdraw' } },
      { contractId: TOKEN, contains: 'withdraw' },
    ];
    expect(matched([printed(4, withdraw(10n))], rules).map((a) => a.key)).toEqual([`contract_log:${TX}:4`]);
  });

  it('lets no where hold on a value the API sent that is not Clarity, and alerts it without a value when no where is asked', () => {
    const broken: ContractLogEvent = { eventIndex: 0, contractId: TOKEN, topic: 'print', valueHex: '0x0c', valueRepr: '(tuple)' };
    expect(matched([broken], [{ contractId: TOKEN, where: { $: { exists: true } } }])).toEqual([]);
    const [alert] = matched([broken], [{ contractId: TOKEN }]);
    expect(alert).toBeDefined();
    expect(alert).not.toHaveProperty('value');
  });

  it('shows a tuple in the email one field per line, integers with their digits grouped, then the Clarity text', () => {
    const [alert] = matched([printed(0, withdraw(2_000_000_000n))], [{ contractId: TOKEN }]);
    const email = renderEmail(alert!);
    expect(email).toContain(['Value:', '  action: withdraw', '  amount: 2,000,000,000', `  user:   ${WATCHED}`].join('\n'));
    expect(email).toContain(`Value (Clarity):\n(tuple (action "withdraw") (amount u2000000000) (user ${WATCHED}))`);
  });

  it('shows a value that is not a tuple as its Clarity text only', () => {
    const [alert] = matched([printed(0, Cl.stringAscii('paused'))], [{ contractId: TOKEN }]);
    const email = renderEmail(alert!);
    expect(email).toContain('Value (Clarity):\n"paused"');
    expect(email).not.toContain('Value:\n');
  });
});
