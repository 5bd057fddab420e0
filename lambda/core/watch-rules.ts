// The watch config compiled into lookups the matcher can answer in O(1) per transaction or event.
import type { AssetAction, ContractCallRule, ContractLogRule, TransferRule, WatchConfig } from './domain';
import { compileWhere, type Condition } from './clarity/conditions';

/** A log rule with its `where` compiled once, not on every log. */
export interface CompiledLogRule extends ContractLogRule {
  condition?: Condition;
}

/** A transfer rule with its threshold as a bigint: amounts can exceed 2^53. */
export interface CompiledTransferRule {
  to: ReadonlySet<string>;
  from: ReadonlySet<string>;
  minAmount: bigint | null;
  actions: ReadonlySet<AssetAction>;
  decimals?: number;
  symbol?: string;
}

export interface WatchRules {
  addresses: ReadonlySet<string>;
  /** contract id → the rules on its logs (several rules, each with its own filters, may watch one contract). */
  logRules: ReadonlyMap<string, readonly CompiledLogRule[]>;
  /** contract id → the rules on calls to it. */
  callRules: ReadonlyMap<string, readonly ContractCallRule[]>;
  /** asset (`stx`, an asset id, or `*`) → its transfer rules. */
  transferRules: ReadonlyMap<string, readonly CompiledTransferRule[]>;
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
  const logRules = config.contractLogs.map((rule): CompiledLogRule => (rule.where ? { ...rule, condition: compileWhere(rule.where) } : rule));
  const transferRules = new Map(
    [...groupBy(config.transfers, (rule) => rule.asset)].map(([asset, list]) => [asset, list.map(compileTransferRule)] as const),
  );
  return {
    addresses: new Set(config.addresses),
    logRules: groupBy(logRules, (rule) => rule.contractId),
    callRules: groupBy(config.calls ?? [], (rule) => rule.contractId),
    transferRules,
  };
}

function compileTransferRule(rule: TransferRule): CompiledTransferRule {
  return {
    to: new Set(rule.to),
    from: new Set(rule.from),
    minAmount: rule.minAmount === undefined ? null : BigInt(rule.minAmount),
    actions: new Set(rule.actions),
    ...(rule.decimals === undefined ? {} : { decimals: rule.decimals }),
    ...(rule.symbol === undefined ? {} : { symbol: rule.symbol }),
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

/** Which watched principal a movement concerns, and how it moved for that principal. */
export interface Tracked {
  address: string;
  direction: Direction;
}

/**
 * Whether a rule in `list` watches `principal` on `side` of the movement. Set lookups first: the amount is
 * parsed only for a rule that names the principal, since most events of a block concern nobody watched.
 */
function sideMatches(list: readonly CompiledTransferRule[] | undefined, move: AssetMove, principal: string, side: 'to' | 'from'): boolean {
  if (!list) return false;
  for (const rule of list) {
    if (!rule[side].has(principal) || !rule.actions.has(move.action)) continue;
    if (rule.minAmount === null) return true;
    // NFT movements have no amount, so a rule with a threshold never matches them.
    if (move.amount !== null && /^\d+$/.test(move.amount) && BigInt(move.amount) >= rule.minAmount) return true;
  }
  return false;
}

/**
 * The watched principal of a movement, or null when nothing watches it. The recipient side wins when both
 * are watched: one alert per event, however many rules it matches.
 */
export function trackedSide(rules: WatchRules, move: AssetMove): Tracked | null {
  const own = rules.transferRules.get(move.asset);
  const any = rules.transferRules.get('*');
  const { recipient, sender } = move;
  if (
    recipient !== null &&
    ((move.asset === 'stx' && move.action !== 'burn' && rules.addresses.has(recipient)) ||
      sideMatches(own, move, recipient, 'to') ||
      sideMatches(any, move, recipient, 'to'))
  ) {
    return { address: recipient, direction: move.action === 'mint' ? 'minted' : 'received' };
  }
  if (sender !== null && (sideMatches(own, move, sender, 'from') || sideMatches(any, move, sender, 'from'))) {
    return { address: sender, direction: move.action === 'burn' ? 'burned' : 'sent' };
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
