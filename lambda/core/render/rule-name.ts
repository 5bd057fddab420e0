// A rule's name as a message shows it: a name someone chose, as given; a default name (`transfers:stx to
// SP…,SP…`, `contractLogs:SP….vault where {...}`) in words from the list that made it, its first principals
// whole and the rest counted, never longer than RULE_WORDS_MAX. The alert's `rule` keeps the default itself:
// subscriptions filter on it.
import { ruleLists } from '../rules/rule-lists';
import type { AnyRuleList } from '../rules/rule-list';
import { isDefaultRuleName, WATCHER_RULE } from '../stages/rule-meta';
import { sanitizeUntrusted } from './untrusted-text';

export const RULE_WORDS_MAX = 300;

const byName = new Map<string, AnyRuleList>(ruleLists.map((list) => [list.name, list]));

export function ruleNameWords(rule: string): string {
  const colon = rule.indexOf(':');
  const list = colon < 0 ? rule : rule.slice(0, colon);
  const detail = colon < 0 ? null : rule.slice(colon + 1);
  if (!isDefaultRuleName(rule, [...byName.keys(), WATCHER_RULE])) return sanitizeUntrusted(rule, RULE_WORDS_MAX);
  if (list === WATCHER_RULE) return 'the watcher itself';
  const words = byName.get(list)?.nameWords?.(detail) ?? rule;
  return `${sanitizeUntrusted(words, RULE_WORDS_MAX - ' (unnamed)'.length)} (unnamed)`;
}
