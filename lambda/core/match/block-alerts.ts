// The chain alerts of one block: which transactions need their events, and, given those events, every
// chain kind's matches in chain order. Generic over the kinds (alert-kinds/chain-kinds.ts); each kind sees
// the compiled rules of the lists it reads (alert-kinds/rule-lists.ts) and nothing else.
import type { Block, Network, Transaction, TxEvents } from '../domain';
import type { TxReadRequest } from '../ports';
import { chainKindList, type ChainAlert } from '../alert-kinds/chain-kinds';
import type { ChainKind, Matched } from '../alert-kinds/kind';

/**
 * The compiled rules of every configured list, by list name (compileWatchRules): the shipped lists'
 * `WatchRules`, or more when a kind is tried out beside them.
 */
type AllRules = Readonly<Record<string, unknown>>;

/** The slice of `rules` a kind reads. */
function rulesOf(kind: ChainKind<ChainAlert>, rules: AllRules): unknown {
  return Object.fromEntries(Object.keys(kind.chain.reads).map((name) => [name, rules[name]]));
}

/** The transactions whose events must be fetched: those that any kind, under its rules, needs. */
export function transactionsNeedingEvents(
  block: Block,
  rules: AllRules,
  kinds: readonly ChainKind<ChainAlert>[] = chainKindList,
): Transaction[] {
  const own = kinds.map((kind) => [kind, rulesOf(kind, rules)] as const);
  return block.transactions.filter((tx) => own.some(([kind, kindRules]) => kind.chain.needsEvents(tx, kindRules)));
}

/**
 * What the scan reads of `block`'s transactions beyond its list: the events any kind needs, and the call
 * details (arguments, result) any kind needs where the list left them out. Transactions needing neither are
 * not named.
 */
export function transactionReads(block: Block, rules: AllRules, kinds: readonly ChainKind<ChainAlert>[] = chainKindList): TxReadRequest[] {
  const own = kinds.map((kind) => [kind, rulesOf(kind, rules)] as const);
  const reads: TxReadRequest[] = [];
  for (const tx of block.transactions) {
    const events = own.some(([kind, kindRules]) => kind.chain.needsEvents(tx, kindRules));
    const call = own.some(([kind, kindRules]) => kind.chain.needsCallDetails?.(tx, kindRules) ?? false);
    if (events || call) reads.push({ txId: tx.txId, eventCount: tx.eventCount, events, ...(call ? { call } : {}) });
  }
  return reads;
}

/** By transaction, then event: the order the chain executed them in, whatever kind found them. */
function chainOrder(a: Matched<ChainAlert>, b: Matched<ChainAlert>): number {
  return a.at.txIndex - b.at.txIndex || a.at.eventIndex - b.at.eventIndex;
}

/** Every kind's matches in `block`, with where each sits, in chain order. */
export function blockMatches(
  block: Block,
  events: ReadonlyMap<string, TxEvents>,
  rules: AllRules,
  network: Network,
  kinds: readonly ChainKind<ChainAlert>[] = chainKindList,
): Matched<ChainAlert>[] {
  return kinds.flatMap((kind) => kind.chain.match?.({ block, events, rules: rulesOf(kind, rules), network }) ?? []).sort(chainOrder);
}

export function blockAlerts(
  block: Block,
  events: ReadonlyMap<string, TxEvents>,
  rules: AllRules,
  network: Network,
  kinds: readonly ChainKind<ChainAlert>[] = chainKindList,
): ChainAlert[] {
  return blockMatches(block, events, rules, network, kinds).map((matched) => matched.alert);
}
