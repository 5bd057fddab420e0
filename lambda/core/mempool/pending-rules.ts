// Which waiting transactions the pending rules watch: the `calls` and `transfers` rules with `"pending": true`,
// matched against the mempool list's summaries by the very predicates the block kinds use on mined
// transactions (call-predicate.ts, transfer-predicate.ts): a waiting call is a call without an outcome yet (a
// rule's `status` lets it through), a waiting STX transfer a movement. The call's arguments are not matched (the
// list leaves them out; they are read for the matching calls only).
import type { WatchRules } from '../rules/rule-lists';
import type { CompiledCallRules } from '../rules/contract-call-rules';
import type { CompiledTransfers } from '../rules/transfer-rules';
import { strongestCallRule, type CallCandidate } from '../rules/call-predicate';
import { stxTransferMove, trackedSide } from '../rules/transfer-predicate';
import type { RuleMeta } from '../stages/rule-meta';
import type { MempoolTx } from './mempool-ports';

/** The pending rules alone: a configuration without any reads no mempool. */
export interface PendingRules {
  calls: CompiledCallRules;
  transfers: CompiledTransfers;
}

/** The rules with `"pending": true`, or null when there is none. */
export function pendingRules(rules: Pick<WatchRules, 'calls' | 'transfers'>): PendingRules | null {
  const calls = new Map(
    [...rules.calls].map(([id, list]) => [id, list.filter((rule) => rule.pending === true)] as const).filter(([, list]) => list.length > 0),
  );
  // Only native STX transfers wait in the mempool as transfers (the schema allows pending on `stx` and `*` only).
  const transfers = new Map(
    [...rules.transfers]
      .filter(([asset]) => asset === 'stx' || asset === '*')
      .map(([asset, list]) => [asset, list.filter((rule) => rule.pending)] as const)
      .filter(([, list]) => list.length > 0),
  );
  return calls.size === 0 && transfers.size === 0 ? null : { calls, transfers };
}

export type PendingMatch =
  | { kind: 'call'; tx: MempoolTx; call: { contractId: string; functionName: string }; meta: RuleMeta }
  | {
      kind: 'transfer';
      tx: MempoolTx;
      transfer: { recipient: string; amount: string; memo: string | null; memoText: string | null };
      direction: 'sent' | 'received';
      address: string;
      meta: RuleMeta;
    };

/** A waiting transaction as a calls rule sees it: a call with no outcome yet. */
export function waitingCall(tx: MempoolTx): CallCandidate | null {
  if (tx.type !== 'contract_call' || !tx.contractCall) return null;
  return { contractId: tx.contractCall.contractId, functionName: tx.contractCall.functionName, sender: tx.sender, outcome: null };
}

/** The strongest pending rule `tx` meets, as what it would alert; null when none. */
export function matchPending(tx: MempoolTx, rules: PendingRules): PendingMatch | null {
  const call = waitingCall(tx);
  if (call && tx.contractCall) {
    const meta = strongestCallRule(rules.calls, call);
    return meta ? { kind: 'call', tx, call: tx.contractCall, meta } : null;
  }
  if (tx.type === 'token_transfer' && tx.tokenTransfer && rules.transfers.size > 0) {
    const move = stxTransferMove(tx.sender, tx.tokenTransfer);
    // The pending rules alone: `addresses` alerts mined transfers only.
    const tracked = trackedSide({ transfers: rules.transfers }, move);
    if (!tracked || (tracked.direction !== 'sent' && tracked.direction !== 'received')) return null;
    const { recipient, amount, memo } = tx.tokenTransfer;
    return {
      kind: 'transfer',
      tx,
      transfer: { recipient, amount, memo, memoText: move.memo().text },
      direction: tracked.direction,
      address: tracked.address,
      meta: tracked.meta,
    };
  }
  return null;
}
