// The watch config compiled into lookups the matcher can answer in O(1) per transaction or event, each rule
// with the metadata (rule name, severity) its alerts carry.
import type { AssetAction } from './domain';
import type { ContractCallRule } from './alert-kinds/contract-call-rules';
import type { ContractLogRule } from './alert-kinds/contract-log-rules';
import type { TransferRule } from './alert-kinds/transfer-rules';
import type { WatchConfig } from '../config/watch-config-schema';
import { compileWhere, type Condition } from './clarity/conditions';
import { defaultRuleName, ruleMeta, strongestRule, type RuleMeta } from './rule-meta';

/** A log rule with its `where` compiled once, not on every log. */
export interface CompiledLogRule extends ContractLogRule {
  condition?: Condition;
  meta: RuleMeta;
}

export interface CompiledCallRule extends ContractCallRule {
  meta: RuleMeta;
}

/** A transfer rule with its threshold as a bigint: amounts can exceed 2^53. */
export interface CompiledTransferRule {
  to: ReadonlySet<string>;
  from: ReadonlySet<string>;
  minAmount: bigint | null;
  actions: ReadonlySet<AssetAction>;
  decimals?: number;
  symbol?: string;
  meta: RuleMeta;
  /** Position in the config's `transfers` list: among equally severe rules, the first one names the alert. */
  index: number;
}

export interface WatchRules {
  addresses: ReadonlySet<string>;
  /** What every `addresses` alert carries. */
  addressesMeta: RuleMeta;
  /** What every `contracts` (status) alert carries. */
  contractsMeta: RuleMeta;
  /** contract id → the rules on its logs, in config order (several rules, each with its own filters, may watch one contract). */
  logRules: ReadonlyMap<string, readonly CompiledLogRule[]>;
  /** contract id → the rules on calls to it, in config order. */
  callRules: ReadonlyMap<string, readonly CompiledCallRule[]>;
  /** asset (`stx`, an asset id, or `*`) → its transfer rules, in config order. */
  transferRules: ReadonlyMap<string, readonly CompiledTransferRule[]>;
}

// Default names say what the rule watches, stable while the rule is unchanged (an SNS filter may name them).

/** `contractLogs:SP….token`, with ` contains "mint"` and ` where {...}` when the rule has them. */
export function defaultLogRuleName(rule: ContractLogRule): string {
  const contains = rule.contains === undefined ? '' : ` contains ${JSON.stringify(rule.contains)}`;
  const where = rule.where === undefined ? '' : ` where ${JSON.stringify(rule.where)}`;
  return defaultRuleName('contractLogs', `${rule.contractId}${contains}${where}`);
}

/** `transfers:stx to SP…A,SP…B from SP…C`. */
export function defaultTransferRuleName(rule: TransferRule): string {
  const to = rule.to.length > 0 ? ` to ${rule.to.join(',')}` : '';
  const from = rule.from.length > 0 ? ` from ${rule.from.join(',')}` : '';
  return defaultRuleName('transfers', `${rule.asset}${to}${from}`);
}

/** `calls:SP….vault withdraw,deposit failed`. */
export function defaultCallRuleName(rule: ContractCallRule): string {
  const functions = rule.functions ? ` ${rule.functions.join(',')}` : '';
  const from = rule.from ? ` from ${rule.from.join(',')}` : '';
  const status = rule.status === 'any' ? '' : ` ${rule.status}`;
  return defaultRuleName('calls', `${rule.contractId}${functions}${from}${status}`);
}

function groupBy<R, K>(rules: readonly R[], keyOf: (rule: R) => K): Map<K, R[]> {
  const map = new Map<K, R[]>();
  for (const rule of rules) {
    const key = keyOf(rule);
    const list = map.get(key) ?? [];
    list.push(rule);
    map.set(key, list);
  }
  return map;
}

export function compileWatchRules(config: WatchConfig): WatchRules {
  const logRules = config.contractLogs.map(
    (rule): CompiledLogRule => ({
      ...rule,
      ...(rule.where ? { condition: compileWhere(rule.where) } : {}),
      meta: ruleMeta(rule, defaultLogRuleName(rule)),
    }),
  );
  const callRules = (config.calls ?? []).map((rule): CompiledCallRule => ({ ...rule, meta: ruleMeta(rule, defaultCallRuleName(rule)) }));
  const transferRules = new Map(
    [...groupBy(config.transfers, (rule) => rule.asset)].map(([asset, list]) => [asset, list.map((rule) => compileTransferRule(rule, config.transfers.indexOf(rule)))] as const),
  );
  return {
    addresses: new Set(config.addresses),
    addressesMeta: ruleMeta(config.addressesRule, defaultRuleName('addresses')),
    contractsMeta: ruleMeta(config.contractsRule, defaultRuleName('contracts')),
    logRules: groupBy(logRules, (rule) => rule.contractId),
    callRules: groupBy(callRules, (rule) => rule.contractId),
    transferRules,
  };
}

function compileTransferRule(rule: TransferRule, index: number): CompiledTransferRule {
  return {
    to: new Set(rule.to),
    from: new Set(rule.from),
    minAmount: rule.minAmount === undefined ? null : BigInt(rule.minAmount),
    actions: new Set(rule.actions),
    ...(rule.decimals === undefined ? {} : { decimals: rule.decimals }),
    ...(rule.symbol === undefined ? {} : { symbol: rule.symbol }),
    meta: ruleMeta(rule, defaultTransferRuleName(rule)),
    index,
  };
}

export function watchesLogs(rules: WatchRules): boolean {
  return rules.logRules.size > 0;
}

/** Whether any asset movement can alert: STX to `addresses`, or a `transfers` rule. */
export function watchesAssets(rules: WatchRules): boolean {
  return rules.addresses.size > 0 || rules.transferRules.size > 0;
}

/** One asset movement as the rules see it; `amount` is null for an NFT. */
export interface AssetMove {
  /** `stx` or the token's asset id. */
  asset: string;
  action: AssetAction;
  sender: string | null;
  recipient: string | null;
  amount: string | null;
}

export type Direction = 'received' | 'sent' | 'minted' | 'burned';

/** Which watched principal a movement concerns, how it moved for that principal, and the rule it alerts under. */
export interface Tracked {
  address: string;
  direction: Direction;
  meta: RuleMeta;
}

/** The better of two matched rules: the more severe, then the first in config order (rule-meta.ts). */
function stronger(best: CompiledTransferRule | undefined, rule: CompiledTransferRule): CompiledTransferRule {
  if (!best) return rule;
  const [first, second] = best.index <= rule.index ? [best, rule] : [rule, best];
  return strongestRule([first.meta, second.meta]) === first.meta ? first : second;
}

/**
 * The strongest rule in `list` that watches `principal` on `side` of the movement. Set lookups first: the
 * amount is parsed only for a rule that names the principal, since most events of a block concern nobody
 * watched; nothing is allocated per event.
 */
function sideMatch(
  list: readonly CompiledTransferRule[] | undefined,
  move: AssetMove,
  principal: string,
  side: 'to' | 'from',
  best: CompiledTransferRule | undefined,
): CompiledTransferRule | undefined {
  if (!list) return best;
  for (const rule of list) {
    if (!rule[side].has(principal) || !rule.actions.has(move.action)) continue;
    // NFT movements have no amount, so a rule with a threshold never matches them.
    if (rule.minAmount !== null && !(move.amount !== null && /^\d+$/.test(move.amount) && BigInt(move.amount) >= rule.minAmount)) continue;
    best = stronger(best, rule);
  }
  return best;
}

/**
 * The watched principal of a movement, or null when nothing watches it. The recipient side wins when both
 * are watched: one alert per event, however many rules it matches, under the most severe of them.
 */
export function trackedSide(rules: WatchRules, move: AssetMove): Tracked | null {
  const own = rules.transferRules.get(move.asset);
  const any = rules.transferRules.get('*');
  const { recipient, sender } = move;
  if (recipient !== null) {
    const byAddresses = move.asset === 'stx' && move.action !== 'burn' && rules.addresses.has(recipient);
    const rule = sideMatch(any, move, recipient, 'to', sideMatch(own, move, recipient, 'to', undefined));
    if (byAddresses || rule) {
      const meta = strongestRule([...(byAddresses ? [rules.addressesMeta] : []), ...(rule ? [rule.meta] : [])])!;
      return { address: recipient, direction: move.action === 'mint' ? 'minted' : 'received', meta };
    }
  }
  if (sender !== null) {
    const rule = sideMatch(any, move, sender, 'from', sideMatch(own, move, sender, 'from', undefined));
    if (rule) return { address: sender, direction: move.action === 'burn' ? 'burned' : 'sent', meta: rule.meta };
  }
  return null;
}

/** How a token's amounts read, from the first rule on its asset id that says (null fields when none does). */
export function tokenDisplay(rules: WatchRules, assetId: string): { decimals: number | null; symbol: string | null } {
  const list = rules.transferRules.get(assetId) ?? [];
  return {
    decimals: list.find((rule) => rule.decimals !== undefined)?.decimals ?? null,
    symbol: list.find((rule) => rule.symbol !== undefined)?.symbol ?? null,
  };
}
