// Which waiting transactions the pending rules watch: the `calls` and `transfers` rules with `"pending": true`,
// matched against the mempool list's summaries the way the block kinds match mined transactions, save the
// outcome (a waiting call has none yet, so a rule's `status` does not apply) and the call's arguments (the list
// leaves them out; they are read for the matching calls only).
import type { WatchRules } from '../alert-kinds/rule-lists';
import type { CompiledCallRules } from '../alert-kinds/contract-call-rules';
import type { CompiledTransfers } from '../alert-kinds/transfer-rules';
import { lazy, trackedSide } from '../alert-kinds/asset-moves';
import { readMemo } from '../alert-kinds/memo-filter';
import { strongestRule, type RuleMeta } from '../rule-meta';
import type { MempoolTx } from './mempool-ports';

/** The pending rules alone: a configuration without any reads no mempool. */
export interface PendingRules {
  calls: CompiledCallRules;
  transfers: CompiledTransfers;
}

/** The rules with `"pending": true`, or null when there is none. */
export function pendingRules(rules: Pick<WatchRules, 'calls' | 'transfers'>): PendingRules | null {
  const calls = new Map([...rules.calls].map(([id, list]) => [id, list.filter((rule) => rule.pending === true)] as const).filter(([, list]) => list.length > 0));
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

/** The strongest pending rule `tx` meets, as what it would alert; null when none. */
export function matchPending(tx: MempoolTx, rules: PendingRules): PendingMatch | null {
  if (tx.type === 'contract_call' && tx.contractCall) {
    const { contractId, functionName } = tx.contractCall;
    const met = (rules.calls.get(contractId) ?? []).filter(
      (rule) => (!rule.functions || rule.functions.includes(functionName)) && (!rule.from || rule.from.includes(tx.sender)),
    );
    const meta = strongestRule(met.map((rule) => rule.meta));
    return meta ? { kind: 'call', tx, call: tx.contractCall, meta } : null;
  }
  if (tx.type === 'token_transfer' && tx.tokenTransfer && rules.transfers.size > 0) {
    const { recipient, amount, memo } = tx.tokenTransfer;
    const read = lazy(() => readMemo(memo));
    const tracked = trackedSide({ transfers: rules.transfers }, { asset: 'stx', action: 'transfer', sender: tx.sender, recipient, amount, memo: read });
    if (!tracked || (tracked.direction !== 'sent' && tracked.direction !== 'received')) return null;
    return {
      kind: 'transfer',
      tx,
      transfer: { recipient, amount, memo, memoText: read().text },
      direction: tracked.direction,
      address: tracked.address,
      meta: tracked.meta,
    };
  }
  return null;
}
