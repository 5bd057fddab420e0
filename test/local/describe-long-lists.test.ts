// `--check` of a config with long lists stays a screen long (100,000 addresses printed 112,007 lines), and
// a transfer threshold reads in the asset's units beside its base units.
import { c32address } from 'c32check';
import { describe, expect, it } from 'vitest';
import { describeWatch } from '../../lambda/local/describe';
import type { TransferRule } from '../../lambda/core/alert-kinds/transfer-rules';
import { config, TOKEN, WATCHED } from '../core/harness';

const api = { baseUrl: 'https://api.hiro.so', fromEnvironment: false, requestsPerMinute: 50, hasKey: false };
const addresses = (count: number) => Array.from({ length: count }, (_, i) => c32address(22, i.toString(16).padStart(40, '0')));
const SBTC = 'SM3VDXK3WZZSA84XXFKAFAF15NNZX32CTSG82JFQ4.sbtc-token::sbtc-token';

describe('--check with long lists', () => {
  const many = addresses(100_000);
  const text = describeWatch(
    config({
      addresses: many,
      contracts: many.slice(0, 12).map((a) => `${a}.vault`),
      transfers: [{ asset: 'stx', to: many.slice(0, 50_000), from: [], actions: ['transfer'] }],
    }),
    api,
    'watch.json',
  );

  it('shows the first few entries of a long list and how many more there are', () => {
    expect(text).toContain(`- STX arriving at 100,000 addresses (an alert for each transfer, native or inside a contract call):\n${many
      .slice(0, 5)
      .map((a) => `    ${a}\n`)
      .join('')}    … and 99,995 more\n`);
    expect(text).toContain('- deployment status of 12 contracts');
    expect(text).toContain('    … and 7 more\n');
  });

  it('names the first few addresses of a rule with many and counts the rest', () => {
    expect(text).toContain(`    stx to ${many.slice(0, 5).join(', ')} and 49,995 more (transfer)\n`);
  });

  it('fits on a screen', () => {
    expect(text.split('\n').length).toBeLessThan(30);
  });

  it('still lists every entry of a short list', () => {
    const short = addresses(10);
    const words = describeWatch(config({ addresses: short }), api, 'watch.json');
    for (const a of short) expect(words).toContain(`    ${a}\n`);
    expect(words).not.toContain('more');
  });
});

describe('--check and a transfer threshold', () => {
  const threshold = (rule: Partial<TransferRule>) =>
    describeWatch(config({ transfers: [{ asset: 'stx', to: [WATCHED], from: [], actions: ['transfer'], ...rule }] }), api, 'watch.json');

  it('reads an STX threshold in STX', () => {
    expect(threshold({ minAmount: '100' })).toContain('(at least 100 base units = 0.0001 STX; transfer)');
  });

  it('reads a token threshold in the token when the rule gives its decimals', () => {
    expect(threshold({ asset: SBTC, minAmount: '150000000', decimals: 8, symbol: 'sBTC' })).toContain('at least 150000000 base units = 1.5 sBTC;');
  });

  it('keeps base units alone for a token whose decimals are not given', () => {
    expect(threshold({ asset: `${TOKEN}::diko`, minAmount: '5000' })).toContain('(at least 5000 base units; transfer)');
  });

  it('says what an any-asset threshold means for STX', () => {
    expect(threshold({ asset: '*', minAmount: '100000000' })).toContain('at least 100000000 base units (= 100 STX when the asset is STX);');
  });
});
