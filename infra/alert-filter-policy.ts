// A subscriber's choice of alerts, as an SNS filter policy on the message attributes the function sets.
// Kinds of filter combine with AND (types, networks), except contracts and addresses, which combine with
// OR: a subscriber who names both wants alerts about either.
import type { AlertType } from '../lambda/core/alert-kinds/alert';
import type { Network } from '../lambda/core/domain';
import type { Severity } from '../lambda/core/stages/rule-meta';
import type { SmsRoute } from '../lambda/core/deliver/sms-budget';
import { MESSAGE_ATTRIBUTE } from './alert-message';

export interface AlertFilter {
  types?: AlertType[];
  networks?: Network[];
  severities?: Severity[];
  contracts?: string[];
  addresses?: string[];
}

/** SNS's cap on a filter policy's combinations of values. */
export const MAX_FILTER_COMBINATIONS = 150;

type FilterPolicy = Record<string, unknown>;

function present<T>(values: T[] | undefined): values is T[] {
  return values !== undefined && values.length > 0;
}

/** The filter policy for `filter`, or undefined when it lets every alert through. */
export function alertFilterPolicy(filter: AlertFilter): FilterPolicy | undefined {
  const policy: FilterPolicy = {};
  if (present(filter.types)) policy[MESSAGE_ATTRIBUTE.type] = [...filter.types];
  if (present(filter.networks)) policy[MESSAGE_ATTRIBUTE.network] = [...filter.networks];
  if (present(filter.severities)) policy[MESSAGE_ATTRIBUTE.severity] = [...filter.severities];
  const subjects: FilterPolicy[] = [];
  if (present(filter.contracts)) subjects.push({ [MESSAGE_ATTRIBUTE.contractId]: [...filter.contracts] });
  if (present(filter.addresses)) subjects.push({ [MESSAGE_ATTRIBUTE.address]: [...filter.addresses] });
  if (subjects.length === 1) Object.assign(policy, subjects[0]);
  if (subjects.length === 2) policy.$or = subjects;
  return Object.keys(policy).length > 0 ? policy : undefined;
}

/**
 * How SNS counts a policy against its limit: the product of the value counts of the ANDed keys, and
 * for an $or, the sum over its branches.
 */
export function filterCombinations(filter: AlertFilter): number {
  const count = (values: unknown[] | undefined) => (present(values) ? values.length : 1);
  const subjectValues = (filter.contracts?.length ?? 0) + (filter.addresses?.length ?? 0);
  return count(filter.types) * count(filter.networks) * count(filter.severities) * Math.max(1, subjectValues);
}

const TEXTED: SmsRoute[] = ['text'];
const DIGEST: SmsRoute = 'digest';

/**
 * The filter policy of a subscription to the alerts topic: the subscriber's filter, plus the SMS routing
 * (lambda/core/deliver/sms-budget.ts). A phone gets the alerts its filter asks for that the run texts (`sms: text`),
 * and the run's digest (`sms: digest`) when the digest is about its networks and severities; everyone else
 * gets every alert its filter asks for and never a digest. Always a policy: every alert carries `sms`.
 */
export function routedFilterPolicy(filter: AlertFilter, protocol: 'email' | 'sms' | 'https'): FilterPolicy {
  const own = alertFilterPolicy(filter) ?? {};
  if (protocol !== 'sms') return { ...own, [MESSAGE_ATTRIBUTE.sms]: [{ 'anything-but': [DIGEST] }] };
  // The subscriber's own $or (contracts or addresses) becomes branches of the top-level one, each texted.
  const { $or: subjects, ...anded } = own as { $or?: FilterPolicy[] } & FilterPolicy;
  const texted = (subjects ?? [{}]).map((subject) => ({ ...anded, ...subject, [MESSAGE_ATTRIBUTE.sms]: TEXTED }));
  const digest: FilterPolicy = { [MESSAGE_ATTRIBUTE.sms]: [DIGEST] };
  if (present(filter.networks)) digest[MESSAGE_ATTRIBUTE.network] = [...filter.networks];
  if (present(filter.severities)) digest[MESSAGE_ATTRIBUTE.severity] = [...filter.severities];
  return { $or: [...texted, digest] };
}

/** What routedFilterPolicy counts against the SNS limit: an SMS policy adds its digest branch. */
export function routedCombinations(filter: AlertFilter, protocol: 'email' | 'sms' | 'https'): number {
  const count = (values: unknown[] | undefined) => (present(values) ? values.length : 1);
  const digest = protocol === 'sms' ? count(filter.networks) * count(filter.severities) : 0;
  return filterCombinations(filter) + digest;
}
