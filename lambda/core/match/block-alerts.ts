// The chain alerts of one block: which transactions need their events (a kind's matcher's or a stage's), and, given those events, every
// chain kind's matches in chain order. Generic over the kinds (alert-kinds/chain-kinds.ts); each kind sees
// the compiled rules of the lists it reads (alert-kinds/rule-lists.ts) and nothing else.
import type { Block, Network, Transaction, TxEvents } from '../domain';
import type { TxReadRequest } from '../ports';
import { chainKindList, type ChainAlert } from '../alert-kinds/chain-kinds';
import type { ChainKind, Matched } from '../alert-kinds/kind';
import type { WatchRules } from '../rules/rule-lists';
import type { AnyBlockStage } from '../stages/block-stage';
import { BLOCK_STAGES } from '../stages/registry';
import { stageEventWants } from '../stages/stage-events';

/**
 * The compiled rules of every configured list, by list name (compileWatchRules): the shipped lists'
 * `WatchRules`, or more when a kind is tried out beside them.
 */
type AllRules = Readonly<Record<string, unknown>>;

/** The slice of `rules` a kind reads. */
function rulesOf(kind: ChainKind<ChainAlert>, rules: AllRules): unknown {
  return Object.fromEntries(Object.keys(kind.chain.reads).map((name) => [name, rules[name]]));
}

/** Whether any kind's matcher or any stage, under the run's rules, needs a transaction's events. */
function eventNeeds(rules: AllRules, kinds: readonly ChainKind<ChainAlert>[], stages: readonly AnyBlockStage[]): (tx: Transaction) => boolean {
  const own = kinds.flatMap((kind) => (kind.chain.needsEvents ? [[kind.chain.needsEvents, rulesOf(kind, rules)] as const] : []));
  const staged = stageEventWants(rules as unknown as WatchRules, stages);
  return (tx) => own.some(([needs, kindRules]) => needs(tx, kindRules)) || staged.some((wants) => wants(tx));
}

/** The transactions whose events must be fetched: those that any kind or stage, under the rules, needs. */
export function transactionsNeedingEvents(
  block: Block,
  rules: AllRules,
  kinds: readonly ChainKind<ChainAlert>[] = chainKindList,
  stages: readonly AnyBlockStage[] = BLOCK_STAGES,
): Transaction[] {
  return block.transactions.filter(eventNeeds(rules, kinds, stages));
}

/**
 * What the scan reads of `block`'s transactions beyond its list: the events any kind or stage needs, and the
 * call details (arguments, result) any kind needs where the list left them out. Transactions needing neither
 * are not named.
 */
export function transactionReads(
  block: Block,
  rules: AllRules,
  kinds: readonly ChainKind<ChainAlert>[] = chainKindList,
  stages: readonly AnyBlockStage[] = BLOCK_STAGES,
): TxReadRequest[] {
  const own = kinds.map((kind) => [kind, rulesOf(kind, rules)] as const);
  const needsEvents = eventNeeds(rules, kinds, stages);
  const reads: TxReadRequest[] = [];
  for (const tx of block.transactions) {
    const events = needsEvents(tx);
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
