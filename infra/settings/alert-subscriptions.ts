// Who receives alerts, from three context keys: alertEmails and alertPhoneNumbers (every alert), and
// alertSubscriptions (each with an optional filter). SNS keeps one subscription per endpoint and topic,
// so an endpoint may appear only once across the three.
import { z } from 'zod';
import { contractIdProblem, recipientProblem } from '../../lambda/config/stacks-principals';
import { NETWORKS } from '../../lambda/config/watch-config-schema';
import { type AlertFilter, MAX_FILTER_COMBINATIONS, filterCombinations } from '../alert-filter-policy';
import { ALERT_TYPES } from '../alert-message';
import { jsonValue, stringList } from './context-values';

export interface AlertSubscription {
  protocol: 'email' | 'sms';
  endpoint: string;
  /** Empty: every alert. */
  filter: AlertFilter;
}

const E164 = /^\+[1-9]\d{1,14}$/;

export const email = z.email({
  error: (issue) => `"${String(issue.input)}" is not an email address`,
});

export const phoneNumber = z.string().regex(E164, {
  error: (issue) =>
    `"${String(issue.input)}" is not an E.164 phone number: write + then the country code and number, ` +
    'digits only, at most 15 (e.g. +14155550123)',
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

const ENTRY_KEYS = ['email', 'sms', 'types', 'networks', 'contracts', 'addresses'];

const subscriptionEntry = z
  .strictObject(
    {
      email: email.optional(),
      sms: phoneNumber.optional(),
      types: nonEmptyList(z.enum(ALERT_TYPES, { error: `must be one of ${ALERT_TYPES.join(', ')}` }), 'alert types').optional(),
      networks: nonEmptyList(z.enum(NETWORKS, { error: 'must be mainnet or testnet' }), 'networks').optional(),
      contracts: nonEmptyList(principal(contractIdProblem), 'contract ids').optional(),
      addresses: nonEmptyList(principal(recipientProblem), 'addresses').optional(),
    },
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? `has unknown ${issue.keys.map((key) => `"${key}"`).join(', ')}: the keys are ${ENTRY_KEYS.join(', ')}`
          : 'each entry must be an object like {"email": "...", "types": ["token_transfer"]}',
    },
  )
  .superRefine((entry, ctx) => {
    if ((entry.email === undefined) === (entry.sms === undefined)) {
      ctx.addIssue({ code: 'custom', message: 'needs exactly one of "email" and "sms"' });
    }
    const combinations = filterCombinations(entry);
    if (combinations > MAX_FILTER_COMBINATIONS) {
      ctx.addIssue({
        code: 'custom',
        message:
          `its filter has ${combinations} combinations of values, over the SNS limit of ${MAX_FILTER_COMBINATIONS} ` +
          '(types x networks x (contracts + addresses)); list fewer values',
      });
    }
  });

export const subscriptionContext = {
  alertEmails: stringList(email, 'email addresses').default([]),
  alertPhoneNumbers: stringList(phoneNumber, 'E.164 phone numbers').default([]),
  alertSubscriptions: jsonValue(
    z.array(subscriptionEntry, { error: 'must be a JSON array of {"email"|"sms": ..., "types"?, "networks"?, "contracts"?, "addresses"?}' }),
  ).default([]),
};

type SubscriptionEntry = z.infer<typeof subscriptionEntry>;

function fromEntry({ email: address, sms, ...filter }: SubscriptionEntry): AlertSubscription {
  return address !== undefined
    ? { protocol: 'email', endpoint: address, filter }
    : { protocol: 'sms', endpoint: sms ?? '', filter };
}

/** Every subscription, or the problems with them: an endpoint listed twice is one. */
export function alertSubscriptions(values: {
  alertEmails: string[];
  alertPhoneNumbers: string[];
  alertSubscriptions: SubscriptionEntry[];
}): { subscriptions: AlertSubscription[]; problems: string[] } {
  const subscriptions: AlertSubscription[] = [
    ...values.alertEmails.map((endpoint): AlertSubscription => ({ protocol: 'email', endpoint, filter: {} })),
    ...values.alertPhoneNumbers.map((endpoint): AlertSubscription => ({ protocol: 'sms', endpoint, filter: {} })),
    ...values.alertSubscriptions.map(fromEntry),
  ];
  const seen = new Set<string>();
  const problems: string[] = [];
  for (const { protocol, endpoint } of subscriptions) {
    // Mailbox names are case-insensitive in practice: two spellings of one address would get every alert twice.
    const key = `${protocol}:${protocol === 'email' ? endpoint.toLowerCase() : endpoint}`;
    if (seen.has(key)) {
      problems.push(
        `${endpoint} is subscribed more than once across alertEmails, alertPhoneNumbers and alertSubscriptions; ` +
          'SNS allows one subscription per endpoint, so keep one (with the filter you want)',
      );
    }
    seen.add(key);
  }
  return { subscriptions, problems };
}
