// The watch config compiled into lookups the matcher can answer in O(1) per transaction or event, each rule
// with the metadata (rule name, severity) its alerts carry.
import type { ContractLogRule, WatchConfig } from './domain';
import { defaultRuleName, ruleMeta, type RuleMeta } from './rule-meta';

export interface CompiledLogRule extends ContractLogRule {
  meta: RuleMeta;
}

export interface WatchRules {
  addresses: ReadonlySet<string>;
  /** What every `addresses` alert carries. */
  addressesMeta: RuleMeta;
  /** What every `contracts` (status) alert carries. */
  contractsMeta: RuleMeta;
  /** contract id → the rules on its logs, in config order (several `contains` filters may watch one contract). */
  logRules: ReadonlyMap<string, readonly CompiledLogRule[]>;
}

/** `contractLogs:SP….token` or `contractLogs:SP….token contains "mint"`: stable while the rule is unchanged. */
export function defaultLogRuleName(rule: ContractLogRule): string {
  return defaultRuleName('contractLogs', rule.contains === undefined ? rule.contractId : `${rule.contractId} contains ${JSON.stringify(rule.contains)}`);
}

export function compileWatchRules(config: WatchConfig): WatchRules {
  const logRules = new Map<string, CompiledLogRule[]>();
  for (const rule of config.contractLogs) {
    const list = logRules.get(rule.contractId) ?? [];
    list.push({ ...rule, meta: ruleMeta(rule, defaultLogRuleName(rule)) });
    logRules.set(rule.contractId, list);
  }
  return {
    addresses: new Set(config.addresses),
    addressesMeta: ruleMeta(config.addressesRule, defaultRuleName('addresses')),
    contractsMeta: ruleMeta(config.contractsRule, defaultRuleName('contracts')),
    logRules,
  };
}

export function watchesLogs(rules: WatchRules): boolean {
  return rules.logRules.size > 0;
}
