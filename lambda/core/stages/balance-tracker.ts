// The balances of the `balances` rules, kept exactly from the blocks the scan reads: every transaction's fee
// (debited from its sponsor, else its sender), native transfers, the STX and token events of contract calls
// and deploys, and stacking locks (a lock ends at its Bitcoin height). The API's balance is read only to start
// a rule, after a gap (a rollback deeper than the kept changes, a rule changed in the config) and to
// reconcile, once per RECONCILE_BLOCKS per address; never per block (balance-reads.ts reads). One tracker per
// run, loaded from the state with the cursor, saved with it (balance-book.ts says what is kept and why).
import type { Block, PrincipalBalances, TxEvents } from '../domain';
import type { RuleMeta } from './rule-meta';
import { isOwnTransferEvent } from '../alert-kinds/listed-events';
import {
  BALANCE_DELTA_BLOCKS,
  emptyBook,
  entriesAt,
  keepOnly,
  pruned,
  rolledBack,
  type BalanceBookRecord,
  type BalanceEntry,
  type Entries,
  type UnreadRule,
  type Zone,
} from './balance-book';
import { retryAfter } from './balance-retry';

/** At most one reconciling read per address in this many blocks (about 1 to 2 hours of Nakamoto blocks). */
export const RECONCILE_BLOCKS = 720;

export interface CompiledBalanceRule {
  /** The rule's name, address and asset: its entry in the book. */
  key: string;
  address: string;
  /** `stx` or an asset id. */
  asset: string;
  below: bigint | null;
  above: bigint | null;
  decimals: number | null;
  symbol: string | null;
  meta: RuleMeta;
  /** What a stored balance must have been read for to be used (address, asset, thresholds). */
  fingerprint: string;
}

/** A balance that moved past a threshold: at a transaction, or at a read (tx null) or a lock's end. */
export interface BalanceCrossing {
  rule: CompiledBalanceRule;
  crossed: 'below' | 'above';
  threshold: bigint;
  /** The compared balance (spendable STX, or the token's), after the crossing. */
  balance: bigint;
  /** Before it; null at a first check. */
  previous: bigint | null;
  txId: string | null;
  /** What the alert key names: the transaction, or the read's block, or the lock's end. */
  cause: string;
  at: { txIndex: number; eventIndex: number };
}

const spendable = (rule: CompiledBalanceRule, entry: BalanceEntry) => BigInt(entry.balance) - (rule.asset === 'stx' ? BigInt(entry.locked) : 0n);

export function zoneOf(rule: CompiledBalanceRule, value: bigint): Zone {
  if (rule.below !== null && value < rule.below) return 'below';
  if (rule.above !== null && value > rule.above) return 'above';
  return 'normal';
}

export class BalanceTracker {
  private book: BalanceBookRecord = emptyBook();
  private current: Entries = {};
  /** Changes of the block being applied, and whether the book differs from the stored one. */
  private changed: Entries = {};
  private dirty = false;
  /** Crossings the reads before the next block found: they alert with it. */
  private readCrossings: BalanceCrossing[] = [];
  private readonly byAddress = new Map<string, CompiledBalanceRule[]>();

  constructor(readonly rules: readonly CompiledBalanceRule[]) {
    for (const rule of rules) this.byAddress.set(rule.address, [...(this.byAddress.get(rule.address) ?? []), rule]);
  }

  /** The rule's kept entry, if any. */
  entry(rule: CompiledBalanceRule): BalanceEntry | undefined {
    return this.current[rule.key];
  }

  /** The stored book, as of the cursor: changes above it (a run that died before its cursor write) dropped. */
  load(record: BalanceBookRecord | null, cursorHeight: number | null): void {
    const keys = new Set(this.rules.map((r) => r.key));
    this.book = record && cursorHeight !== null ? keepOnly(rolledBack(record, cursorHeight), keys) : emptyBook();
    this.current = entriesAt(this.book, Number.MAX_SAFE_INTEGER);
    this.dirty = false;
  }

  /** The book as kept now (the balance stage's state): the tracker adds each block's changes to it. */
  get record(): BalanceBookRecord {
    return this.book;
  }

  /** Works from `book` from now on (the balance stage's state after the block before), unless it already does. */
  adopt(book: BalanceBookRecord): void {
    if (book === this.book) return;
    this.book = book;
    this.current = entriesAt(book, Number.MAX_SAFE_INTEGER);
    this.changed = {};
  }

  /** Back to block `height` after a reorg: exact within the kept changes, a reread below them. */
  rollBack(height: number): void {
    this.book = rolledBack(this.book, height);
    this.current = entriesAt(this.book, Number.MAX_SAFE_INTEGER);
    this.dirty = true;
  }

  /** The book to store with the cursor, or null when nothing changed since it was loaded or last taken. */
  takeRecord(headHeight: number): BalanceBookRecord | null {
    if (!this.dirty) return null;
    this.book = pruned(this.book, headHeight - BALANCE_DELTA_BLOCKS + 1);
    this.dirty = false;
    return structuredClone(this.book);
  }

  /**
   * The rules whose balance must be read at block `at` (the block before the one about to be applied), in the
   * order a run's share of reads takes them: those not tracking (no balance yet, gone stale, changed in the
   * config) in config order, then those due a reconciliation, the most overdue first.
   */
  due(at: number): CompiledBalanceRule[] {
    const waiting = this.rules.filter((rule) => !this.tracking(rule));
    const reconciling = this.rules
      .filter((rule) => this.tracking(rule) && at - this.current[rule.key]!.readAt >= RECONCILE_BLOCKS)
      .sort((a, b) => this.current[a.key]!.readAt - this.current[b.key]!.readAt);
    // The rules that alert nothing until read come first; a reconciliation that waits loses nothing.
    return [...waiting, ...reconciling];
  }

  /**
   * Whether the blocks move the rule's balance: it has been read (a first check) and not gone stale or changed
   * since. A rule waiting for its read (its run's share of reads was spent, or the read failed) is left out of
   * the blocks until then: it alerts nothing, and its read starts it at the block it is made at.
   */
  tracking(rule: CompiledBalanceRule): boolean {
    const entry = this.current[rule.key];
    return entry !== undefined && !entry.stale && entry.fingerprint === rule.fingerprint;
  }

  /**
   * The balance the API read at block `at` replaces the kept one; a crossing it shows alerts with the next
   * block. Returns the kept entry when the two differed (a reconciliation that found a mismatch), else null.
   */
  reread(rule: CompiledBalanceRule, read: PrincipalBalances, at: number): BalanceEntry | null {
    const old = this.current[rule.key];
    const known = old !== undefined && old.fingerprint === rule.fingerprint;
    const entry: BalanceEntry = {
      balance: String(rule.asset === 'stx' ? read.stxTotal : (read.fts.get(rule.asset) ?? 0n)),
      locked: String(rule.asset === 'stx' ? read.stxLocked : 0n),
      unlockBurnHeight: rule.asset === 'stx' ? read.unlockBurnHeight : null,
      zone: known ? old.zone : 'normal',
      fingerprint: rule.fingerprint,
      readAt: at,
    };
    const differed = known && !old.stale && (old.balance !== entry.balance || old.locked !== entry.locked);
    this.set(rule, entry);
    if (this.book.unread?.[rule.key]) {
      const { [rule.key]: _read, ...still } = this.book.unread;
      this.book.unread = Object.keys(still).length > 0 ? still : undefined;
    }
    const crossing = this.evaluate(rule, known ? spendable(rule, old) : null, null, `read:${at}`, { txIndex: -1, eventIndex: -1 });
    if (crossing) this.readCrossings.push(crossing);
    return differed ? old : null;
  }

  /**
   * Counts a failed read of the rule in this run (one a run); a lasting cause (`lasting`: the block it was made
   * at, the lowest block the cause names) also sets when the read is tried again (balance-retry.ts).
   */
  readFailed(rule: CompiledBalanceRule, cause: string, lasting?: { at: number; retryFrom?: number }): UnreadRule {
    const before = this.book.unread?.[rule.key];
    const failures = (before?.failures ?? 0) + 1;
    const tries = lasting ? (before?.tries ?? 0) + 1 : before?.tries;
    const entry: UnreadRule = {
      failures,
      cause,
      ...(lasting ? { retryAt: retryAfter(lasting.at, tries!, lasting.retryFrom) } : before?.retryAt === undefined ? {} : { retryAt: before.retryAt }),
      ...(tries === undefined ? {} : { tries }),
    };
    this.book.unread = { ...this.book.unread, [rule.key]: entry };
    this.dirty = true;
    return entry;
  }

  /** Whether the rule's read waits past block `at` after a lasting cause. */
  waitsPast(rule: CompiledBalanceRule, at: number): boolean {
    return (this.book.unread?.[rule.key]?.retryAt ?? Number.NEGATIVE_INFINITY) > at;
  }

  /** The crossings of `block`: the reads' first, then each transaction's in chain order. */
  apply(block: Block, events: ReadonlyMap<string, TxEvents>): BalanceCrossing[] {
    const crossings = this.readCrossings;
    this.readCrossings = [];
    this.unlocks(block, crossings);
    for (const tx of block.transactions) {
      const before = new Map<string, bigint>();
      const move = (address: string | null, asset: string, delta: bigint) => {
        if (address === null || delta === 0n) return;
        for (const rule of this.byAddress.get(address) ?? []) {
          if (rule.asset !== asset || !this.tracking(rule)) continue;
          const entry = this.current[rule.key]!;
          if (!before.has(rule.key)) before.set(rule.key, spendable(rule, entry));
          this.set(rule, { ...entry, balance: String(BigInt(entry.balance) + delta) });
        }
      };
      move(tx.sponsor ?? tx.sender, 'stx', -BigInt(tx.fee ?? '0'));
      if (tx.txStatus === 'success') this.txMoves(tx, events.get(tx.txId), move, before);
      for (const rule of this.rules) {
        const previous = before.get(rule.key);
        if (previous === undefined) continue;
        const crossing = this.evaluate(rule, previous, tx.txId, tx.txId, { txIndex: tx.txIndex, eventIndex: -1 });
        if (crossing) crossings.push(crossing);
      }
    }
    if (Object.keys(this.changed).length > 0) {
      this.book.deltas.push({ height: block.header.height, hash: block.header.hash, entries: this.changed });
      this.changed = {};
      this.dirty = true;
    }
    return crossings;
  }

  /** A native transfer from the block's list; every other movement and lock from the transaction's events. */
  private txMoves(
    tx: Block['transactions'][number],
    txEvents: TxEvents | undefined,
    move: (address: string | null, asset: string, delta: bigint) => void,
    before: Map<string, bigint>,
  ): void {
    if (tx.txType === 'token_transfer' && tx.tokenTransfer) {
      move(tx.sender, 'stx', -BigInt(tx.tokenTransfer.amount));
      move(tx.tokenTransfer.recipient, 'stx', BigInt(tx.tokenTransfer.amount));
    }
    // Any type may carry events beyond its listing (block 1's token_transfer holds the genesis mints); a native
    // transfer's own event is the transaction counted above.
    for (const event of txEvents?.assets ?? []) {
      if (event.asset === 'nft' || isOwnTransferEvent(tx, event)) continue;
      const asset = event.asset === 'stx' ? 'stx' : event.assetId;
      move(event.sender, asset, -BigInt(event.amount));
      move(event.recipient, asset, BigInt(event.amount));
    }
    for (const lock of txEvents?.locks ?? []) {
      for (const rule of this.byAddress.get(lock.address) ?? []) {
        if (rule.asset !== 'stx' || !this.tracking(rule)) continue;
        const entry = this.current[rule.key]!;
        if (!before.has(rule.key)) before.set(rule.key, spendable(rule, entry));
        this.set(rule, { ...entry, locked: lock.amount, unlockBurnHeight: lock.unlockBurnHeight });
      }
    }
  }

  /** Locks whose Bitcoin height the block has reached: their STX are spendable from this block on. */
  private unlocks(block: Block, crossings: BalanceCrossing[]): void {
    const burnHeight = block.header.burnHeight;
    if (burnHeight === undefined) return;
    for (const rule of this.rules) {
      const entry = this.current[rule.key];
      if (!entry || !this.tracking(rule) || entry.unlockBurnHeight === null || burnHeight < entry.unlockBurnHeight) continue;
      const previous = spendable(rule, entry);
      this.set(rule, { ...entry, locked: '0', unlockBurnHeight: null });
      const crossing = this.evaluate(rule, previous, null, `unlock:${block.header.height}`, { txIndex: -1, eventIndex: -1 });
      if (crossing) crossings.push(crossing);
    }
  }

  /** The crossing when the rule's balance has moved to `below` or `above` from another side; the side kept. */
  private evaluate(rule: CompiledBalanceRule, previous: bigint | null, txId: string | null, cause: string, at: BalanceCrossing['at']): BalanceCrossing | null {
    const entry = this.current[rule.key]!;
    const value = spendable(rule, entry);
    const zone = zoneOf(rule, value);
    const was = entry.zone;
    if (zone === was) return null;
    this.set(rule, { ...entry, zone });
    if (zone === 'normal') return null;
    const threshold = zone === 'below' ? rule.below! : rule.above!;
    return { rule, crossed: zone, threshold, balance: value, previous, txId, cause, at };
  }

  private set(rule: CompiledBalanceRule, entry: BalanceEntry): void {
    this.current[rule.key] = entry;
    this.changed[rule.key] = entry;
  }
}
