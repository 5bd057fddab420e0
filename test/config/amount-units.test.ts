// Amounts as people write them: "10,000 STX", "0.5 sBTC", "2500000 uSTX", read exactly into base units with
// the asset's decimals; a unit that is not the asset's is refused, and base units alone keep working.
import { describe, expect, it } from 'vitest';
import { parseWatchConfig, type ConfigProblem } from '../../lambda/config/watch-config';
import { MAINNET } from './principals';

const SBTC = 'SM3VDXK3WZZSA84XXFKAFAF15NNZX32CTSG82JFQ4.sbtc-token::sbtc-token';
const DIKO = 'SP2C2YFP12AJZB4MABJBAJ55XECVS7E4PMMZ89YZR.arkadiko-token::diko';

function transfer(extra: Record<string, unknown>) {
  const result = parseWatchConfig({ network: 'mainnet', transfers: [{ asset: 'stx', to: [MAINNET.alex], ...extra }] });
  return result.ok ? { rule: result.config.transfers[0]!, problems: [] as string[] } : { rule: undefined, problems: result.problems.map(say) };
}

function balance(extra: Record<string, unknown>) {
  const result = parseWatchConfig({ network: 'mainnet', balances: [{ address: MAINNET.alex, asset: 'stx', ...extra }] });
  return result.ok ? { rule: result.config.balances[0]!, problems: [] as string[] } : { rule: undefined, problems: result.problems.map(say) };
}

const say = (p: ConfigProblem) => `${p.path}: ${p.message}`;

describe('amounts written with their unit', () => {
  it.each([
    ['10,000 STX', '10000000000'],
    ['10000 STX', '10000000000'],
    ['0.5 STX', '500000'],
    ['1.000001 stx', '1000001'],
    ['2500000 uSTX', '2500000'],
    ['2,500,000 microSTX', '2500000'],
    ['123,456,789,012,345,678.123456 STX', '123456789012345678123456'],
    ['50000000', '50000000'],
    [50000000, '50000000'],
  ] as const)('reads %j on an STX rule as %s micro-STX, exactly', (written, base) => {
    expect(transfer({ minAmount: written }).rule).toMatchObject({ minAmount: base });
    expect(balance({ below: written }).rule).toMatchObject({ below: base });
  });

  it('reads a known token in its symbol or its smallest unit, and takes its decimals and symbol for the wording', () => {
    expect(transfer({ asset: SBTC, minAmount: '0.5 sBTC' }).rule).toMatchObject({
      minAmount: '50000000',
      decimals: 8,
      symbol: 'sBTC',
      amountUnits: { minAmount: 'sBTC' },
    });
    expect(transfer({ asset: SBTC, minAmount: '21,000 sats' }).rule).toMatchObject({ minAmount: '21000' });
    expect(balance({ asset: SBTC, below: '1 sBTC', above: '25 sBTC' }).rule).toMatchObject({
      below: '100000000',
      above: '2500000000',
      decimals: 8,
      symbol: 'sBTC',
    });
  });

  it('reads any other token with the decimals its rule gives, in its symbol or its name', () => {
    expect(transfer({ asset: DIKO, minAmount: '1,500.25 DIKO', decimals: 6, symbol: 'DIKO' }).rule).toMatchObject({ minAmount: '1500250000' });
    expect(transfer({ asset: DIKO, minAmount: '2 diko', decimals: 6 }).rule).toMatchObject({ minAmount: '2000000' });
  });

  it('keeps base units as the rule states them, without a unit recorded', () => {
    const { rule } = transfer({ minAmount: '100' });
    expect(rule).toMatchObject({ minAmount: '100' });
    expect(rule).not.toHaveProperty('amountUnits');
  });

  it("refuses a unit that is not the asset's, naming the ones that are", () => {
    expect(transfer({ minAmount: '0.5 sBTC' }).problems).toEqual([
      '$.transfers[0].minAmount: names "sBTC", which is not a unit of STX: write "STX", "uSTX", "microSTX", or base units without a unit',
    ]);
    expect(balance({ asset: SBTC, below: '10 STX' }).problems).toEqual([
      '$.balances[0].below: names "STX", which is not a unit of sBTC: write "sBTC", "sbtc-token", "sats", or base units without a unit',
    ]);
  });

  it('refuses a unit on "*", whose assets each count in their own', () => {
    expect(transfer({ asset: '*', minAmount: '100 STX' }).problems).toEqual([
      expect.stringMatching(/^\$\.transfers\[0\]\.minAmount: has a unit, but "asset": "\*" matches every asset/),
    ]);
  });

  it('refuses a token unit when the decimals are not known, saying what to give', () => {
    expect(transfer({ asset: DIKO, minAmount: '100 DIKO' }).problems).toEqual([
      '$.transfers[0].minAmount: needs the token\'s decimals to read "DIKO": give "decimals" (and "symbol") in the rule, or write base units without a unit',
    ]);
  });

  it('refuses a fraction finer than the asset counts', () => {
    expect(transfer({ minAmount: '0.0000001 STX' }).problems).toEqual([
      '$.transfers[0].minAmount: is finer than STX counts: STX has 6 decimals, so the smallest amount is 0.000001 STX',
    ]);
    expect(transfer({ minAmount: '1.5 uSTX' }).problems).toEqual([expect.stringContaining('the smallest amount is 1 uSTX')]);
  });

  it('asks for the unit of a number written with commas or a fraction', () => {
    expect(transfer({ minAmount: '10,000' }).problems).toEqual([
      '$.transfers[0].minAmount: needs its unit after it, e.g. "10,000 STX": without one an amount is a whole number of base units, written without commas',
    ]);
    expect(transfer({ minAmount: 1.5 }).problems).toEqual([expect.stringContaining('must be an amount with its unit, e.g. "10,000 STX"')]);
    expect(transfer({ minAmount: 'lots' }).problems).toEqual([expect.stringContaining('must be an amount with its unit')]);
    expect(transfer({ minAmount: '-5 STX' }).problems).toHaveLength(1);
  });

  it('compares below and above in base units, whichever way each is written', () => {
    expect(balance({ below: '60 STX', above: '50000000' }).problems).toEqual([
      expect.stringMatching(/^\$\.balances\[0\]\.below: must not be more than "above"/),
    ]);
    expect(balance({ below: '40 STX', above: '50000000' }).problems).toEqual([]);
  });
});

describe('amounts with a unit in a where comparison on a printed uint', () => {
  const VAULT = 'SP2C2YFP12AJZB4MABJBAJ55XECVS7E4PMMZ89YZR.vault';
  const logs = (rule: Record<string, unknown>) => parseWatchConfig({ network: 'mainnet', contractLogs: [{ contractId: VAULT, ...rule }] });
  const problemsOf = (rule: Record<string, unknown>) => {
    const result = logs(rule);
    return result.ok ? [] : result.problems.map(say);
  };

  it("takes STX, uSTX and the known tokens' units, and keeps the condition as written", () => {
    const where = { amount: { gte: '1,000,000 STX', lt: '2500000 uSTX' }, fee: { lte: '0.5 sBTC' }, sats: { gt: '21,000 sats' } };
    expect(logs({ where })).toMatchObject({ ok: true, config: { contractLogs: [{ where }] } });
  });

  it("takes the unit of the rule's own token when the rule gives its decimals and symbol", () => {
    expect(problemsOf({ decimals: 6, symbol: 'DIKO', where: { amount: { gte: '1,500.5 DIKO' } } })).toEqual([]);
  });

  it('refuses a unit it cannot scale, saying what the rule needs', () => {
    expect(problemsOf({ where: { amount: { gte: '100 DIKO' } } })).toEqual([
      '$.contractLogs[0].where.amount.gte: "gte" names "DIKO", a unit the watcher does not know: give the rule "decimals" and "symbol": "DIKO" (the token\'s), or write base units',
    ]);
    expect(problemsOf({ decimals: 6, where: { amount: { gte: '1 STX' } } })).toEqual([
      expect.stringMatching(/^\$\.contractLogs\[0\]\.symbol: goes with "decimals" and "symbol" both/),
    ]);
    expect(problemsOf({ where: { amount: { gte: '0.0000001 STX' } } })).toEqual([expect.stringContaining('"gte" is finer than STX counts')]);
  });
});

describe("a sum window's atLeast with a unit, read for the rule it adds up", () => {
  const outflows = { name: 'outflows', asset: 'stx', from: [MAINNET.alex], alert: false };
  const windowOf = (rules: Record<string, unknown>, atLeast: unknown) =>
    parseWatchConfig({ network: 'mainnet', ...rules, windows: [{ name: 'drain', of: 'outflows', minutes: 60, sum: 'amount', atLeast }] });

  it("scales it by the summed rule's asset when the windows compile, and keeps it as written for --check", async () => {
    const { compileWatchRules } = await import('../../lambda/core/rules/rule-lists');
    const result = windowOf({ transfers: [outflows] }, '10,000 STX');
    expect(result).toMatchObject({ ok: true, config: { windows: [{ atLeast: '10,000 STX' }] } });
    if (result.ok) expect(compileWatchRules(result.config).windows.windows[0]!.threshold).toBe(10_000_000_000n);
    const sbtc = windowOf({ transfers: [{ ...outflows, asset: SBTC }] }, '0.5 sBTC');
    if (sbtc.ok) expect(compileWatchRules(sbtc.config).windows.windows[0]!.threshold).toBe(50_000_000n);
    else throw new Error(JSON.stringify(sbtc.problems));
  });

  it("refuses a unit that is not the summed rule's asset's, at the window's atLeast", () => {
    const result = windowOf({ transfers: [outflows] }, '1 sBTC');
    expect(result.ok ? [] : result.problems.map(say)).toEqual([
      '$.windows[0].atLeast: names "sBTC", which is not a unit of STX: write "STX", "uSTX", "microSTX", or base units without a unit',
    ]);
  });
});

describe('alerts of a rule whose amount was written in a token unit', () => {
  it("read in that token's units: the rule carries the decimals and symbol the unit implies", async () => {
    const { compileWatchRules } = await import('../../lambda/core/rules/rule-lists');
    const { tokenDisplay } = await import('../../lambda/core/alert-kinds/asset-moves');
    const { formatTokenAmount } = await import('../../lambda/core/render/token-amount');
    const result = parseWatchConfig({ network: 'mainnet', transfers: [{ asset: SBTC, to: [MAINNET.alex], minAmount: '0.5 sBTC' }] });
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    const display = tokenDisplay(compileWatchRules(result.config), SBTC);
    expect(display).toEqual({ decimals: 8, symbol: 'sBTC' });
    expect(formatTokenAmount('75000000', display.decimals, display.symbol, SBTC)).toBe('0.75 sBTC');
  });
});
