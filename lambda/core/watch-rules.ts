// The watch config compiled into lookups the matcher can answer in O(1) per transaction or event.
import type { ContractLogRule, WatchConfig } from './domain';

export interface WatchRules {
  addresses: ReadonlySet<string>;
  /** contract id → the rules on its logs (several `contains` filters may watch one contract). */
  logRules: ReadonlyMap<string, readonly ContractLogRule[]>;
}

export function compileWatchRules(config: WatchConfig): WatchRules {
  const logRules = new Map<string, ContractLogRule[]>();
  for (const rule of config.contractLogs) {
    const list = logRules.get(rule.contractId) ?? [];
    list.push(rule);
    logRules.set(rule.contractId, list);
  }
  return { addresses: new Set(config.addresses), logRules };
}

export function watchesLogs(rules: WatchRules): boolean {
  return rules.logRules.size > 0;
}
