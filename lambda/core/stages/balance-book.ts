// The tracked balances of the `balances` rules as the state keeps them: the state at one block (`base`) and
// the changes of each later block that changed any (`deltas`), so that a rollback to any block of the last
// BALANCE_DELTA_BLOCKS restores the balances and the threshold sides exactly, without reading the API. A
// rollback deeper than that, like a config change, rereads (balance-tracker.ts). Pure data and folds.

/** Which side of a rule's thresholds a balance is on; an alert goes out when it moves to `below` or `above`. */
export type Zone = 'below' | 'normal' | 'above';

/** One rule's tracked balance (per rule, address and asset): `balance` less `locked` is what it compares. */
export interface BalanceEntry {
  /** Base units (micro-STX for STX, the total including what is locked), decimal string. */
  balance: string;
  /** STX held by a stacking lock, micro-STX; "0" for a token. */
  locked: string;
  /** The Bitcoin height at which the lock ends; null with nothing locked. */
  unlockBurnHeight: number | null;
  zone: Zone;
  /** What the rule watched when the balance was read (address, asset, thresholds): another config rereads. */
  fingerprint: string;
  /** The height of the block the API's balance was last read at (reconciliation counts from it). */
  readAt: number;
  /** True when the next block must reread the balance (a rollback deeper than the kept changes). */
  stale?: boolean;
}

export type Entries = Record<string, BalanceEntry>;

export interface BalanceDelta {
  height: number;
  hash: string;
  /** The entries this block changed, as they were after it. */
  entries: Entries;
}

/** A rule whose read keeps failing: how many runs in a row, and the latest cause (the operator hears of it). */
export interface UnreadRule {
  failures: number;
  cause: string;
  /** After a lasting cause (balance-retry.ts): the block before which the read is not tried again. */
  retryAt?: number;
  /** The failed tries in a row with a lasting cause, which the wait doubles with. */
  tries?: number;
}

/** What the state store keeps: one small record, written with the cursor when a balance moved. */
export interface BalanceBookRecord {
  /** The entries as of block `height` (-1: before any block). */
  base: { height: number; entries: Entries };
  /** Ascending by height, each above `base.height`. */
  deltas: BalanceDelta[];
  /** By rule key: the rules whose read failed in the last runs in a row; absent when none. */
  unread?: Record<string, UnreadRule>;
}

/** How many blocks of changes are kept: rollbacks within them are exact; deeper ones reread the API. */
export const BALANCE_DELTA_BLOCKS = 100;

export function emptyBook(): BalanceBookRecord {
  return { base: { height: -1, entries: {} }, deltas: [] };
}

/** The entries after every delta up to `height`. */
export function entriesAt(book: BalanceBookRecord, height: number): Entries {
  const entries: Entries = { ...book.base.entries };
  for (const delta of book.deltas) if (delta.height <= height) Object.assign(entries, delta.entries);
  return structuredClone(entries);
}

/**
 * The book rolled back to block `height`: the changes above it dropped. Below the base (a rollback deeper than
 * the kept changes) every entry is marked stale, so the next block rereads it, its threshold side kept.
 */
export function rolledBack(book: BalanceBookRecord, height: number): BalanceBookRecord {
  const unread = book.unread ? { unread: book.unread } : {};
  if (height >= book.base.height) return { base: book.base, deltas: book.deltas.filter((d) => d.height <= height), ...unread };
  const entries: Entries = {};
  for (const [key, entry] of Object.entries(entriesAt(book, book.base.height))) entries[key] = { ...entry, stale: true };
  return { base: { height, entries }, deltas: [], ...unread };
}

/** The changes older than `keepFrom` folded into the base, so the record stays small. */
export function pruned(book: BalanceBookRecord, keepFrom: number): BalanceBookRecord {
  const old = book.deltas.filter((d) => d.height < keepFrom);
  if (old.length === 0) return book;
  const entries = { ...book.base.entries };
  for (const delta of old) Object.assign(entries, delta.entries);
  return { ...book, base: { height: old.at(-1)!.height, entries }, deltas: book.deltas.filter((d) => d.height >= keepFrom) };
}

/** Only the entries of rules still configured (by key); a removed rule's balance is forgotten. */
export function keepOnly(book: BalanceBookRecord, keys: ReadonlySet<string>): BalanceBookRecord {
  const filter = <T>(entries: Record<string, T>) => Object.fromEntries(Object.entries(entries).filter(([key]) => keys.has(key)));
  const unread = book.unread ? filter(book.unread) : {};
  return {
    base: { height: book.base.height, entries: filter(book.base.entries) },
    deltas: book.deltas.map((d) => ({ ...d, entries: filter(d.entries) })),
    ...(Object.keys(unread).length > 0 ? { unread } : {}),
  };
}
