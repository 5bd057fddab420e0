// Every rule list of the watch config, in the order the config schema, the "nothing to watch" check and
// `--check` name them. A new list is one module (a `RuleList`) and one line here.
import { addressesList } from './address-rules';
import { balancesList } from './balance-rules';
import { callsList } from './contract-call-rules';
import { contractLogsList } from './contract-log-rules';
import { contractsList } from './contract-status-rules';
import type { AnyRuleList, CompiledRules, ShapeOutput, ShapesOf } from './rule-list';
import { transfersList } from './transfer-rules';
import { windowsList } from './window-rules';
import { RuleMetaCompiler, WATCHER_RULE, type RulePolicies } from '../stages/rule-meta';

export const ruleLists = [contractsList, addressesList, contractLogsList, transfersList, callsList, windowsList, balancesList] as const;

export type RuleLists = typeof ruleLists;

/** The prefixes of default rule names (rule-meta.ts): `lists`' names and the watcher's. */
export function defaultNamePrefixes(lists: readonly AnyRuleList[] = ruleLists): string[] {
  return [...lists.map((list) => list.name), WATCHER_RULE];
}

/**
 * The watch config compiled into lookups the matchers answer in O(1) per transaction or event, by list name,
 * and every rule's cooldown and mute by rule name (the cooldowns and mutes stage's settings). Immutable data:
 * what a run remembers across blocks lives in the stages (core/stages/).
 */
export type WatchRules = CompiledRules<RuleLists> & {
  readonly cooldownsAndMutes: RulePolicies;
  /** The config's `sbtcLifecycle` section: present when the sBTC deadline alerts are asked for (stages/sbtc-lifecycle.ts). */
  readonly sbtcLifecycle?: object;
};

/** What compiling needs: the slices of the config the lists own. */
export type RuleListsConfig<L extends readonly AnyRuleList[]> = ShapeOutput<ShapesOf<L>>;

/** Compiles every list once per run; other `lists` (a kind being tried out) add their compiled rules at run time. */
export function compileWatchRules(config: RuleListsConfig<RuleLists> & { sbtcLifecycle?: object }, lists: readonly AnyRuleList[] = ruleLists): WatchRules {
  const meta = new RuleMetaCompiler();
  const compiled = Object.fromEntries(lists.map((list) => [list.name, list.compile(config, meta)]));
  const switches = config.sbtcLifecycle === undefined ? {} : { sbtcLifecycle: config.sbtcLifecycle };
  return { ...compiled, cooldownsAndMutes: meta.policies, ...switches } as WatchRules;
}
