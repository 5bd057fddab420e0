// The watch config compiled into lookups the matcher can answer in O(1) per transaction or event.
import type { ContractCallRule, ContractLogRule, WatchConfig } from './domain';
import { compileWhere, type Condition } from './clarity/conditions';

/** A log rule with its `where` compiled once, not on every log. */
export interface CompiledLogRule extends ContractLogRule {
  condition?: Condition;
}

export interface WatchRules {
  addresses: ReadonlySet<string>;
  /** contract id → the rules on its logs (several rules, each with its own filters, may watch one contract). */
  logRules: ReadonlyMap<string, readonly CompiledLogRule[]>;
  /** contract id → the rules on calls to it. */
  callRules: ReadonlyMap<string, readonly ContractCallRule[]>;
}

function byContract<R extends { contractId: string }>(rules: readonly R[]): Map<string, R[]> {
  const map = new Map<string, R[]>();
  for (const rule of rules) {
    const list = map.get(rule.contractId) ?? [];
    list.push(rule);
    map.set(rule.contractId, list);
  }
  return map;
}

export function compileWatchRules(config: WatchConfig): WatchRules {
  const logRules = config.contractLogs.map((rule): CompiledLogRule => (rule.where ? { ...rule, condition: compileWhere(rule.where) } : rule));
  return { addresses: new Set(config.addresses), logRules: byContract(logRules), callRules: byContract(config.calls ?? []) };
}

export function watchesLogs(rules: WatchRules): boolean {
  return rules.logRules.size > 0;
}
