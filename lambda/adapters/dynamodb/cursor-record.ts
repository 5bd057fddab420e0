// The cursor item: read strongly consistent, written only on the version last read, so two overlapping runs
// cannot both move it. Pending retraction keys too many for the item live in part items it names.
import { isDeepStrictEqual } from 'node:util';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import {
  CursorConflictError,
  type Cursor,
  type CursorPosition,
  type CursorWriteOptions,
  type PendingRetractions,
  type ScannedBlock,
  type TurnHandover,
} from '../../core/ports';
import type { TurnRead } from '../../core/scan/loop-turns';
import { writeStretches } from './block-stretches';
import { tickNotesOf } from './watch-point-record';
import { cursorItem, cursorUpdate, parseItem, toCursor, type UpdateParts } from './items';
import { decodeOpenStretch, encodeOpenStretch, planOpenStretch } from './open-stretch';
import { parseWindows } from './window-counts';
import { deleteKeyListParts, fitsInline, MAX_KEY_LIST_BYTES, keyListDigest, readKeyListParts, splitKeyList, writeKeyListParts } from './key-lists';
import type { ItemKey, StateKeys } from './keys';
import { callTable, isConditionalCheckFailed, type TableAccess } from './table-access';

interface PendingParts {
  parts: number;
  digest: string;
}

export class CursorRecord {
  /** The cursor version last read or written: the blocks written before the next cursor write carry the one after. */
  knownVersion = 0;
  /** Whether the stored cursor carries stages' states under `stages`, as last read or written. */
  private storedStages = false;
  /** The parts of pending retraction keys the stored cursor names (null: kept inline), as last read or written. */
  private storedPendingParts: PendingParts | null = null;
  /** The blocks of the open stretch (open-stretch.ts) on the cursor item, as last read or written. */
  openBlocks: ScannedBlock[] = [];
  /**
   * Whether the cursor item, as last read, says a block-stall record exists (`blockStalled`, set before the
   * record is written and removed after it is deleted); undefined before any read. A run that read the cursor
   * and saw no mark spares the read of the record after passing blocks (block-stall-mark.ts).
   */
  stallMarked: boolean | undefined = undefined;
  private openRead = false;

  constructor(
    private readonly table: TableAccess,
    private readonly keys: StateKeys,
  ) {}

  private pendingOwner(digest: string): ItemKey {
    return { pk: this.keys.cursor.pk, sk: `PENDING#${digest}` };
  }

  readCursor = async (): Promise<Cursor | null> => this.cursorOf(await this.readItem());

  /** The open stretch's blocks, read with the cursor if this store has not read it yet. */
  openStretch = async (): Promise<readonly ScannedBlock[]> => {
    if (!this.openRead) await this.readCursor();
    return this.openBlocks;
  };

  /** A queued loop turn's one read (lambda/core/scan/loop-turns.ts): the loop, the lease and the cursor. */
  readTurn = async (nowMs: number): Promise<TurnRead> => {
    const item = await this.readItem();
    const num = (value: unknown) => (typeof value === 'number' ? value : 0);
    const loop =
      typeof item?.loopTurn === 'string'
        ? { turn: item.loopTurn, beatAt: num(item.loopBeatAt), startedAt: num(item.loopStartedAt), restarts: num(item.loopRestarts) }
        : null;
    const leaseHeldBy = typeof item?.owner === 'string' && num(item.leaseUntil) >= nowMs ? item.owner : null;
    return { loop, leaseHeldBy, cursor: await this.cursorOf(item), notes: tickNotesOf(item) };
  };

  private async readItem(): Promise<Record<string, unknown> | undefined> {
    const { table } = this;
    const { Item } = await callTable(table, 'GetItem', () =>
      table.doc.send(new GetCommand({ TableName: table.tableName, Key: this.keys.cursor, ConsistentRead: true })),
    );
    return Item;
  }

  private async cursorOf(Item: Record<string, unknown> | undefined): Promise<Cursor | null> {
    const { table } = this;
    this.openRead = true;
    this.openBlocks = decodeOpenStretch(Item?.open);
    this.stallMarked = Item?.blockStalled === true;
    // No item, or only a lease taken before the first cursor write.
    if (!Item || Item.version === undefined) {
      this.knownVersion = 0;
      return null;
    }
    const item = parseItem(cursorItem, Item, table.tableName);
    const cursor = toCursor(item);
    if (item.windows !== undefined) cursor.windows = parseWindows(item.windows, table.tableName);
    this.knownVersion = cursor.version;
    this.storedStages = cursor.stages !== undefined;
    const { parts, digest } = item.pendingRetractions ?? {};
    const stored = parts && digest ? { parts, digest } : null;
    this.storedPendingParts = stored;
    if (cursor.pendingRetractions && stored) {
      cursor.pendingRetractions.keys = await readKeyListParts(table, this.pendingOwner(stored.digest), stored.parts);
    }
    return cursor;
  }

  writeCursor = async (next: CursorPosition, expectedVersion: number | null, options: CursorWriteOptions = {}): Promise<Cursor> => {
    const { table } = this;
    const written = cursorToWrite(next, expectedVersion);
    // The windows ride inline (bounded by the config check); pending keys go to parts sooner to leave them room.
    const windowsBytes = written.windows ? Buffer.byteLength(JSON.stringify(written.windows)) : 0;
    const inParts = await this.writePendingParts(written.pendingRetractions, windowsBytes);
    const plan = planOpenStretch(this.openBlocks, options.blocks ?? [], written.height);
    if (plan.flush.length > 0) await writeStretches(table, this.keys, plan.flush, this.knownVersion);
    if (plan.asStretches.length > 0) await writeStretches(table, this.keys, plan.asStretches, written.version);
    const extra = openAndHandover(plan.open, this.openBlocks.length > 0, options.handover);
    const update = cursorUpdate(written, expectedVersion, inParts, new Date(table.now()).toISOString(), options.releaseLeaseOf, this.storedStages, extra);
    let attempts = 0;
    try {
      await callTable(table, 'UpdateItem', (attempt) => {
        attempts = attempt;
        return table.doc.send(new UpdateCommand({ TableName: table.tableName, Key: this.keys.cursor, ...update }));
      });
    } catch (error) {
      if (!isConditionalCheckFailed(error)) throw error;
      const releasing = options.releaseLeaseOf !== undefined;
      const stored = attempts > 1 || releasing ? await this.readCursor() : undefined;
      // A retried write may be refused because its first attempt landed and only the answer was lost.
      if (attempts > 1 && isDeepStrictEqual(stored, written)) return written;
      // Refused only for the lease (another run took it after ours lapsed): move the cursor, leave the lease.
      if (releasing && (stored?.version ?? null) === expectedVersion) return this.writeCursor(next, expectedVersion, { ...options, releaseLeaseOf: undefined });
      throw new CursorConflictError(
        `the cursor was moved by another run (expected version ${expectedVersion ?? 'none'}); ` + 'this run stops and the next one resumes from the new cursor',
      );
    }
    this.knownVersion = written.version;
    this.storedStages = written.stages !== undefined;
    this.openBlocks = plan.open;
    await this.forgetPendingParts(inParts ?? null);
    return written;
  };

  /** Pending retraction keys too many for the cursor item go to part items first (unless already there). */
  private async writePendingParts(pending: PendingRetractions | undefined, besideBytes: number): Promise<PendingParts | undefined> {
    if (!pending || fitsInline(pending.keys, MAX_KEY_LIST_BYTES - besideBytes)) return undefined;
    const digest = keyListDigest(pending.keys);
    const parts = splitKeyList(pending.keys);
    if (this.storedPendingParts?.digest !== digest) await writeKeyListParts(this.table, this.pendingOwner(digest), parts, {});
    return { parts: parts.length, digest };
  }

  /** After a cursor write: the parts the replaced cursor named are nobody's now (best effort; the TTL is the backstop). */
  private async forgetPendingParts(now: PendingParts | null): Promise<void> {
    const old = this.storedPendingParts;
    this.storedPendingParts = now;
    if (!old || old.digest === now?.digest) return;
    try {
      await deleteKeyListParts(this.table, this.pendingOwner(old.digest), old.parts);
    } catch (error) {
      this.table.log('warn', 'could not delete the parts of old pending retractions; the TTL will', { error: String(error) });
    }
  }
}

/**
 * The open stretch the write stores (or removes), and a loop turn's hand-over: the token moved and the heartbeat
 * written, only while the token is still the one the turn read.
 */
function openAndHandover(open: readonly ScannedBlock[], hadOpen: boolean, handover: TurnHandover | undefined): UpdateParts {
  const parts: UpdateParts = { set: [], remove: [], conditions: [], names: {}, values: {} };
  if (open.length > 0 || hadOpen) parts.names['#open'] = 'open';
  if (open.length > 0) {
    parts.set.push('#open = :open');
    parts.values[':open'] = encodeOpenStretch(open);
  } else if (hadOpen) {
    parts.remove.push('#open');
  }
  if (handover) {
    Object.assign(parts.names, { '#turn': 'loopTurn', '#beatAt': 'loopBeatAt' });
    Object.assign(parts.values, { ':turnExpected': handover.expected, ':turnNext': handover.next, ':beatAt': handover.beatAt });
    parts.set.push('#turn = :turnNext', '#beatAt = :beatAt');
    parts.conditions.push('#turn = :turnExpected');
  }
  return parts;
}

/** A copy of the position (never shared with the caller) with the version the write will store. */
function cursorToWrite(next: CursorPosition, expectedVersion: number | null): Cursor {
  const written: Cursor = { height: next.height, hash: next.hash, time: next.time, version: (expectedVersion ?? 0) + 1 };
  if (next.pendingRetractions) {
    written.pendingRetractions = { untilHeight: next.pendingRetractions.untilHeight, keys: [...next.pendingRetractions.keys] };
  }
  if (next.windows) written.windows = structuredClone(next.windows);
  if (next.quiet) written.quiet = structuredClone(next.quiet);
  if (next.stages) written.stages = structuredClone(next.stages);
  return written;
}
