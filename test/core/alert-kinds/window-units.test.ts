// A sum window's alert speaks in the units of the rule it adds up: "sum 10,250 STX (at least 10,000 STX)" in
// every rendering (subject, email, SMS, terminal, chat), exactly, while its JSON keeps the base units for
// machines. The unit is settled when the windows compile: the one `atLeast` names, else the summed rule's
// asset's (STX, a token whose decimals are known), else none (base units, as for a printed value).
import { describe, expect, it } from 'vitest';
import type { WindowThresholdAlert } from '../../../lambda/core/alert-kinds/window-threshold';
import { windowThresholdKind } from '../../../lambda/core/alert-kinds/window-threshold';
import { windowsList } from '../../../lambda/core/rules/window-rules';
import type { ChainAlert } from '../../../lambda/core/alert-kinds/alert';
import type { BlockHeader } from '../../../lambda/core/domain';
import { advanceWindows } from '../../../lambda/core/stages/window-stage';
import { renderEmail, renderSms, renderSubject, renderTerminal } from '../../../lambda/core/render';
import { chatView } from '../../../lambda/channels/chat-view';
import { parseWatchConfig } from '../../../lambda/config/watch-config';
import { fakeAddress, fakeContractId } from '../../support/fake-hiro';

const SBTC = 'SM3VDXK3WZZSA84XXFKAFAF15NNZX32CTSG82JFQ4.sbtc-token::sbtc-token';
const treasury = fakeAddress('treasury');
const vault = fakeContractId('vault');

const sample = windowThresholdKind.sample;
const window = (extra: Partial<WindowThresholdAlert>): WindowThresholdAlert => ({ ...sample, ...extra });

/** Every human rendering of an alert, one text. */
function everyRendering(alert: WindowThresholdAlert): string[] {
  const chat = chatView(alert);
  return [renderSubject(alert), renderEmail(alert), renderSms(alert), renderTerminal(alert), chat.title + chat.fields.map(([, value]) => value).join('\n')];
}

describe('a sum window alert in the units of what it adds up', () => {
  it("says an STX window's sum and threshold in STX, exactly, in every rendering, and keeps base units in its JSON", () => {
    const alert = window({ sum: '10250000000', threshold: '10000000000', unit: 'STX', decimals: 6 });
    for (const text of everyRendering(alert)) {
      expect(text).toContain('10,250 STX');
      expect(text).not.toContain('10,250,000,000');
    }
    for (const text of [renderEmail(alert), renderTerminal(alert)]) expect(text).toContain('at least 10,000 STX');
    expect(JSON.parse(JSON.stringify(alert))).toMatchObject({ sum: '10250000000', threshold: '10000000000', unit: 'STX', decimals: 6 });
  });

  it("says a token window in the token's units down to its last base unit, and STX past 2^53 without losing a digit", () => {
    const sbtc = window({ sum: '50000001', threshold: '50000000', unit: 'sBTC', decimals: 8 });
    for (const text of everyRendering(sbtc)) expect(text).toContain('0.50000001 sBTC');
    const huge = window({ sum: '10000000000000000001', threshold: '10000000000000000000', unit: 'STX', decimals: 6 });
    for (const text of everyRendering(huge)) expect(text).toContain('10,000,000,000,000.000001 STX');
  });

  it('says a window without a unit (a printed value, an alert stored before units) in base units, as before', () => {
    const alert = window({ sum: '1200000000000', threshold: '1000000000000', unit: null, decimals: null });
    expect(renderSubject(alert)).toContain('sum 1,200,000,000,000 of');
    const { unit: _unit, decimals: _decimals, ...stored } = alert;
    expect(renderSubject(stored as WindowThresholdAlert)).toContain('sum 1,200,000,000,000 of');
  });
});

const header = { height: 9, hash: '0x09', parentHash: '0x08', time: 1_750_000_000 } as BlockHeader;
const outflow = (rule: string, amount: string) => ({ type: 'token_transfer', key: `k-${rule}`, rule, tx_id: '0xaa', amount }) as unknown as ChainAlert;

/** The windows of a config, compiled, and the alert each raises on one match of `amount`. */
function crossings(config: Record<string, unknown>, amount: string) {
  const parsed = parseWatchConfig({ network: 'mainnet', ...config });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  const compiled = windowsList.compile(parsed.config);
  const matches = compiled.windows.map((w) => outflow(w.of, amount));
  return advanceWindows(compiled, undefined, header, matches, 'mainnet').alerts.map((a) => ({
    window: a.rule,
    unit: a.unit,
    decimals: a.decimals,
    sum: a.sum,
  }));
}

describe('the unit a sum window speaks in', () => {
  it('is the asset of the transfer rule it adds up (STX, a known token), whether atLeast names a unit or not', () => {
    const config = {
      transfers: [
        { name: 'stx out', asset: 'stx', from: [treasury] },
        { name: 'sbtc out', asset: SBTC, from: [treasury] },
      ],
      windows: [
        { name: 'stx base', of: 'stx out', minutes: 10, sum: 'amount', atLeast: '1000' },
        { name: 'stx unit', of: 'stx out', minutes: 10, sum: 'amount', atLeast: '0.001 STX' },
        { name: 'sbtc base', of: 'sbtc out', minutes: 10, sum: 'amount', atLeast: '1000' },
      ],
    };
    expect(crossings(config, '5000')).toEqual([
      { window: 'stx base', unit: 'STX', decimals: 6, sum: '5000' },
      { window: 'stx unit', unit: 'STX', decimals: 6, sum: '5000' },
      { window: 'sbtc base', unit: 'sBTC', decimals: 8, sum: '5000' },
    ]);
  });

  it('is the unit atLeast names when it names one, STX for an address rule, and none for a printed value in base units', () => {
    const config = {
      addressesRule: { name: 'arrivals' },
      addresses: [treasury],
      transfers: [{ name: 'stx out', asset: 'stx', from: [treasury] }],
      contractLogs: [{ name: 'prints', contractId: vault }],
      windows: [
        { name: 'in uSTX', of: 'stx out', minutes: 10, sum: 'amount', atLeast: '1000 uSTX' },
        { name: 'arriving', of: 'arrivals', minutes: 10, sum: 'amount', atLeast: '1000' },
        { name: 'printed', of: 'prints', minutes: 10, sum: 'amount', atLeast: '1000' },
        { name: 'printed sats', of: 'prints', minutes: 10, sum: 'amount', atLeast: '1000 sats' },
      ],
    };
    const log = (rule: string) => ({ type: 'contract_log', key: `k-${rule}`, rule, tx_id: '0xbb', value: { amount: '5000' } }) as unknown as ChainAlert;
    const parsed = parseWatchConfig({ network: 'mainnet', ...config });
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
    const compiled = windowsList.compile(parsed.config);
    const matches = [outflow('stx out', '5000'), outflow('arrivals', '5000'), log('prints')];
    const alerts = advanceWindows(compiled, undefined, header, matches, 'mainnet').alerts;
    expect(alerts.map((a) => [a.rule, a.unit, a.decimals])).toEqual([
      ['in uSTX', 'uSTX', 0],
      ['arriving', 'STX', 6],
      ['printed', null, null],
      ['printed sats', 'sats', 0],
    ]);
  });

  it("is none when the rules it adds up count in different assets (base units then, never one asset's scale on another's)", () => {
    const config = {
      transfers: [
        { name: 'out', asset: 'stx', from: [treasury] },
        { name: 'out', asset: SBTC, from: [treasury] },
      ],
      windows: [{ name: 'mixed', of: 'out', minutes: 10, sum: 'amount', atLeast: '1000' }],
    };
    expect(crossings(config, '5000')).toEqual([{ window: 'mixed', unit: null, decimals: null, sum: '5000' }]);
  });

  it('leaves a count window without a unit', () => {
    const config = { transfers: [{ name: 'stx out', asset: 'stx', from: [treasury] }], windows: [{ name: 'many', of: 'stx out', minutes: 60, count: 1 }] };
    expect(crossings(config, '5000')).toEqual([{ window: 'many', unit: null, decimals: null, sum: null }]);
  });
});
