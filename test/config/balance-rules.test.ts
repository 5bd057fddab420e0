// `balances` rules in the watch config: what is accepted, every mistake named at once with its path, and how
// `--check` words them.
import { describe, expect, it } from 'vitest';
import { parseWatchConfig } from '../../lambda/config/watch-config';
import { balancesList } from '../../lambda/core/rules/balance-rules';

const RELAYER = 'SP2C2YFP12AJZB4MABJBAJ55XECVS7E4PMMZ89YZR';
const SBTC = 'SM3VDXK3WZZSA84XXFKAFAF15NNZX32CTSG82JFQ4.sbtc-token::sbtc-token';

describe('balances rules', () => {
  it('takes thresholds as digits in quotes or whole numbers, kept as strings beyond 2^53', () => {
    const result = parseWatchConfig({ network: 'mainnet', balances: [{ address: RELAYER, asset: SBTC, below: 100, above: '123456789012345678901234567890' }] });
    expect(result).toMatchObject({
      ok: true,
      config: { balances: [{ address: RELAYER, asset: SBTC, below: '100', above: '123456789012345678901234567890' }] },
    });
  });

  it('names every mistake at once: no threshold, below over above, a wildcard or misspelt asset, a bad address', () => {
    const result = parseWatchConfig({
      network: 'mainnet',
      balances: [
        { address: RELAYER, asset: 'stx' },
        { address: RELAYER, asset: 'stx', below: '10', above: '5' },
        { address: RELAYER, asset: '*', below: '1' },
        { address: RELAYER, asset: 'STX', below: '1' },
        { address: 'nope', asset: 'stx', below: '-1', colour: 'red' },
      ],
    });
    expect(result.ok).toBe(false);
    const problems = result.ok ? [] : result.problems.map((p) => `${p.path}: ${p.message}`);
    expect(problems.join('\n')).toContain('balances[0]: has no threshold');
    expect(problems.join('\n')).toContain('balances[1].below: must not be more than "above"');
    expect(problems.join('\n')).toContain('balances[2].asset: must name one asset');
    expect(problems.join('\n')).toContain('balances[3].asset: means STX');
    for (const path of ['balances[4].address', 'balances[4].below', 'balances[4].colour']) expect(problems.join('\n')).toContain(path);
  });

  it('is enough on its own: a config of balance rules alone watches something', () => {
    expect(parseWatchConfig({ network: 'mainnet', balances: [{ address: RELAYER, asset: 'stx', below: '50000000' }] })).toMatchObject({ ok: true });
  });

  it('reads, in --check, as the spendable STX or the token in its units', () => {
    const words = balancesList.describe({
      balances: [
        { address: RELAYER, asset: 'stx', below: '50000000', name: 'relayer gas' },
        { address: RELAYER, asset: SBTC, above: '2500000000', decimals: 8, symbol: 'sBTC' },
      ],
    });
    expect(words).toContain(`spendable STX of ${RELAYER} below 50 STX`);
    expect(words).toContain(`above 25 sBTC`);
  });
});
