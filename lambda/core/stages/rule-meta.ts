// What a rule says about the alerts it raises: a name people recognise and a severity that routes them.
// One mechanism for every rule list: each rule (or a whole list, for lists of bare ids) may carry `name`
// and `severity`; the matcher stamps the winning rule's metadata on the alert, and the renderings and SNS
// attributes pick it up from there for every kind alike (registry.ts, render/).

export const SEVERITIES = ['critical', 'warning', 'info'] as const;
export type Severity = (typeof SEVERITIES)[number];
export const DEFAULT_SEVERITY: Severity = 'warning';

/** What a rule or a list says about itself in the watch config; all optional. */
export interface RuleMetaConfig {
  name?: string;
  severity?: Severity;
  /** false: the rule only feeds a window (`windows`, see docs/windows.md); its own alerts are not sent. */
  alert?: boolean;
  /** After an alert, the rule's further matches within this many minutes (block time) are summed up in one alert. */
  cooldownMinutes?: number;
  /** An ISO-8601 time: until then (block time) the rule's matches are recorded as muted and not sent. */
  mutedUntil?: string;
}

/** How a rule holds back its alerts (cooldowns-and-mutes.ts): a cooldown in minutes and a mute's end, in Unix seconds. */
export interface RuleCooldownMute {
  cooldownMinutes?: number;
  mutedUntil?: number;
}

/** Each rule's cooldown and mute, by the rule name its alerts carry. */
export type RulePolicies = ReadonlyMap<string, RuleCooldownMute>;

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

/** The rule's cooldown and mute, or undefined when it has neither. */
function ruleCooldownMute(config: RuleMetaConfig | undefined): RuleCooldownMute | undefined {
  const cooldownMute: RuleCooldownMute = {
    ...(config?.cooldownMinutes !== undefined ? { cooldownMinutes: config.cooldownMinutes } : {}),
    ...(config?.mutedUntil !== undefined ? { mutedUntil: Math.floor(Date.parse(config.mutedUntil) / 1000) } : {}),
  };
  return cooldownMute.cooldownMinutes !== undefined || cooldownMute.mutedUntil !== undefined ? cooldownMute : undefined;
}

/** Two rules sharing a name share one cooldown and one mute: the longest and the latest. */
function merged(a: RuleCooldownMute | undefined, b: RuleCooldownMute): RuleCooldownMute {
  const most = (x: number | undefined, y: number | undefined) => (x === undefined ? y : y === undefined ? x : Math.max(x, y));
  const cooldownMinutes = most(a?.cooldownMinutes, b.cooldownMinutes);
  const mutedUntil = most(a?.mutedUntil, b.mutedUntil);
  return { ...(cooldownMinutes !== undefined ? { cooldownMinutes } : {}), ...(mutedUntil !== undefined ? { mutedUntil } : {}) };
}

/**
 * Makes each rule's metadata while a watch config compiles (every rule list's `compile` gets one), and keeps
 * what each rule's cooldown and mute are, by rule name: `compileWatchRules` returns them as typed data beside
 * the compiled lists (WatchRules.cooldownsAndMutes), which the cooldowns and mutes stage reads.
 */
export class RuleMetaCompiler {
  private readonly byRule = new Map<string, RuleCooldownMute>();

  /** The rule's metadata (as `ruleMeta`), its cooldown and mute noted under its name. */
  of(config: RuleMetaConfig | undefined, defaultName: string): RuleMeta {
    const meta = ruleMeta(config, defaultName);
    const cooldownMute = ruleCooldownMute(config);
    if (cooldownMute) this.byRule.set(meta.rule, merged(this.byRule.get(meta.rule), cooldownMute));
    return meta;
  }

  get policies(): RulePolicies {
    return new Map(this.byRule);
  }
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
