// The items as stored, validated when read: the table is ours, but it can be edited by hand or by an older
// version of this code, and a bad item should stop the run with a message naming it rather than surface
// later as a wrong alert.
import * as z from '../../zod-mini';
import type { Cursor, ScannedBlock, StoredContractStatus } from '../../core/ports';
import type { ItemKey } from './keys';
import { encodeWindows, storedWindows } from './window-counts';

const height = z.int().check(z.nonnegative());
const nonEmpty = z.string().check(z.minLength(1));

const heightOrNull = z.nullable(height);
const optionalText = z.optional(z.string());
const heldMatch = z.object({ key: nonEmpty, tx_id: z.nullable(z.string()), block_height: height });
const tally = {
  rule: nonEmpty,
  severity: z.enum(['critical', 'warning', 'info']),
  held: z.int().check(z.nonnegative()),
  first: z.array(heldMatch),
  fromHeight: heightOrNull,
  toHeight: heightOrNull,
  until: z.number(),
  steps: z.optional(z.array(z.object({ h: height, n: z.int().check(z.nonnegative()), l: z.int().check(z.nonnegative()), to: heightOrNull }))),
  d: z.optional(height),
};
const quietItem = z.object({
  throughHeight: height,
  cooldowns: z.array(
    z.object({
      ...tally,
      startedBy: nonEmpty,
      startedAt: z.number(),
      startedHeight: z.optional(height),
      minutes: z.int().check(z.positive()),
      carried: z.optional(z.object({ recipient: optionalText, contract_id: optionalText, address: optionalText, asset_id: optionalText })),
    }),
  ),
  mutes: z.array(z.object(tally)),
  exactFrom: z.optional(height),
});

export const cursorItem = z.object({
  height,
  hash: nonEmpty,
  time: z.number(),
  version: z.int().check(z.positive()),
  pendingRetractions: z.optional(
    z.object({
      untilHeight: height,
      keys: z.array(z.string()),
      /** Set when the keys were too many for this item: they are in `parts` items named by `digest`. */
      parts: z.optional(z.int().check(z.positive())),
      digest: z.optional(nonEmpty),
    }),
  ),
  /** The windows' counts (core/stages/window-state.ts), compressed (window-counts.ts): one attribute, written with the cursor. */
  windows: z.optional(storedWindows),
  /** What rules' cooldowns and mutes hold (core/stages/cooldown-mute-state.ts). */
  quiet: z.optional(quietItem),
  /** The other stages' states kept with the cursor, by stage name, each with its version (core/stages/stage-states.ts). */
  stages: z.optional(z.record(nonEmpty, z.object({ v: z.int().check(z.positive()), state: z.unknown() }))),
});

export const scannedBlockItem = z.object({
  height,
  hash: nonEmpty,
  parentHash: z.string(),
  alertKeys: z.array(z.string()),
  /** Set when the keys were too many for this item: they are in this many part items after it. */
  parts: z.optional(z.int().check(z.positive())),
});

/** A part of a block's alert key list too long for the block's item (see key-lists.ts). */
export const scannedBlockPartItem = z.object({
  hash: nonEmpty,
  part: z.int().check(z.positive()),
  alertKeys: z.array(z.string()),
});

export const contractStatusItem = z.object({
  contractId: nonEmpty,
  found: z.boolean(),
  status: z.nullable(z.string()),
  txId: z.nullable(z.string()),
  blockHeight: z.nullable(height),
  changes: z.int().check(z.nonnegative()),
});

const alertItemCommon = {
  /** Epoch seconds (the table's TTL attribute). */
  expiresAt: z.number(),
  /** The alert JSON as published; a string so that any published value round-trips exactly. */
  alert: z.optional(z.string()),
};

export const alertItem = z.discriminatedUnion('state', [
  z.object({
    state: z.literal('pending'),
    /** Epoch ms of the claim; a claim older than the staleness limit is taken over. */
    claimedAt: z.number(),
    /** Random per claim: tells a run its own claim apart from another's (ambiguous retries, takeovers). */
    claimId: z.string(),
    ...alertItemCommon,
  }),
  z.object({ state: z.literal('sent'), sentAt: z.optional(z.number()), ...alertItemCommon }),
  z.object({ state: z.literal('retracted'), retractedAt: z.optional(z.number()), ...alertItemCommon }),
  z.object({ state: z.literal('parked'), parkedAt: z.optional(z.number()), reason: z.string(), ...alertItemCommon }),
  z.object({ state: z.literal('held'), heldAt: z.optional(z.number()), reason: z.string(), ...alertItemCommon }),
  z.object({ state: z.literal('muted'), heldAt: z.optional(z.number()), reason: z.string(), ...alertItemCommon }),
]);

export type AlertItem = z.infer<typeof alertItem>;

export class StateItemError extends Error {
  constructor(tableName: string, key: ItemKey, detail: string) {
    super(
      `DynamoDB table "${tableName}" holds an item that cannot be read (pk "${key.pk}", sk "${key.sk}"): ` +
        `${detail}. Fix or delete that item; the watcher rewrites it.`,
    );
    this.name = 'StateItemError';
  }
}

export function parseItem<S extends z.ZodMiniType>(schema: S, item: Record<string, unknown>, tableName: string): z.infer<S> {
  const parsed = schema.safeParse(item);
  if (parsed.success) return parsed.data;
  const key = { pk: String(item.pk), sk: String(item.sk) };
  throw new StateItemError(tableName, key, z.prettifyError(parsed.error).replace(/\n/g, '; '));
}

/** The cursor as stored; pending retraction keys kept in parts are the caller's to read in (`keys` is empty then). */
export function toCursor(item: z.infer<typeof cursorItem>): Cursor {
  const cursor: Cursor = { height: item.height, hash: item.hash, time: item.time, version: item.version };
  if (item.pendingRetractions) {
    cursor.pendingRetractions = { untilHeight: item.pendingRetractions.untilHeight, keys: item.pendingRetractions.keys };
  }
  if (item.quiet) cursor.quiet = structuredClone(item.quiet);
  if (item.stages) cursor.stages = structuredClone(item.stages);
  return cursor;
}

/** The cursor write's `windows` attribute: set while windows count, removed otherwise. */
function windowsUpdate(cursor: Cursor, names: Record<string, string>, values: Record<string, unknown>, set: string[], remove: string[]): void {
  names['#windows'] = 'windows';
  if (cursor.windows) {
    values[':windows'] = encodeWindows(cursor.windows);
    set.push('#windows = :windows');
  } else {
    remove.push('#windows');
  }
}

/** Pieces an update expression is made of, for a write that adds its own to the cursor's. */
export interface UpdateParts {
  set: string[];
  remove: string[];
  conditions: string[];
  names: Record<string, string>;
  values: Record<string, unknown>;
}

/** The lease's attributes on the cursor item. */
export const LEASE_NAMES = { '#owner': 'owner', '#leaseUntil': 'leaseUntil', '#acquiredAt': 'acquiredAt' };

/**
 * The cursor write as an update of the cursor item, conditional on its version: an update rather than a put,
 * so that the lease attributes on the same item are left as they are, unless `releaseLeaseOf` holds the lease,
 * in which case the same write removes them. With `inParts`, the pending retraction keys are in part items,
 * and the cursor only names them.
 */
export function cursorUpdate(
  cursor: Cursor,
  expectedVersion: number | null,
  inParts: { parts: number; digest: string } | undefined,
  updatedAt: string,
  releaseLeaseOf: string | undefined,
  /** Whether the cursor as last read or written carries stages' states (`stages`), for a write without any to remove. */
  storedStages = false,
  /** More of the same write: the open stretch, a loop turn's hand-over (cursor-record.ts). */
  extra?: UpdateParts,
) {
  const names: Record<string, string> = { '#height': 'height', '#hash': 'hash', '#time': 'time', '#version': 'version', '#updatedAt': 'updatedAt' };
  const values: Record<string, unknown> = {
    ':height': cursor.height,
    ':hash': cursor.hash,
    ':time': cursor.time,
    ':version': cursor.version,
    ':updatedAt': updatedAt,
  };
  const set = ['#height = :height', '#hash = :hash', '#time = :time', '#version = :version', '#updatedAt = :updatedAt'];
  const remove: string[] = [];
  names['#pending'] = 'pendingRetractions';
  if (cursor.pendingRetractions) {
    const { untilHeight, keys } = cursor.pendingRetractions;
    values[':pending'] = inParts ? { untilHeight, keys: [], ...inParts } : { untilHeight, keys: [...keys] };
    set.push('#pending = :pending');
  } else {
    remove.push('#pending');
  }
  windowsUpdate(cursor, names, values, set, remove);
  names['#quiet'] = 'quiet';
  if (cursor.quiet) {
    values[':quiet'] = structuredClone(cursor.quiet);
    set.push('#quiet = :quiet');
  } else {
    remove.push('#quiet');
  }
  // Named only when there are some, or the stored cursor had some: most cursors never carry any.
  if (cursor.stages || storedStages) names['#stages'] = 'stages';
  if (cursor.stages) {
    values[':stages'] = structuredClone(cursor.stages);
    set.push('#stages = :stages');
  } else if (storedStages) {
    remove.push('#stages');
  }
  const conditions = [expectedVersion === null ? 'attribute_not_exists(#version)' : '#version = :expected'];
  if (expectedVersion !== null) values[':expected'] = expectedVersion;
  if (releaseLeaseOf !== undefined) {
    Object.assign(names, LEASE_NAMES);
    values[':me'] = releaseLeaseOf;
    remove.push('#owner', '#leaseUntil', '#acquiredAt');
    conditions.push('(attribute_not_exists(#owner) OR #owner = :me)');
  }
  if (extra) {
    set.push(...extra.set);
    remove.push(...extra.remove);
    conditions.push(...extra.conditions);
    Object.assign(names, extra.names);
    Object.assign(values, extra.values);
  }
  return {
    UpdateExpression: `SET ${set.join(', ')}${remove.length > 0 ? ` REMOVE ${remove.join(', ')}` : ''}`,
    ConditionExpression: conditions.join(' AND '),
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
}

export function toScannedBlock(item: z.infer<typeof scannedBlockItem>): ScannedBlock {
  return { height: item.height, hash: item.hash, parentHash: item.parentHash, alertKeys: item.alertKeys };
}

export function toContractStatus(item: z.infer<typeof contractStatusItem>): StoredContractStatus {
  return {
    contractId: item.contractId,
    found: item.found,
    status: item.status,
    txId: item.txId,
    blockHeight: item.blockHeight,
    changes: item.changes,
  };
}
