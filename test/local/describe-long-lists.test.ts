// `--check` of a transfer rule with many addresses keeps its line short, and a transfer threshold reads in
// the asset's units beside its base units.
import { describe, expect, it } from 'vitest';
import { describeWatch } from '../../lambda/local/describe';
import type { TransferRule } from '../../lambda/core/rules/transfer-rules';
import { config, TOKEN, WATCHED } from '../core/harness';
import { numberedAddresses as addresses } from '../support/numbered-addresses';

const api = { baseUrl: 'https://api.hiro.so', fromEnvironment: false, requestsPerMinute: 50, hasKey: false };
const SBTC = 'SM3VDXK3WZZSA84XXFKAFAF15NNZX32CTSG82JFQ4.sbtc-token::sbtc-token';

describe('--check with a rule of many addresses', () => {
  it("names the first few on the rule's line and counts the rest, so the line stays short", () => {
    const many = addresses(50_000);
    const text = describeWatch(config({ transfers: [{ asset: 'stx', to: many, from: [], actions: ['transfer'] }] }), api, 'watch.json');
    expect(text).toContain(`    stx to ${many.slice(0, 5).join(', ')} and 49,995 more (transfer)\n`);
    expect(Math.max(...text.split('\n').map((line) => line.length))).toBeLessThan(400);
  });

  it('names every one of a few', () => {
    const few = addresses(5);
    const text = describeWatch(config({ transfers: [{ asset: 'stx', to: [], from: few, actions: ['transfer'] }] }), api, 'watch.json');
    expect(text).toContain(`    stx from ${few.join(', ')} (transfer)\n`);
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

describe('--check and a long contracts list', () => {
  const contracts = (count: number) => Array.from({ length: count }, (_, i) => `SP000000000000000000002Q6VF78.c-${i}`);

  it('states how long a full status sweep takes without an API key and with one, and that first sights are summed up', () => {
    const text = describeWatch(config({ contracts: contracts(10_000) }), { ...api, cycleSeconds: 60 }, 'watch.json');
    expect(text).toContain(
      '- contract statuses: 10,000 contracts are checked a slice a cycle: a full sweep takes 23 cycles without an API key ' +
        '(about 23 min at one cycle every 60 s), 3 with one (about 3 min); their first check is summed up in one alert a cycle, ' +
        'then each change alerts alone; `--once` checks them all\n',
    );
  });

  it('says a short list is checked whole every cycle', () => {
    expect(describeWatch(config({ contracts: contracts(3) }), api, 'watch.json')).toContain('- contract statuses: all 3 checked every cycle\n');
  });
});
