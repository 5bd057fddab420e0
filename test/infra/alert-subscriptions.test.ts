import { describe, expect, it } from 'vitest';
import { alertFilterPolicy, filterCombinations } from '../../infra/alert-filter-policy';
import { DeploySettingsError, readDeploySettings } from '../../infra/settings/deploy-settings';
import { ALERT_TYPES } from '../../lambda/core/alert-kinds/registry';

const CONTRACT = 'SP2C2YFP12AJZB4MABJBAJ55XECVS7E4PMMZ89YZR.arkadiko-token';
const ADDRESS = 'SP3K8BC0PPEVCV7NZ6QSRWPQ2JE9E5B6N3PA0KBR9';

function subscriptionProblems(entries: unknown): string[] {
  try {
    readDeploySettings((key) => (key === 'alertSubscriptions' ? entries : undefined), '/repo');
  } catch (error) {
    if (error instanceof DeploySettingsError) return error.problems;
    throw error;
  }
  throw new Error('expected the subscriptions to be rejected');
}

describe('alert filter policies', () => {
  it('lets every alert through when nothing is filtered', () => {
    expect(alertFilterPolicy({})).toBeUndefined();
  });

  it('matches types and networks on the type and network attributes, both required', () => {
    expect(alertFilterPolicy({ types: ['token_transfer', 'retraction'], networks: ['mainnet'] })).toEqual({
      type: ['token_transfer', 'retraction'],
      network: ['mainnet'],
    });
  });

  it('matches contracts on contract_id', () => {
    expect(alertFilterPolicy({ contracts: [CONTRACT] })).toEqual({ contract_id: [CONTRACT] });
  });

  it('matches addresses on address', () => {
    expect(alertFilterPolicy({ addresses: [ADDRESS] })).toEqual({ address: [ADDRESS] });
  });

  it('joins contracts and addresses with $or, so either one lets an alert through', () => {
    expect(alertFilterPolicy({ types: ['contract_log', 'token_transfer'], contracts: [CONTRACT], addresses: [ADDRESS] })).toEqual({
      type: ['contract_log', 'token_transfer'],
      $or: [{ contract_id: [CONTRACT] }, { address: [ADDRESS] }],
    });
  });

  it('counts combinations as SNS does: ANDed keys multiply, $or branches add', () => {
    expect(
      filterCombinations({ types: ['token_transfer', 'contract_log'], networks: ['mainnet'], contracts: [CONTRACT], addresses: [ADDRESS, CONTRACT] }),
    ).toBe(6);
  });
});

describe('alertSubscriptions context', () => {
  it('rejects an entry with both an email and an sms endpoint', () => {
    expect(subscriptionProblems([{ email: 'a@example.com', sms: '+14155550123' }])).toEqual([
      expect.stringMatching(/^alertSubscriptions\[0\]: needs exactly one of "email", "sms" and "https"/),
    ]);
  });

  it('rejects an entry with no endpoint', () => {
    expect(subscriptionProblems([{ types: ['deep_reorg'] }])[0]).toMatch(/^alertSubscriptions\[0\]: needs exactly one of "email", "sms" and "https"/);
  });

  it('rejects an unknown alert type, listing the known ones', () => {
    expect(subscriptionProblems([{ email: 'a@example.com', types: ['transfer'] }])).toEqual([
      `alertSubscriptions[0].types[0]: must be one of ${ALERT_TYPES.join(', ')} (found: "transfer")`,
    ]);
  });

  it("rejects a contract id that could never match, with the watch config validator's reason", () => {
    expect(subscriptionProblems([{ sms: '+14155550123', contracts: ['SP2C2YFP12AJZB4MABJBAJ55XECVS7E4PMMZ89YZR'] }])[0]).toMatch(
      /^alertSubscriptions\[0\]\.contracts\[0\]: "SP2C2YFP12AJZB4MABJBAJ55XECVS7E4PMMZ89YZR" must be a contract id/,
    );
  });

  it('rejects an address in a form the API never reports', () => {
    expect(subscriptionProblems([{ email: 'a@example.com', addresses: [ADDRESS.toLowerCase()] }])[0]).toMatch(
      /^alertSubscriptions\[0\]\.addresses\[0\]: ".*" is not written the way the Stacks API reports it/,
    );
  });

  it('rejects an unknown key, so a misspelt filter does not silently pass everything', () => {
    expect(subscriptionProblems([{ email: 'a@example.com', type: ['deep_reorg'] }])[0]).toMatch(
      /^alertSubscriptions\[0\]: has unknown "type": the keys are email, sms, https, envelope, types, networks, severities, contracts, addresses/,
    );
  });

  it('rejects a filter over the SNS limit of 150 combinations', () => {
    const addresses = Array.from({ length: 80 }, () => ADDRESS);
    expect(subscriptionProblems([{ email: 'a@example.com', types: ['token_transfer', 'retraction'], addresses }])).toEqual([
      expect.stringMatching(/^alertSubscriptions\[0\]: its filter has 160 combinations of values, over the SNS limit of 150/),
    ]);
  });

  it('rejects text that is not a JSON array', () => {
    expect(subscriptionProblems('{"email": "a@example.com"}')[0]).toMatch(/^alertSubscriptions: must be a JSON array/);
  });
});
