// The fake chain's mempool: transactions submitted and waiting, until mined (gone from the mempool, as the
// API prunes them), dropped with one of the API's reasons, or replaced by fee (same sender and nonce, a higher
// fee: the old one is dropped `dropped_replace_by_fee` naming the new one). Served newest first by the v3
// mempool list; `/v1/tx/multiple` still finds dropped ones with their status, the v3 transaction route does not.
import { normalizeHex } from './chain';
import { sha256Hex, type FakeTxSpec } from './tx-builders';

export type FakeDropReason =
  | 'dropped_replace_by_fee'
  | 'dropped_replace_across_fork'
  | 'dropped_too_expensive'
  | 'dropped_stale_garbage_collect'
  | 'dropped_problematic';

export interface FakeMempoolTx {
  /** The spec as submitted, with its txId and nonce set: `chain.mine([it])` mines this very transaction. */
  spec: FakeTxSpec & { txId: string; nonce: number };
  /** Unix seconds the node received it. */
  receiptTime: number;
  status: 'pending' | FakeDropReason;
  replacedBy: string | null;
}

export class FakeMempool {
  private readonly txs = new Map<string, FakeMempoolTx>();
  private counter = 0;

  constructor(
    private readonly seed: string,
    /** Unix seconds of "now" on the chain: receipt times follow it. */
    private readonly now: () => number,
  ) {}

  /** Adds a waiting transaction (txId and nonce already set by the chain). */
  add(spec: FakeTxSpec & { nonce: number }, receivedAt?: number): FakeTxSpec & { txId: string; nonce: number } {
    this.counter += 1;
    const txId = spec.txId ? normalizeHex(spec.txId) : `0x${sha256Hex(`${this.seed}:mempool:${this.counter}`)}`;
    const withId = { ...spec, txId };
    this.txs.set(txId, { spec: withId, receiptTime: receivedAt ?? this.now() + this.counter, status: 'pending', replacedBy: null });
    return withId;
  }

  drop(txId: string, reason: FakeDropReason = 'dropped_stale_garbage_collect', replacedBy: string | null = null): void {
    const tx = this.txs.get(normalizeHex(txId));
    if (!tx || tx.status !== 'pending') throw new Error(`no waiting transaction ${txId} to drop`);
    tx.status = reason;
    tx.replacedBy = replacedBy;
  }

  /** Mined: the API prunes it from the mempool. */
  mined(txId: string): void {
    this.txs.delete(normalizeHex(txId));
  }

  /** A waiting or dropped transaction; undefined once mined or never seen. */
  find(txId: string): FakeMempoolTx | undefined {
    return this.txs.get(normalizeHex(txId));
  }

  /** Waiting transactions, newest first (receipt time, then tx id, descending), as the v3 list orders them. */
  pending(): FakeMempoolTx[] {
    return [...this.txs.values()].filter((tx) => tx.status === 'pending').sort((a, b) => b.receiptTime - a.receiptTime || (a.spec.txId < b.spec.txId ? 1 : -1));
  }
}
