// The one predicate of a `transfers` rule, for every movement the watcher matches: an asset event mined in a
// block (asset-moves.ts), a native STX transfer mined (token-transfer.ts) or waiting in the mempool
// (mempool/pending-rules.ts). Each becomes an `AssetMove`, and `transferRuleFields` has a line for every field a
// transfers rule is written with (rule-predicate.ts). `addresses` (mined only) is matched beside it.
import type { AssetAction } from '../domain';
import { strongestRule, type RuleMeta } from '../stages/rule-meta';
import type { CompiledAddresses } from './address-rules';
import { readMemo, type ReadMemo } from './memo-filter';
import { RULE_META_FIELDS, rulePredicate, type RuleFields } from './rule-predicate';
import type { CompiledTransferRule, CompiledTransfers, TransferRule } from './transfer-rules';

/**
 * The rules every asset kind reads: `transfers`, and for the STX kinds `addresses` (STX arriving at them).
 * One matcher for all four kinds, so that a movement alerts under the same rule whichever kind reports it.
 */
export interface AssetRules {
  addresses?: CompiledAddresses;
  transfers: CompiledTransfers;
}

/** One asset movement as the rules see it; `amount` is null for an NFT. */
export interface AssetMove {
  /** `stx` or the token's asset id. */
  asset: string;
  action: AssetAction;
  sender: string | null;
  recipient: string | null;
  amount: string | null;
  /** Read only when a rule has a memo condition: most movements are matched on addresses alone. */
  memo: () => ReadMemo;
}

/** A movement seen from one side: a rule's `to` watches its recipient, its `from` its sender. */
export interface TransferCandidate {
  move: AssetMove;
  side: 'to' | 'from';
  /** The principal on that side. */
  principal: string;
}

export const transferRuleFields = {
  asset: 'lookup key',
  to: (rule, { side, principal }) => side !== 'to' || rule.to.has(principal),
  from: (rule, { side, principal }) => side !== 'from' || rule.from.has(principal),
  actions: (rule, { move }) => rule.actions.has(move.action),
  // NFT movements have no amount, so a rule with a threshold never matches them.
  minAmount: (rule, { move }) => rule.minAmount === null || (move.amount !== null && /^\d+$/.test(move.amount) && BigInt(move.amount) >= rule.minAmount),
  memo: (rule, { move }) => rule.memo === null || rule.memo(move.memo()),
  decimals: 'not a filter',
  symbol: 'not a filter',
  amountUnits: 'not a filter',
  pending: 'picks pending rules',
  ...RULE_META_FIELDS,
} as const satisfies RuleFields<TransferRule, CompiledTransferRule, TransferCandidate>;

export const meetsTransferRule = rulePredicate<TransferRule, CompiledTransferRule, TransferCandidate>(transferRuleFields);

/** `get` computed on the first call only. */
export function lazy<T>(get: () => T): () => T {
  let done = false;
  let value: T;
  return () => {
    if (!done) {
      value = get();
      done = true;
    }
    return value;
  };
}

/** A native STX transfer, mined or waiting, as a movement. */
export function stxTransferMove(sender: string, transfer: { recipient: string; amount: string; memo: string | null }): AssetMove {
  return { asset: 'stx', action: 'transfer', sender, recipient: transfer.recipient, amount: transfer.amount, memo: lazy(() => readMemo(transfer.memo)) };
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
 * The strongest rule in `list` that watches `principal` on `side` of the movement. The side's set lookup
 * first: the rest of the predicate runs (and the amount is parsed) only for a rule that names the principal,
 * since most events of a block concern nobody watched.
 */
function sideMatch(
  list: readonly CompiledTransferRule[] | undefined,
  move: AssetMove,
  principal: string,
  side: 'to' | 'from',
  best: CompiledTransferRule | undefined,
): CompiledTransferRule | undefined {
  if (!list) return best;
  let candidate: TransferCandidate | undefined;
  for (const rule of list) {
    if (!rule[side].has(principal)) continue;
    candidate ??= { move, side, principal };
    if (meetsTransferRule(rule, candidate)) best = stronger(best, rule);
  }
  return best;
}

/**
 * The watched principal of a movement, or null when nothing watches it. The recipient side wins when both
 * are watched: one alert per event, however many rules it matches, under the most severe of them.
 */
export function trackedSide(rules: AssetRules, move: AssetMove): Tracked | null {
  const own = rules.transfers.get(move.asset);
  const any = rules.transfers.get('*');
  const { recipient, sender } = move;
  if (recipient !== null) {
    // A burn has no recipient (AssetEvent), so `addresses` never sees one.
    const addresses = rules.addresses;
    const byAddresses =
      move.asset === 'stx' && addresses !== undefined && addresses.principals.has(recipient) && (addresses.memo === null || addresses.memo(move.memo()));
    const rule = sideMatch(any, move, recipient, 'to', sideMatch(own, move, recipient, 'to', undefined));
    if (byAddresses || rule) {
      const meta = strongestRule([...(byAddresses ? [addresses!.meta] : []), ...(rule ? [rule.meta] : [])])!;
      return { address: recipient, direction: move.action === 'mint' ? 'minted' : 'received', meta };
    }
  }
  if (sender !== null) {
    const rule = sideMatch(any, move, sender, 'from', sideMatch(own, move, sender, 'from', undefined));
    if (rule) return { address: sender, direction: move.action === 'burn' ? 'burned' : 'sent', meta: rule.meta };
  }
  return null;
}
