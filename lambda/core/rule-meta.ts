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
  /** false: the rule only feeds a window (`windows`, see docs/windows.md); its own alerts are not sent. */
  alert?: boolean;
}

/** The metadata an alert carries: `rule` is the rule's name, or a stable default made from what it watches. */
export interface RuleMeta {
  rule: string;
  severity: Severity;
}

/** The "list" of alerts the watcher raises itself (a deep reorg, an SMS digest): `watcher:deep_reorg`. */
export const WATCHER_RULE = 'watcher';

/**
 * Whether `rule` is a default name: a list's name and a colon, or a list's name alone, for one of `lists` (the
 * registered rule lists and the watcher's, alert-kinds/rule-lists.ts). A given name may not take that form:
 * so a rendering can tell a name someone chose (shown first in the subject, the SMS and the terminal line)
 * from a default (not shown: it only repeats what the alert says).
 */
export function isDefaultRuleName(rule: string, lists: readonly string[]): boolean {
  return lists.some((list) => rule === list || rule.startsWith(`${list}:`));
}

/** `contractLogs:SP…pox-4` or `contractLogs:SP…token contains "mint"`; the list's name alone for a whole list. */
export function defaultRuleName(list: string, detail?: string): string {
  return detail === undefined ? list : `${list}:${detail}`;
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
