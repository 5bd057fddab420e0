// `--check` says what each rule is called and how urgent it is, when the config says so.
import { describe, expect, it } from 'vitest';
import { describeWatch } from '../../lambda/local/describe';
import { config, TOKEN, WATCHED } from '../core/harness';

const api = { baseUrl: 'https://api.hiro.so', fromEnvironment: false, requestsPerMinute: 50, hasKey: false };

describe('--check with named rules', () => {
  it('names each rule and its severity beside what it watches, and says nothing of defaults', () => {
    const text = describeWatch(
      config({
        contracts: [TOKEN],
        contractsRule: { severity: 'info' },
        addresses: [WATCHED],
        addressesRule: { name: 'Treasury inflow', severity: 'critical' },
        contractLogs: [{ contractId: TOKEN, contains: 'mint', name: 'Mint' }, { contractId: TOKEN }],
      }),
      api,
      'watch.json',
    );
    expect(text).toContain('(an alert on first sight and on every change, info):');
    expect(text).toContain('(an alert for each successful transfer, named "Treasury inflow", critical):');
    expect(text).toContain(`    ${TOKEN} (logs containing "mint"), named "Mint"\n`);
    expect(text).toContain(`    ${TOKEN} (every log)\n`);
  });
});
