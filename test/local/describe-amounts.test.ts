// `--check` says each amount in the unit it was written in, and warns of a bare STX amount under 1 STX,
// the likeliest slip (a number meant in STX, read as micro-STX).
import { describe, expect, it } from 'vitest';
import { parseWatchConfig } from '../../lambda/config/watch-config';
import { describeWatch } from '../../lambda/local/describe';
import { bareAmountWarnings } from '../../lambda/core/watch-config/amount-warnings';

const api = { baseUrl: 'https://api.hiro.so', fromEnvironment: false, requestsPerMinute: 50, hasKey: false };
const ALICE = 'SP2C2YFP12AJZB4MABJBAJ55XECVS7E4PMMZ89YZR';
const SBTC = 'SM3VDXK3WZZSA84XXFKAFAF15NNZX32CTSG82JFQ4.sbtc-token::sbtc-token';

function check(input: Record<string, unknown>): string {
  const result = parseWatchConfig({ network: 'mainnet', ...input });
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return describeWatch(result.config, api, 'watch.json');
}

describe('--check and amounts written with a unit', () => {
  it('says a transfer threshold in the unit it was written in', () => {
    expect(check({ transfers: [{ asset: 'stx', to: [ALICE], minAmount: '10,000 STX' }] })).toContain('(at least 10,000 STX; transfer, mint, burn)');
    expect(check({ transfers: [{ asset: 'stx', to: [ALICE], minAmount: '2500000 uSTX' }] })).toContain('(at least 2,500,000 uSTX; ');
    expect(check({ transfers: [{ asset: SBTC, to: [ALICE], minAmount: '0.5 sBTC' }] })).toContain('(at least 0.5 sBTC; ');
  });

  it('says a balance threshold in the unit it was written in', () => {
    expect(check({ balances: [{ address: ALICE, asset: SBTC, below: '1 sBTC', above: '2,500,000,000 sats' }] })).toContain(
      `${SBTC} of ${ALICE} below 1 sBTC or above 2,500,000,000 sats`,
    );
  });

  it('keeps the base units beside the STX of a threshold written without a unit', () => {
    expect(check({ transfers: [{ asset: 'stx', to: [ALICE], minAmount: '100000000' }] })).toContain('(at least 100000000 base units = 100 STX; ');
  });
});

describe('a bare STX amount under 1 STX', () => {
  it('is warned of in --check, with the amount probably meant', () => {
    const text = check({ balances: [{ address: ALICE, asset: 'stx', below: 10000 }] });
    expect(text).toContain(
      'warning: $.balances[0].below is 10000 without a unit, so 10000 micro-STX (0.01 STX): did you mean "10,000 STX"? Write the unit to say which ("10000 uSTX" keeps it as it is)',
    );
  });

  it("is warned of in a sum window over an STX rule, at the window's atLeast", () => {
    const text = check({
      transfers: [{ name: 'outflows', asset: 'stx', from: [ALICE] }],
      windows: [{ name: 'drain', of: 'outflows', minutes: 60, sum: 'amount', atLeast: '5000' }],
    });
    expect(text).toContain('warning: $.windows[0].atLeast is 5000 without a unit, so 5000 micro-STX (0.005 STX): did you mean "5,000 STX"?');
  });

  it('is not warned of when written with a unit, at 1 STX or more, or at 0, or on a token', () => {
    const config = (rules: unknown[]) => {
      const result = parseWatchConfig({ network: 'mainnet', transfers: rules });
      if (!result.ok) throw new Error(JSON.stringify(result.problems));
      return result.config as unknown as Record<string, unknown>;
    };
    expect(bareAmountWarnings(config([{ asset: 'stx', to: [ALICE], minAmount: '10000 uSTX' }]))).toEqual([]);
    expect(bareAmountWarnings(config([{ asset: 'stx', to: [ALICE], minAmount: '1000000' }]))).toEqual([]);
    expect(bareAmountWarnings(config([{ asset: 'stx', to: [ALICE], minAmount: 0 }]))).toEqual([]);
    expect(bareAmountWarnings(config([{ asset: SBTC, to: [ALICE], minAmount: '5000' }]))).toEqual([]);
    expect(bareAmountWarnings(config([{ asset: 'stx', to: [ALICE], minAmount: '999999' }]))).toHaveLength(1);
  });
});
