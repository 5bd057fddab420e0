// The named records (core/state-records.ts) beside the cursor, each one item (json-record.ts) in the shape it has
// always been stored in, under its own sort key:
// - `STALL`: the runs failing at one block, written only when a run fails at a block or the first run after
//   such failures gets past it (a lost count only delays the operator's notice by a run);
// - `SMS`: what the SMS budget held back, and the loop's window (an item written before the window existed is
//   the bare tally);
// - `BALANCES`: the book of the balance rules as one JSON string (a nested map of every rule's entry would cost
//   the same and read no better), written before the cursor write that passes its blocks (core/stages/balance-book.ts
//   bounds its size);
// - `MEMPOOL`: what the pending rules saw of the mempool, bounded by the core well under the 400 KB item limit;
// - `TOKEN_DECIMALS`: the decimals read from token metadata, kept for ever (a constant of the token's contract);
// - `CHAIN_HEALTH`: chain health's state as one JSON string with its version (chain-health-record.ts);
// - `SBTC`: the sBTC lifecycle tracker as one JSON string with its version, written before the cursor write that
//   passes blocks which changed it (core/sbtc/state-bound.ts keeps it well within the item on its own).
import * as z from '../../zod-mini';
import type { BalanceBookRecord } from '../../core/stages/balance-book';
import type { MempoolState } from '../../core/mempool/mempool-ports';
import type { BlockStall, RecordStore, StateRecords } from '../../core/ports';
import type { SmsTally } from '../../core/deliver/sms-tally';
import { chainHealthRecord } from './chain-health-record';
import { sbtcTrackerRecord } from './sbtc-tracker-record';
import { parseItem } from './items';
import { jsonRecord, type RecordShape } from './json-record';
import type { StateKeys } from './keys';
import type { TableAccess } from './table-access';

const blockStallItem = z.object({ height: z.int().check(z.nonnegative()), failures: z.int().check(z.positive()), since: z.number(), cause: z.string() });

const blockStallRecord: RecordShape<BlockStall> = {
  sk: 'STALL',
  parse(item, tableName) {
    const { height, failures, since, cause } = parseItem(blockStallItem, item, tableName);
    return { height, failures, since, cause };
  },
  toItem: ({ height, failures, since, cause }) => ({ height, failures, since, cause }),
};

const height = z.nullable(z.int().check(z.nonnegative()));
const count = z.int().check(z.nonnegative());
const heldTally = z.object({
  firstKey: z.string(),
  counts: z.object({ critical: count, warning: count, info: count }),
  fromHeight: height,
  toHeight: height,
  throughHeight: height,
});
const smsTallyItem = z.object({ held: z.nullable(heldTally), window: z.optional(z.nullable(z.object({ startedAt: z.number(), texted: count }))) });

function copyHeld({ firstKey, counts, fromHeight, toHeight, throughHeight }: z.infer<typeof heldTally>): NonNullable<SmsTally['held']> {
  return { firstKey, counts: { ...counts }, fromHeight, toHeight, throughHeight };
}

const smsTallyRecord: RecordShape<SmsTally> = {
  sk: 'SMS',
  parse(item, tableName) {
    // The older shape: the tally's fields at the top of the item, no window.
    if ('firstKey' in item) return { held: copyHeld(parseItem(heldTally, item, tableName)) };
    const { held, window } = parseItem(smsTallyItem, item, tableName);
    const tally: SmsTally = { held: held ? copyHeld(held) : null };
    if (window) tally.minute = { startedAt: window.startedAt, texted: window.texted };
    return tally;
  },
  // The SMS minute keeps its older attribute name, `window`.
  toItem: (tally) => ({ held: structuredClone(tally.held), ...(tally.minute ? { window: { ...tally.minute } } : {}) }),
};

const digits = z.string().check(z.regex(/^-?\d+$/));
const entry = z.object({
  balance: digits,
  locked: digits,
  unlockBurnHeight: z.nullable(z.int()),
  zone: z.enum(['below', 'normal', 'above']),
  fingerprint: z.string(),
  readAt: z.int(),
  stale: z.optional(z.boolean()),
});
const entries = z.record(z.string(), entry);
const bookSchema = z.object({
  base: z.object({ height: z.int(), entries }),
  deltas: z.array(z.object({ height: z.int(), hash: z.string(), entries })),
  unread: z.optional(z.record(z.string(), z.object({ failures: z.int(), cause: z.string(), retryAt: z.optional(z.int()), tries: z.optional(z.int()) }))),
});

const balanceBookRecord: RecordShape<BalanceBookRecord> = {
  sk: 'BALANCES',
  parse(item, tableName) {
    const { book } = parseItem(z.object({ book: z.string() }), item, tableName);
    return parseItem(bookSchema, JSON.parse(book) as Record<string, unknown>, tableName) as BalanceBookRecord;
  },
  toItem: (book) => ({ book: JSON.stringify(book) }),
};

const trackedItem = z.object({
  txId: z.string(),
  pendingKey: z.string(),
  rule: z.string(),
  severity: z.enum(['critical', 'warning', 'info']),
  sender: z.string(),
  nonce: z.optional(z.number()),
  contractId: z.optional(z.string()),
  address: z.optional(z.string()),
  what: z.string(),
  seenAt: z.number(),
  nextCheckAt: z.number(),
  checks: z.number(),
  minedAt: z.optional(z.number()),
});
const mempoolRead = z.object({
  way: z.enum(['list', 'principals']),
  listPages: z.optional(z.object({ pages: z.number(), at: z.number() })),
});
const mempoolItem = z.object({ seen: z.array(z.string()), newest: z.optional(z.number()), tracked: z.array(trackedItem), read: z.optional(mempoolRead) });

const mempoolRecord: RecordShape<MempoolState> = {
  sk: 'MEMPOOL',
  parse(item, tableName) {
    const { seen, newest, tracked, read } = parseItem(mempoolItem, item, tableName);
    return {
      seen: [...seen],
      ...(newest === undefined ? {} : { newest }),
      tracked: tracked.map((t) => ({ ...t })),
      ...(read ? { read: structuredClone(read) } : {}),
    };
  },
  toItem: (state) => ({
    seen: [...state.seen],
    ...(state.newest === undefined ? {} : { newest: state.newest }),
    tracked: state.tracked.map((t) => ({ ...t })),
    ...(state.read ? { read: structuredClone(state.read) } : {}),
  }),
};

const tokenDecimalsItem = z.object({
  tokens: z.record(z.string(), z.object({ decimals: z.int().check(z.minimum(0), z.maximum(38)), symbol: z.optional(z.string()) })),
});

const tokenDecimalsRecord: RecordShape<StateRecords['tokenDecimals']> = {
  sk: 'TOKEN_DECIMALS',
  parse: (item, tableName) => structuredClone(parseItem(tokenDecimalsItem, item, tableName).tokens),
  toItem: (tokens) => ({ tokens: structuredClone(tokens) }),
};

/** Every named record's item: the type checker asks for a shape for each name. */
export const RECORD_SHAPES: { [N in keyof StateRecords]: RecordShape<StateRecords[N]> } = {
  blockStall: blockStallRecord,
  smsTally: smsTallyRecord,
  balances: balanceBookRecord,
  mempool: mempoolRecord,
  chainHealth: chainHealthRecord,
  tokenDecimals: tokenDecimalsRecord,
  sbtcLifecycle: sbtcTrackerRecord,
};

/** The RecordStore on the table: each name's item in its shape (RECORD_SHAPES). */
export function createStateRecords(table: TableAccess, keys: StateKeys): RecordStore {
  const records = new Map(Object.entries(RECORD_SHAPES).map(([name, shape]) => [name, jsonRecord<unknown>(table, keys, shape as RecordShape<unknown>)]));
  const record = (name: string) => records.get(name)!;
  return {
    readRecord: async (name) => (await record(name).read()) as never,
    writeRecord: (name, value) => record(name).write(value),
  };
}
