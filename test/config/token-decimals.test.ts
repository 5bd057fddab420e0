// A token only its metadata knows the decimals of: which tokens need reading before the config can be, and the
// config read with what was read, as if the rule had given `decimals` and `symbol` itself.
import { describe, expect, it } from 'vitest';
import { parseWatchConfig } from '../../lambda/config/watch-config';
import { tokensNeedingDecimals, withTokenDecimals } from '../../lambda/core/watch-config/token-decimals';
import { windowThreshold } from '../../lambda/core/watch-config/window-amounts';
import { MAINNET } from './principals';

const SBTC = 'SM3VDXK3WZZSA84XXFKAFAF15NNZX32CTSG82JFQ4.sbtc-token::sbtc-token';
const DIKO = 'SP2C2YFP12AJZB4MABJBAJ55XECVS7E4PMMZ89YZR.arkadiko-token::diko';
const ALEX = 'SP102V8P0F7JX67ARQ77WEA3D3CFB5XW39REDT0AM.token-alex::alex';

describe('the tokens whose decimals must be read from their metadata', () => {
  it('lists a token whose rule writes a unit with no decimals, once, and none already known', () => {
    const raw = {
      network: 'mainnet',
      balances: [
        { address: MAINNET.alex, asset: ALEX, below: '5 ALEX' },
        { address: MAINNET.arkadiko, asset: ALEX, above: '9 ALEX' },
        { address: MAINNET.alex, asset: SBTC, below: '0.5 sBTC' },
        { address: MAINNET.alex, asset: DIKO, below: '5 DIKO', decimals: 6 },
        { address: MAINNET.alex, asset: 'stx', below: '5 STX' },
      ],
      transfers: [{ asset: DIKO, to: [MAINNET.alex], minAmount: '1000' }],
    };
    expect(tokensNeedingDecimals(raw)).toEqual([ALEX]);
  });

  it('lists the token a sum window adds up with a unit, though its rule writes none', () => {
    const raw = {
      network: 'mainnet',
      transfers: [{ name: 'diko in', asset: DIKO, to: [MAINNET.alex] }],
      windows: [{ of: 'diko in', atLeast: '1,000 DIKO', minutes: 60 }],
    };
    expect(tokensNeedingDecimals(raw)).toEqual([DIKO]);
    expect(tokensNeedingDecimals({ ...raw, windows: [{ of: 'diko in', atLeast: '1000', minutes: 60 }] })).toEqual([]);
  });

  it('lists nothing for what is not a config', () => {
    expect(tokensNeedingDecimals(null)).toEqual([]);
    expect(tokensNeedingDecimals([1, 2])).toEqual([]);
    expect(tokensNeedingDecimals({ balances: 'no list' })).toEqual([]);
  });
});

describe('a config read with the decimals its tokens metadata gave', () => {
  const raw = { network: 'mainnet', balances: [{ name: 'alex low', address: MAINNET.alex, asset: ALEX, below: '5 ALEX' }] };

  it('reads the unit in the token metadata decimals and speaks its symbol', () => {
    const result = parseWatchConfig(withTokenDecimals(raw, new Map([[ALEX, { decimals: 8, symbol: 'ALEX' }]])));
    expect(result.ok && result.config.balances[0]).toMatchObject({ below: '500000000', decimals: 8, symbol: 'ALEX', amountUnits: { below: 'ALEX' } });
  });

  it('keeps the rule own symbol and leaves the input unchanged', () => {
    const own = { ...raw, balances: [{ ...raw.balances[0], symbol: 'alex' }] };
    const copy = structuredClone(own);
    const filled = withTokenDecimals(own, new Map([[ALEX, { decimals: 8, symbol: 'ALEX' }]])) as typeof own;
    expect(filled.balances[0]).toMatchObject({ decimals: 8, symbol: 'alex' });
    expect(own).toEqual(copy);
  });

  it("reads a sum window's atLeast over a rule written without a unit in the metadata decimals", () => {
    const window = {
      network: 'mainnet',
      transfers: [{ name: 'diko in', asset: DIKO, to: [MAINNET.alex] }],
      windows: [{ name: 'diko flood', of: 'diko in', minutes: 60, sum: 'amount', atLeast: '1,000 DIKO' }],
    };
    expect(parseWatchConfig(window).ok).toBe(false);
    const result = parseWatchConfig(withTokenDecimals(window, new Map([[DIKO, { decimals: 6, symbol: 'DIKO' }]])));
    expect(result.ok).toBe(true);
    if (result.ok) expect(windowThreshold(result.config, result.config.windows[0] as { of: string; atLeast: string })).toBe(1_000_000_000n);
  });

  it('refuses a token the metadata did not give, naming the fix', () => {
    const result = parseWatchConfig(withTokenDecimals(raw, new Map()));
    expect(result.ok).toBe(false);
    expect(!result.ok && result.problems[0]!.message).toMatch(/give "decimals"/);
  });
});
