// Severity routing, webhooks and the SMS budget as the template states them: each subscription's filter
// policy on the alerts topic, and how a webhook's body is delivered.
import { beforeAll, describe, expect, it } from 'vitest';
import { routedCombinations, routedFilterPolicy } from '../../infra/alert-filter-policy';
import { DeploySettingsError, readDeploySettings } from '../../infra/settings/deploy-settings';
import { type Synthesized, synthStack } from './support/synth';

const CONTRACT = 'SP2C2YFP12AJZB4MABJBAJ55XECVS7E4PMMZ89YZR.arkadiko-token';
const ADDRESS = 'SP3K8BC0PPEVCV7NZ6QSRWPQ2JE9E5B6N3PA0KBR9';
const NOT_DIGEST = [{ 'anything-but': ['digest'] }];

let synth: Synthesized;

beforeAll(() => {
  synth = synthStack({
    alertPhoneNumbers: '+14155550100',
    alertWebhooks: 'https://hooks.example.com/stacks',
    alertSubscriptions: JSON.stringify([
      { sms: '+14155550123', severities: ['critical'] },
      { email: 'team@example.com', severities: ['critical', 'warning'] },
      { https: 'https://verify.example.com/sns', envelope: true, types: ['token_transfer'] },
    ]),
  });
});

function subscription(endpoint: string): Record<string, unknown> {
  const found = synth.template.findResources('AWS::SNS::Subscription', { Properties: { Endpoint: endpoint } });
  const all = Object.values(found);
  expect(all).toHaveLength(1);
  return all[0]!.Properties as Record<string, unknown>;
}

function problems(context: Record<string, unknown>): string[] {
  try {
    readDeploySettings((key) => context[key], '/repo');
  } catch (error) {
    if (error instanceof DeploySettingsError) return error.problems;
    throw error;
  }
  return [];
}

describe('SMS subscriptions in the template', () => {
  it('text a phone with no filter only the alerts the run texts, and the digest', () => {
    expect(subscription('+14155550100')).toMatchObject({
      Protocol: 'sms',
      FilterPolicyScope: 'MessageAttributes',
      FilterPolicy: { $or: [{ sms: ['text'] }, { sms: ['digest'] }] },
    });
  });

  it('page a phone for critical alerts only: texted critical alerts, and a digest holding a critical one', () => {
    expect(subscription('+14155550123').FilterPolicy).toEqual({
      $or: [
        { severity: ['critical'], sms: ['text'] },
        { sms: ['digest'], severity: ['critical'] },
      ],
    });
  });

  it("keep a phone's contracts-or-addresses filter as texted branches beside the digest", () => {
    expect(routedFilterPolicy({ types: ['contract_log', 'token_transfer'], contracts: [CONTRACT], addresses: [ADDRESS] }, 'sms')).toEqual({
      $or: [
        { type: ['contract_log', 'token_transfer'], contract_id: [CONTRACT], sms: ['text'] },
        { type: ['contract_log', 'token_transfer'], address: [ADDRESS], sms: ['text'] },
        { sms: ['digest'] },
      ],
    });
  });
});

describe('email and webhook subscriptions in the template', () => {
  it('give email every alert of its severities, never the digest', () => {
    expect(subscription('team@example.com').FilterPolicy).toEqual({ severity: ['critical', 'warning'], sms: NOT_DIGEST });
  });

  it('subscribe a webhook over HTTPS with the alert JSON as its raw body, every alert but the digest', () => {
    expect(subscription('https://hooks.example.com/stacks')).toMatchObject({
      Protocol: 'https',
      RawMessageDelivery: true,
      FilterPolicy: { sms: NOT_DIGEST },
    });
  });

  it('give a webhook that asks for it the signed SNS envelope, filtered like the others', () => {
    expect(subscription('https://verify.example.com/sns')).toMatchObject({
      Protocol: 'https',
      RawMessageDelivery: false,
      FilterPolicy: { type: ['token_transfer'], sms: NOT_DIGEST },
    });
  });
});

describe('the 150-combination limit at the edge', () => {
  const addresses = (n: number) => Array.from({ length: n }, () => ADDRESS);

  it("counts an SMS policy's digest branch: 150 values pass for email, 149 + the digest for SMS", () => {
    expect(routedCombinations({ addresses: addresses(150) }, 'email')).toBe(150);
    expect(routedCombinations({ addresses: addresses(149) }, 'sms')).toBe(150);
    expect(problems({ alertSubscriptions: JSON.stringify([{ email: 'a@example.com', addresses: addresses(150) }]) })).toEqual([]);
    expect(problems({ alertSubscriptions: JSON.stringify([{ sms: '+14155550123', addresses: addresses(150) }]) })).toEqual([
      expect.stringMatching(/its filter has 151 combinations of values, over the SNS limit of 150 .*plus networks x severities for the SMS digest/),
    ]);
  });

  it('multiplies severities into the count', () => {
    expect(routedCombinations({ severities: ['critical', 'warning'], types: ['token_transfer', 'contract_log'] }, 'sms')).toBe(4 + 2);
  });
});

describe('webhook settings', () => {
  it('refuses a webhook that is not https, and an envelope on an email', () => {
    expect(problems({ alertWebhooks: 'http://hooks.example.com/x' })).toEqual([
      expect.stringMatching(/^alertWebhooks.*"http:\/\/hooks\.example\.com\/…" is not an https:\/\/ URL/),
    ]);
    expect(problems({ alertSubscriptions: JSON.stringify([{ email: 'a@example.com', envelope: true }]) })).toEqual([
      expect.stringMatching(/"envelope" is for "https" webhooks only/),
    ]);
  });

  it('refuses a severity it does not know', () => {
    expect(problems({ alertSubscriptions: JSON.stringify([{ sms: '+14155550123', severities: ['urgent'] }]) })[0]).toMatch(
      /severities\[0\]: must be one of critical, warning, info/,
    );
  });
});
