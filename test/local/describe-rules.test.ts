// `--check` says what each rule watches, what it is called and how urgent it is, when the config says so.
import { describe, expect, it } from 'vitest';
import { describeWatch } from '../../lambda/local/describe';
import { config, TOKEN, WATCHED } from '../core/harness';
import { emptyWatchConfig } from '../../lambda/config/watch-config';

const VAULT = 'SP2C2YFP12AJZB4MABJBAJ55XECVS7E4PMMZ89YZR.arkadiko-vault';
const api = { baseUrl: 'https://api.hiro.so', fromEnvironment: false, requestsPerMinute: 50, hasKey: false };

describe('--check in words', () => {
  it("names each log rule's contains and where, and each calls rule", () => {
    const text = describeWatch(
      {
        ...emptyWatchConfig('mainnet'),
        contracts: [],
        addresses: [],
        transfers: [],
        contractLogs: [{ contractId: VAULT, contains: 'withdraw', where: { amount: { gte: '1000' } } }],
        calls: [{ contractId: VAULT, status: 'failed', functions: ['withdraw'] }],
        startHeight: 'latest',
        confirmations: 0,
        maxBlocksPerRun: 500,
      },
      api,
      'watch.json',
    );
    expect(text).toContain(`    ${VAULT} (logs containing "withdraw" and where {"amount":{"gte":"1000"}})`);
    expect(text).toContain(`- calls to contracts, 1 rule:\n    ${VAULT} (failed calls, functions withdraw)`);
  });
});

describe('--check with named rules', () => {
  it('names each rule and its severity beside what it watches, and says nothing of defaults', () => {
    const text = describeWatch(
      config({
        contracts: [TOKEN],
        contractsRule: { severity: 'info' },
        addresses: [WATCHED],
        addressesRule: { name: 'Treasury inflow', severity: 'critical' },
        contractLogs: [{ contractId: TOKEN, contains: 'mint', name: 'Mint' }, { contractId: TOKEN }],
        transfers: [{ asset: 'stx', to: [], from: [WATCHED], actions: ['transfer'], name: 'Treasury outflow', severity: 'critical' }],
        calls: [{ contractId: TOKEN, status: 'failed', severity: 'info' }],
      }),
      api,
      'watch.json',
    );
    expect(text).toContain('(an alert on first sight and on every change, info):');
    expect(text).toContain('(an alert for each transfer, native or inside a contract call, named "Treasury inflow", critical):');
    expect(text).toContain(`    ${TOKEN} (logs containing "mint"), named "Mint"\n`);
    expect(text).toContain(`    ${TOKEN} (every log)\n`);
    expect(text).toContain(`    stx from ${WATCHED} (transfer), named "Treasury outflow", critical\n`);
    expect(text).toContain(`    ${TOKEN} (failed calls), info\n`);
  });

  it('sums up a long list rather than printing it whole: the first 20, then how many more', () => {
    const addresses = Array.from({ length: 100_000 }, (_, i) => `SP${String(i).padStart(6, '0')}`);
    const text = describeWatch({ ...config(), addresses, contractLogs: [] }, api, 'watch.json');
    expect(text).toContain('STX arriving at 100000 addresses');
    expect(text).toContain(`    ${addresses[19]}\n    … and 99,980 more addresses`);
    expect(text).not.toContain(addresses[20]);
    expect(text.split('\n').length).toBeLessThan(60);
  });
});

describe('--check with cooldowns and mutes', () => {
  const quiet = config({
    addresses: [WATCHED],
    addressesRule: { name: 'Treasury inflow', mutedUntil: '2026-11-26T06:00:00Z' },
    contractLogs: [{ contractId: TOKEN, contains: 'mint', name: 'Mint', cooldownMinutes: 30 }],
  } as never);
  const before = Date.parse('2026-11-25T22:00:00Z');

  it("says each rule's cooldown and mute beside what it watches", () => {
    const text = describeWatch(quiet, api, 'watch.json', undefined, before);
    expect(text).toContain(', named "Mint", a 30-minute cooldown (one alert, then one summary of the matches within 30 min of block time)');
    expect(text).toContain('each transfer, native or inside a contract call, named "Treasury inflow", muted until 2026-11-26T06:00:00Z (block time)');
    expect(text).not.toContain('warning:');
  });

  it('warns of a mute whose time is past: it mutes nothing', () => {
    const text = describeWatch(quiet, api, 'watch.json', undefined, Date.parse('2026-11-26T06:00:00Z'));
    expect(text).toContain('warning: rule "Treasury inflow" has "mutedUntil": "2026-11-26T06:00:00Z", which is past: it mutes nothing; remove it');
  });
});
