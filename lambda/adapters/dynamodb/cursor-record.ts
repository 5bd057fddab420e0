// The cursor item: read strongly consistent, written only on the version last read, so two overlapping runs
// cannot both move it. Pending retraction keys too many for the item live in part items it names.
import { isDeepStrictEqual } from 'node:util';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { CursorConflictError, type Cursor, type CursorPosition, type PendingRetractions } from '../../core/ports';
import { cursorItem, cursorUpdate, parseItem, toCursor } from './items';
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

  constructor(
    private readonly table: TableAccess,
    private readonly keys: StateKeys,
  ) {}

  private pendingOwner(digest: string): ItemKey {
    return { pk: this.keys.cursor.pk, sk: `PENDING#${digest}` };
  }

  readCursor = async (): Promise<Cursor | null> => {
    const { table } = this;
    const { Item } = await callTable(table, 'GetItem', () =>
      table.doc.send(new GetCommand({ TableName: table.tableName, Key: this.keys.cursor, ConsistentRead: true })),
    );
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
  };

  writeCursor = async (
    next: CursorPosition,
    expectedVersion: number | null,
    options: { releaseLeaseOf?: string } = {},
  ): Promise<Cursor> => {
    const { table } = this;
    const written = cursorToWrite(next, expectedVersion);
    // The windows ride inline (bounded by the config check); pending keys go to parts sooner to leave them room.
    const windowsBytes = written.windows ? Buffer.byteLength(JSON.stringify(written.windows)) : 0;
    const inParts = await this.writePendingParts(written.pendingRetractions, windowsBytes);
    const update = cursorUpdate(written, expectedVersion, inParts, new Date(table.now()).toISOString(), options.releaseLeaseOf, this.storedStages);
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
      if (releasing && (stored?.version ?? null) === expectedVersion) return this.writeCursor(next, expectedVersion);
      throw new CursorConflictError(
        `the cursor was moved by another run (expected version ${expectedVersion ?? 'none'}); ` +
          'this run stops and the next one resumes from the new cursor',
      );
    }
    this.knownVersion = written.version;
    this.storedStages = written.stages !== undefined;
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
