// Who receives alerts, from four settings (deploy.json or -c): alertEmails, alertPhoneNumbers and alertWebhooks (every
// alert), and alertSubscriptions (each with an optional filter). SNS keeps one subscription per endpoint and
// topic, so an endpoint may appear only once across them.
import { z } from 'zod';
import { contractIdProblem, recipientProblem } from '../../lambda/core/watch-config/stacks-principals';
import { NETWORKS } from '../../lambda/core/watch-config/watch-config-schema';
import { type AlertFilter, MAX_FILTER_COMBINATIONS, routedCombinations } from '../alert-filter-policy';
import { SEVERITIES } from '../../lambda/core/stages/rule-meta';
import { ALERT_TYPES } from '../alert-message';
import { jsonValue, stringList } from './context-values';
import { shownEndpoint, shownUrl } from './endpoint-names';

export interface AlertSubscription {
  protocol: 'email' | 'sms' | 'https';
  endpoint: string;
  /** Empty: every alert. */
  filter: AlertFilter;
  /** A webhook that wants the signed SNS envelope rather than the alert JSON as its body. */
  envelope?: boolean;
}

const E164 = /^\+[1-9]\d{1,14}$/;

export const email = z.email({
  error: (issue) => `"${String(issue.input)}" is not an email address`,
});

export const phoneNumber = z.string().regex(E164, {
  error: (issue) =>
    `"${String(issue.input)}" is not an E.164 phone number: write + then the country code and number, ` + 'digits only, at most 15 (e.g. +14155550123)',
});

export const webhookUrl = z.url({
  protocol: /^https$/,
  error: (issue) => `"${shownUrl(String(issue.input))}" is not an https:// URL (SNS delivers webhooks over HTTPS only here)`,
});

function principal(problemOf: (text: string, network: null) => string | null) {
  return z.string().superRefine((text, ctx) => {
    const problem = problemOf(text, null);
    if (problem) ctx.addIssue({ code: 'custom', message: `"${text}" ${problem}` });
  });
}

function nonEmptyList<T extends z.ZodType>(item: T, what: string) {
  return z.array(item, { error: `must be a list of ${what}` }).min(1, { error: `must list at least one of ${what}, or be left out` });
}

/** The filter keys of a subscription (and of a chat channel): which alerts it gets. */
export const filterFields = {
  types: nonEmptyList(z.enum(ALERT_TYPES, { error: `must be one of ${ALERT_TYPES.join(', ')}` }), 'alert types').optional(),
  networks: nonEmptyList(z.enum(NETWORKS, { error: 'must be mainnet or testnet' }), 'networks').optional(),
  severities: nonEmptyList(z.enum(SEVERITIES, { error: `must be one of ${SEVERITIES.join(', ')}` }), 'severities').optional(),
  contracts: nonEmptyList(principal(contractIdProblem), 'contract ids').optional(),
  addresses: nonEmptyList(principal(recipientProblem), 'addresses').optional(),
};

const ENTRY_KEYS = ['email', 'sms', 'https', 'envelope', 'types', 'networks', 'severities', 'contracts', 'addresses'];

const subscriptionEntry = z
  .strictObject(
    {
      email: email.optional(),
      sms: phoneNumber.optional(),
      https: webhookUrl.optional(),
      envelope: z.boolean({ error: 'must be true or false' }).optional(),
      ...filterFields,
    },
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? `has unknown ${issue.keys.map((key) => `"${key}"`).join(', ')}: the keys are ${ENTRY_KEYS.join(', ')}`
          : 'each entry must be an object like {"email": "...", "types": ["token_transfer"]} or {"sms": "+1...", "severities": ["critical"]}',
    },
  )
  .superRefine((entry, ctx) => {
    const endpoints = [entry.email, entry.sms, entry.https].filter((e) => e !== undefined);
    if (endpoints.length !== 1) {
      ctx.addIssue({ code: 'custom', message: 'needs exactly one of "email", "sms" and "https"' });
    }
    if (entry.envelope !== undefined && entry.https === undefined) {
      ctx.addIssue({ code: 'custom', message: '"envelope" is for "https" webhooks only' });
    }
    const protocol = entry.sms !== undefined ? 'sms' : entry.https !== undefined ? 'https' : 'email';
    const combinations = routedCombinations(entry, protocol);
    if (combinations > MAX_FILTER_COMBINATIONS) {
      ctx.addIssue({
        code: 'custom',
        message:
          `its filter has ${combinations} combinations of values, over the SNS limit of ${MAX_FILTER_COMBINATIONS} ` +
          '(types x networks x severities x (contracts + addresses)' +
          (protocol === 'sms' ? ', plus networks x severities for the SMS digest' : '') +
          '); list fewer values',
      });
    }
  });

export const subscriptionContext = {
  alertEmails: stringList(email, 'email addresses').default([]),
  alertPhoneNumbers: stringList(phoneNumber, 'E.164 phone numbers').default([]),
  alertWebhooks: stringList(webhookUrl, 'https:// webhook URLs').default([]),
  alertSubscriptions: jsonValue(
    z.array(subscriptionEntry, {
      error: 'must be a JSON array of {"email"|"sms"|"https": ..., "types"?, "networks"?, "severities"?, "contracts"?, "addresses"?}',
    }),
  ).default([]),
};

type SubscriptionEntry = z.infer<typeof subscriptionEntry>;

function fromEntry({ email: address, sms, https, envelope, ...filter }: SubscriptionEntry): AlertSubscription {
  if (https !== undefined) return { protocol: 'https', endpoint: https, filter, ...(envelope ? { envelope } : {}) };
  return address !== undefined ? { protocol: 'email', endpoint: address, filter } : { protocol: 'sms', endpoint: sms ?? '', filter };
}

/** Every subscription, or the problems with them: an endpoint listed twice is one. */
export function alertSubscriptions(values: {
  alertEmails: string[];
  alertPhoneNumbers: string[];
  alertWebhooks: string[];
  alertSubscriptions: SubscriptionEntry[];
}): { subscriptions: AlertSubscription[]; problems: string[] } {
  const subscriptions: AlertSubscription[] = [
    ...values.alertEmails.map((endpoint): AlertSubscription => ({ protocol: 'email', endpoint, filter: {} })),
    ...values.alertPhoneNumbers.map((endpoint): AlertSubscription => ({ protocol: 'sms', endpoint, filter: {} })),
    ...values.alertWebhooks.map((endpoint): AlertSubscription => ({ protocol: 'https', endpoint, filter: {} })),
    ...values.alertSubscriptions.map(fromEntry),
  ];
  const seen = new Set<string>();
  const problems: string[] = [];
  for (const { protocol, endpoint } of subscriptions) {
    // Mailbox names are case-insensitive in practice: two spellings of one address would get every alert twice.
    const key = `${protocol}:${protocol === 'email' ? endpoint.toLowerCase() : endpoint}`;
    if (seen.has(key)) {
      problems.push(
        `${shownEndpoint(protocol, endpoint)} is subscribed more than once across alertEmails, alertPhoneNumbers, alertWebhooks and alertSubscriptions; ` +
          'SNS allows one subscription per endpoint, so keep one (with the filter you want)',
      );
    }
    seen.add(key);
  }
  return { subscriptions, problems };
}
