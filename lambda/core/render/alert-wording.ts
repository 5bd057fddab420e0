// Words shared by the subject and the SMS of every kind.
import type { Alert } from '../alert-kinds/alert';
import type { Network } from '../domain';
import { isDefaultRuleName } from '../stages/rule-meta';
import { defaultNamePrefixes } from '../rules/rule-lists';

const DEFAULT_NAME_PREFIXES = defaultNamePrefixes();
import { sanitizeUntrusted } from './untrusted-text';

export function brand(network: Network): string {
  return network === 'mainnet' ? 'stacks-watch' : `stacks-watch ${network}`;
}

/**
 * `Treasury outflow: ` when the alert's rule has a name someone chose, else nothing: a default name only
 * repeats what the alert says. Every kind gets it here, first in the subject, the SMS and the terminal line.
 */
export function ruleNamePrefix(alert: Alert): string {
  if (alert.rule === undefined || isDefaultRuleName(alert.rule, DEFAULT_NAME_PREFIXES)) return '';
  return `${sanitizeUntrusted(alert.rule, 60)}: `;
}
