// The chain alerts of one block: which transactions need their events, and, given those events, every
// chain kind's matches in chain order. Generic over the kinds (alert-kinds/chain-kinds.ts).
import type { Block, Network, Transaction, TxEvents } from './domain';
import type { ChainAlert } from './alert-kinds/alert';
import { chainKindList } from './alert-kinds/chain-kinds';
import type { ChainKind, Matched } from './alert-kinds/kind';
import type { WatchRules } from './watch-rules';

/** The transactions whose events must be fetched: those that any kind, under this watch config, needs. */
export function transactionsNeedingEvents(
  block: Block,
  rules: WatchRules,
  kinds: readonly ChainKind<ChainAlert>[] = chainKindList,
): Transaction[] {
  return block.transactions.filter((tx) => kinds.some((kind) => kind.chain.needsEvents(tx, rules)));
}

/** By transaction, then event: the order the chain executed them in, whatever kind found them. */
function chainOrder(a: Matched<ChainAlert>, b: Matched<ChainAlert>): number {
  return a.at.txIndex - b.at.txIndex || a.at.eventIndex - b.at.eventIndex;
}

export function blockAlerts(
  block: Block,
  events: ReadonlyMap<string, TxEvents>,
  rules: WatchRules,
  network: Network,
  kinds: readonly ChainKind<ChainAlert>[] = chainKindList,
): ChainAlert[] {
  const input = { block, events, rules, network };
  return kinds
    .flatMap((kind) => kind.chain.match(input))
    .sort(chainOrder)
    .map((matched) => matched.alert);
}
