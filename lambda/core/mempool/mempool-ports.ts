// The mempool as the core sees it: what the API lists as waiting (newest first), what became of a transaction
// that was waiting, and the small state that remembers which waiting transactions were seen and alerted.
// Apart from ports.ts because only the pending rules (`"pending": true`, docs/pending.md) use them.

/** A transaction waiting in the mempool, as the API's mempool list gives it (a summary: no call arguments). */
export interface MempoolTx {
  txId: string;
  type: 'contract_call' | 'token_transfer';
  sender: string;
  nonce: number;
  /** micro-STX, decimal string. */
  fee: string;
  /** Unix seconds when the API's node received it. */
  receivedAt: number;
  contractCall?: { contractId: string; functionName: string };
  /** `memo` is 0x hex, null when the transaction carried none. */
  tokenTransfer?: { recipient: string; amount: string; memo: string | null };
}

/** The reasons Hiro gives for a transaction that left the mempool unmined (its `tx_status`). */
export const DROP_REASONS = [
  'dropped_replace_by_fee',
  'dropped_replace_across_fork',
  'dropped_too_expensive',
  'dropped_stale_garbage_collect',
  'dropped_problematic',
] as const;
export type DropReason = (typeof DROP_REASONS)[number];

/**
 * What became of a transaction that was waiting: still `pending`; `mined` (the block scan alerts it); `dropped`
 * with the API's reason (null when the route read does not say: only the v1 routes keep dropped transactions);
 * or `unknown` (the API does not know it now: asked again later).
 */
export type PendingTxStatus =
  | { state: 'pending' }
  | { state: 'mined' }
  | { state: 'dropped'; reason: DropReason | null; replacedBy: string | null }
  | { state: 'unknown' };

/** Where a mempool read stops: see `readMempool`. */
export interface MempoolReadOptions {
  stopAt: ReadonlySet<string>;
  receivedFrom: number | null;
  maxPages: number;
}

export interface MempoolApi {
  /**
   * The mempool's newest contract calls and STX transfers, newest first, page after page until a transaction in
   * `stopAt` (seen by an earlier run) or one received before `receivedFrom` (unix s; the newest an earlier run
   * saw, so read then or gone since), the list's end, or `maxPages` pages.
   */
  readMempool(options: MempoolReadOptions): Promise<MempoolTx[]>;
  /**
   * The calls and STX transfers waiting for any of `principals` (its sender, a transfer's recipient, the called
   * contract), from each principal's own mempool route, each walked as `readMempool` walks the list, merged
   * newest first; null when the API has no such route (the caller reads the list). Absent: the list only.
   */
  readPrincipalsMempool?(principals: readonly string[], options: MempoolReadOptions): Promise<MempoolTx[] | null>;
  /** What became of each transaction (as few requests as the routes allow). */
  readPendingStatuses(txIds: readonly string[]): Promise<Map<string, PendingTxStatus>>;
  /** Waiting calls' arguments as Clarity text, which the mempool list leaves out; null (or absent) when not given. */
  readPendingCallArgs(txIds: readonly string[]): Promise<Map<string, string[] | null>>;
}

/** A waiting transaction that raised a pending alert, followed until it is mined or dropped. */
export interface TrackedPending {
  txId: string;
  /** The pending alert's key: the mined alert carries it as `pending_key`, a drop alert names it. */
  pendingKey: string;
  rule: string;
  severity: 'critical' | 'warning' | 'info';
  sender: string;
  /** The sender's nonce: a new waiting transaction with the same sender and nonce replaces it (read its status at once). */
  nonce?: number;
  /** The called contract, or the watched address of a transfer: the drop alert carries it for subscription filters. */
  contractId?: string;
  address?: string;
  /** What the transaction does, in words (`set-owner on SP….vault`, `250 STX to SP…`), for the drop alert. */
  what: string;
  /** Epoch ms when first seen waiting. */
  seenAt: number;
  /** Epoch ms before which its status is not read again (the wait doubles, up to a cap). */
  nextCheckAt: number;
  /** Status reads so far. */
  checks: number;
  /** Epoch ms a status read first found it mined: let go at the next read (the scan names it, or its rules do not). */
  minedAt?: number;
}

/** What the watcher keeps of the mempool between runs: small and bounded (docs/pending.md). */
export interface MempoolState {
  /** Ids of the newest transactions seen in the list, newest first: the next read stops at them. */
  seen: string[];
  /** The newest receipt time seen (unix s): the next read stops at anything older, when every seen one is gone. */
  newest?: number;
  /** Waiting transactions that alerted, until mined, dropped or expired. */
  tracked: TrackedPending[];
  /** How the last read went (the whole list or per principal), and the list's pages a run as last measured, at epoch ms. */
  read?: { way: 'list' | 'principals'; listPages?: { pages: number; at: number } };
}
