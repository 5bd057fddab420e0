// Every rule list of the watch config, in the order the config schema, the "nothing to watch" check and
// `--check` name them. A new list is one module (a `RuleList`) and one line here.
import { addressesList } from './address-rules';
import { balancesList } from './balance-rules';
import { callsList } from './contract-call-rules';
import { contractLogsList, type CompiledLogRules } from './contract-log-rules';
import { contractsList } from './contract-status-rules';
import type { AnyRuleList, CompiledRules, ShapeOutput, ShapesOf } from './rule-list';
import { transfersList } from './transfer-rules';
import { windowsList } from './window-rules';
import { RuleMetaCompiler, WATCHER_RULE, type RulePolicies } from '../stages/rule-meta';
import type { Network } from '../domain';
import { lifecycleRegistries, type SbtcLifecycleSection } from '../sbtc/lifecycle-section';

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
  readonly sbtcLifecycle?: SbtcLifecycleSection;
};

/** What compiling needs: the slices of the config the lists own. */
export type RuleListsConfig<L extends readonly AnyRuleList[]> = ShapeOutput<ShapesOf<L>>;

/** Compiles every list once per run; other `lists` (a kind being tried out) add their compiled rules at run time. */
export function compileWatchRules(
  config: RuleListsConfig<RuleLists> & { network?: Network; sbtcLifecycle?: SbtcLifecycleSection },
  lists: readonly AnyRuleList[] = ruleLists,
): WatchRules {
  const meta = new RuleMetaCompiler();
  const compiled = Object.fromEntries(lists.map((list) => [list.name, list.compile(config, meta)]));
  const section = config.sbtcLifecycle;
  if (section === undefined) return { ...compiled, cooldownsAndMutes: meta.policies } as WatchRules;
  return {
    ...compiled,
    contractLogs: withSbtcRegistries(compiled.contractLogs as CompiledLogRules, section, config.network ?? 'mainnet'),
    cooldownsAndMutes: meta.policies,
    sbtcLifecycle: section,
  } as WatchRules;
}

/**
 * What the sbtcLifecycle stage needs read, declared where the scan looks for it: the registries it follows join the
 * contracts whose logs are read (in a block scan and per subject alike), with no rule of their own, so they raise
 * no contract_log alert; a config with the section alone is then read as it needs.
 */
function withSbtcRegistries(logs: CompiledLogRules, section: SbtcLifecycleSection, network: Network): CompiledLogRules {
  const missing = lifecycleRegistries(section, network, logs.keys()).filter((registry) => !logs.has(registry));
  if (missing.length === 0) return logs;
  return new Map([...logs, ...missing.map((registry) => [registry, []] as const)]);
}
