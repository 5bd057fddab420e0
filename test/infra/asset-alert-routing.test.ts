// A subscriber filtered on the new alert types and on a tracked address gets the asset movements of that
// address and their retractions, and nothing about other addresses: the kinds' SNS attributes meet the
// filter policies the stack writes from alertSubscriptions.
import { describe, expect, it } from 'vitest';
import type { Alert } from '../../lambda/core/alert-kinds/alert';
import { alertKinds, filterAttributes } from '../../lambda/core/alert-kinds/registry';
import { retractionOf } from '../../lambda/core/alert-kinds/retraction';
import { alertFilterPolicy } from '../../infra/alert-filter-policy';
import { readDeploySettings } from '../../infra/settings/deploy-settings';

type Policy = Record<string, unknown>;

/** SNS's exact-string matching of a message's attributes against a filter policy (the forms the stack writes). */
function delivered(policy: Policy | undefined, attributes: Record<string, string>): boolean {
  if (!policy) return true;
  return Object.entries(policy).every(([key, values]) =>
    key === '$or' ? (values as Policy[]).some((branch) => delivered(branch, attributes)) : (values as string[]).includes(attributes[key] ?? '\0'),
  );
}

const samples = [alertKinds.stx_transfer.sample, alertKinds.ft_transfer.sample, alertKinds.nft_transfer.sample];
const tracked = samples[0]!.address;
const elsewhere = (alert: Alert): Alert => ({ ...alert, address: 'SP3K8BC0PPEVCV7NZ6QSRWPQ2JE9E5B6N3PA0KBR9' }) as Alert;

describe('routing asset movement alerts by alertSubscriptions', () => {
  const settings = readDeploySettings(
    (key) =>
      key === 'alertSubscriptions'
        ? JSON.stringify([{ email: 'treasury@example.com', types: ['stx_transfer', 'ft_transfer', 'nft_transfer', 'retraction'], addresses: [tracked] }])
        : undefined,
    '/repo',
  );
  const policy = alertFilterPolicy(settings.alertSubscriptions[0]!.filter);

  it('accepts the new types in a subscription and delivers each movement of the tracked address and its retraction', () => {
    for (const sample of samples) {
      expect(delivered(policy, filterAttributes(sample)), sample.type).toBe(true);
      expect(delivered(policy, filterAttributes(retractionOf(sample, 'mainnet'))), `${sample.type} retraction`).toBe(true);
    }
  });

  it('holds back movements of other addresses and other kinds', () => {
    for (const sample of samples) expect(delivered(policy, filterAttributes(elsewhere(sample))), sample.type).toBe(false);
    expect(delivered(policy, filterAttributes(alertKinds.contract_log.sample))).toBe(false);
  });
});
