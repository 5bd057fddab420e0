// What a rule says about the alerts it raises: a name people recognise and a severity that routes them.
// One mechanism for every rule list: each rule (or a whole list, for lists of bare ids) may carry `name`
// and `severity`; the matcher stamps the winning rule's metadata on the alert, and the renderings and SNS
// attributes pick it up from there for every kind alike (registry.ts, render/).

export const SEVERITIES = ['critical', 'warning', 'info'] as const;
export type Severity = (typeof SEVERITIES)[number];
export const DEFAULT_SEVERITY: Severity = 'warning';

/** What a rule or a list says about itself in the watch config; both optional. */
export interface RuleMetaConfig {
  name?: string;
  severity?: Severity;
}

/** The metadata an alert carries: `rule` is the rule's name, or a stable default made from what it watches. */
export interface RuleMeta {
  rule: string;
  severity: Severity;
}

/** The "list" of alerts the watcher raises itself (a deep reorg, an SMS digest): `watcher:deep_reorg`. */
export const WATCHER_RULE = 'watcher';

/**
 * The names reserved for default rule names: every rule list registered in alert-kinds/rule-lists.ts (a test
 * holds the two equal) and the watcher's own. A default rule name starts with its list's name and a colon (or
 * is the list's name), which a given name may not: so a rendering can tell a name someone chose (shown first
 * in the subject, the SMS and the terminal line) from a default (not shown: it only repeats what the alert
 * says). Kept here, in a leaf, because the name check and the renderings need it below the lists themselves.
 */
export const RULE_LISTS = ['contracts', 'addresses', 'contractLogs', 'transfers', 'calls', WATCHER_RULE] as const;
export type RuleList = (typeof RULE_LISTS)[number] | (string & {});

/** `contractLogs:SP…pox-4` or `contractLogs:SP…token contains "mint"`; the list's name alone for a whole list. */
export function defaultRuleName(list: RuleList, detail?: string): string {
  return detail === undefined ? list : `${list}:${detail}`;
}

const DEFAULT_NAME = new RegExp(`^(${RULE_LISTS.join('|')})(:|$)`);

export function isDefaultRuleName(rule: string): boolean {
  return DEFAULT_NAME.test(rule);
}

export function ruleMeta(config: RuleMetaConfig | undefined, defaultName: string): RuleMeta {
  return { rule: config?.name ?? defaultName, severity: config?.severity ?? DEFAULT_SEVERITY };
}

const RANK: Record<Severity, number> = { critical: 0, warning: 1, info: 2 };

/** Orders severities most urgent first. */
export function compareSeverity(a: Severity, b: Severity): number {
  return RANK[a] - RANK[b];
}

/**
 * The rule an alert carries when several matched one event (it still alerts once): the most severe, and
 * among equals the first in config order, so that the page goes out at the level someone asked for.
 * `matched` is in config order.
 */
export function strongestRule(matched: readonly RuleMeta[]): RuleMeta | undefined {
  let best: RuleMeta | undefined;
  for (const meta of matched) if (!best || compareSeverity(meta.severity, best.severity) < 0) best = meta;
  return best;
}
