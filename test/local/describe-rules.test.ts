import { describe, expect, it } from 'vitest';
import { describeWatch } from '../../lambda/local/describe';

const VAULT = 'SP2C2YFP12AJZB4MABJBAJ55XECVS7E4PMMZ89YZR.arkadiko-vault';
const api = { baseUrl: 'https://api.hiro.so', fromEnvironment: false, requestsPerMinute: 50, hasKey: false };

describe('--check in words', () => {
  it('names each log rule\'s contains and where, and each calls rule', () => {
    const text = describeWatch(
      {
        network: 'mainnet',
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
