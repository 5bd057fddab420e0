// A rule's name leads every short form of its alerts (subject, SMS, terminal line), for every kind alike,
// within the same limits; a default name is not shown, as it only repeats what the alert says.
import { describe, expect, it } from 'vitest';
import type { Alert } from '../../lambda/core/alert-kinds/alert';
import type { ContractLogRule } from '../../lambda/core/rules/contract-log-rules';
import { alertKinds } from '../../lambda/core/alert-kinds/registry';
import { isGsm7, renderEmail, renderSms, renderSubject, renderTerminal, smsLength } from '../../lambda/core/render';
import { compileWatchRules } from '../../lambda/core/rules/rule-lists';
import { contractLogKind } from '../../lambda/core/alert-kinds/contract-log';
import { config, TOKEN } from '../core/harness';

const samples = Object.values(alertKinds).map((kind) => kind.sample as Alert);
const named = (alert: Alert, rule: string): Alert => ({ ...alert, rule, severity: 'critical' });
const LONGEST_NAME = 'Treasury outflow over the weekly limit, page on-call at once!'.slice(0, 60);

describe('named alerts in every form', () => {
  it.each(samples.map((s) => [s.type, s] as const))(
    '%s: the name first in the subject and SMS, right after the severity in the terminal line',
    (_type, sample) => {
      const alert = named(sample, 'Treasury outflow');
      expect(renderSubject(alert)).toMatch(/^\[stacks-watch\] Treasury outflow: /);
      // The brand leads only an SMS without an explorer link to say where it is from.
      expect(renderSms(alert)).toMatch(/^(stacks-watch: )?Treasury outflow: /);
      expect(renderTerminal(alert).split('\n')[0]).toBe(`${alert.severity!.toUpperCase().padEnd(8)} ${renderSubject(alert).replace('[stacks-watch] ', '')}`);
      expect(renderEmail(alert)).toContain('Rule: Treasury outflow, severity critical');
    },
  );

  it.each(samples.map((s) => [s.type, s] as const))(
    '%s: a 60-character name keeps the subject one ASCII line under 100 and the SMS one message',
    (_type, sample) => {
      const alert = named(sample, `${LONGEST_NAME} ✓ é`);
      const subject = renderSubject(alert);
      expect(subject).toMatch(/^[\x20-\x7e]+$/);
      expect(subject.length).toBeLessThan(100);
      const sms = renderSms(alert);
      expect(isGsm7(sms)).toBe(true);
      expect(smsLength(sms).units).toBeLessThanOrEqual(160);
    },
  );

  it('shows no default name: it would only repeat the alert', () => {
    const alert = contractLogKind.sample;
    expect(alert.rule).toBe(`contractLogs:${alert.contract_id}`);
    expect(renderSubject(alert)).toBe('[stacks-watch] print from arkadiko-token (block 182,345)');
    expect(renderSms(alert)).toMatch(/^print from arkadiko-token/);
  });

  it('strips invisible characters from a name', () => {
    expect(renderSubject(named(contractLogKind.sample, 'Mint\u202e\u200b alarm'))).toMatch(/^\[stacks-watch\] Mint alarm: /);
  });
});

describe('which rule an event carries when several match', () => {
  const match = (rules: ContractLogRule[]) =>
    contractLogKind.chain.match({
      block: {
        header: { height: 5, hash: '0xb', parentHash: '0xa', time: 1, txCount: 1 },
        transactions: [{ txId: '0x1', txIndex: 0, txType: 'contract_call', txStatus: 'success', sender: 'SP1', eventCount: 1 }],
      },
      events: new Map([
        ['0x1', { txId: '0x1', logs: [{ eventIndex: 0, contractId: TOKEN, topic: 'print', valueHex: '0x', valueRepr: '(op "mint")' }], assets: [] }],
      ]),
      rules: compileWatchRules(config({ contractLogs: rules })),
      network: 'mainnet',
    });

  it('alerts once, carrying the most severe matching rule', () => {
    const found = match([
      { contractId: TOKEN, name: 'All token logs', severity: 'info' },
      { contractId: TOKEN, contains: 'mint', name: 'Mint', severity: 'critical' },
      { contractId: TOKEN, contains: 'op', name: 'Ops', severity: 'critical' },
    ]);
    expect(found.map((m) => [m.alert.rule, m.alert.severity])).toEqual([['Mint', 'critical']]);
  });

  it('carries the first in config order among equally severe rules, and the defaults when none is named', () => {
    expect(
      match([
        { contractId: TOKEN, contains: 'op', name: 'Ops' },
        { contractId: TOKEN, name: 'All' },
      ])[0]!.alert,
    ).toMatchObject({ rule: 'Ops', severity: 'warning' });
    expect(match([{ contractId: TOKEN, contains: 'mint' }])[0]!.alert).toMatchObject({
      rule: `contractLogs:${TOKEN} contains "mint"`,
      severity: 'warning',
    });
  });
});
