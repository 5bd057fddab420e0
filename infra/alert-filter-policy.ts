// A subscriber's choice of alerts, as an SNS filter policy on the message attributes the function sets.
// Kinds of filter combine with AND (types, networks), except contracts and addresses, which combine with
// OR: a subscriber who names both wants alerts about either.
import type { AlertType, Network } from '../lambda/core/domain';
import { MESSAGE_ATTRIBUTE } from './alert-message';

export interface AlertFilter {
  types?: AlertType[];
  networks?: Network[];
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
  return count(filter.types) * count(filter.networks) * Math.max(1, subjectValues);
}
