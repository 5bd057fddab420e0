// The StateStore on one DynamoDB table (layout in keys.ts). Every decision the cycle makes on state, such
// as who runs, how far the cursor is, whether an alert went out, rests on a conditional write or a
// strongly consistent read, so overlapping runs, retries and crashes cannot double-alert or skip a block.
import { isDeepStrictEqual } from 'node:util';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { Network } from '../../core/domain';
import { CursorConflictError, type Cursor, type CursorPosition, type PendingRetractions, type StateStore, type Telemetry } from '../../core/ports';
import { realSleep, type RetryPolicy, type Sleep } from '../aws/retry';
import { createAlertRecords } from './alert-records';
import { createBlockStallRecord } from './block-stall';
import { readStretches, writeStretches } from './block-stretches';
import { contractStatusItem, cursorItem, cursorUpdate, LEASE_NAMES, parseItem, toContractStatus, toCursor } from './items';
import { deleteKeyListParts, fitsInline, keyListDigest, readKeyListParts, splitKeyList, writeKeyListParts } from './key-lists';
import { stateKeys, type ItemKey } from './keys';
import { callTable, isConditionalCheckFailed, type TableAccess } from './table-access';

export interface DynamoStateStoreOptions {
  client: DynamoDBClient | DynamoDBDocumentClient;
  tableName: string;
  network: Network;
  log?: Telemetry['log'];
  /** Waits between retries; tests pass one that does not wait. */
  sleep?: Sleep;
  /** Epoch ms, for the timestamps of writes whose port method is not given the time. */
  now?: () => number;
  /** How long alert records and scanned blocks are kept before the table's TTL deletes them. */
  ttlDays?: number;
  /** Retries on top of the SDK's own; the default rides out about a second of throttling. */
  retry?: RetryPolicy;
}

export const DEFAULT_DYNAMO_RETRY: RetryPolicy = { maxAttempts: 4, baseDelayMs: 50, maxDelayMs: 1_000 };

function documentClient(client: DynamoDBClient | DynamoDBDocumentClient): DynamoDBDocumentClient {
  if (client instanceof DynamoDBDocumentClient) return client;
  return DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
}

export function createDynamoStateStore(options: DynamoStateStoreOptions): StateStore {
  const table: TableAccess = {
    doc: documentClient(options.client),
    tableName: options.tableName,
    log: options.log ?? (() => {}),
    sleep: options.sleep ?? realSleep,
    now: options.now ?? Date.now,
    ttlSeconds: Math.round((options.ttlDays ?? 30) * 86_400),
    retry: options.retry ?? DEFAULT_DYNAMO_RETRY,
  };
  const keys = stateKeys(options.network);
  const TableName = table.tableName;

  /** Every page of a Query, each page retried on its own (the SDK paginator would retry none of them). */
  async function queryAll(input: Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey'>) {
    const items: Record<string, unknown>[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await callTable(table, 'Query', () =>
        table.doc.send(new QueryCommand({ ...input, TableName, ExclusiveStartKey: startKey })),
      );
      items.push(...(page.Items ?? []));
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    return items;
  }

  /** The cursor version last read or written: the blocks written before the next cursor write carry the one after. */
  let knownVersion = 0;

  /** The parts of pending retraction keys the stored cursor names (null: kept inline), as last read or written. */
  let storedPendingParts: { parts: number; digest: string } | null = null;
  const pendingOwner = (digest: string): ItemKey => ({ pk: keys.cursor.pk, sk: `PENDING#${digest}` });

  async function readCursor(): Promise<Cursor | null> {
    const { Item } = await callTable(table, 'GetItem', () =>
      table.doc.send(new GetCommand({ TableName, Key: keys.cursor, ConsistentRead: true })),
    );
    // No item, or only a lease taken before the first cursor write.
    if (!Item || Item.version === undefined) {
      knownVersion = 0;
      return null;
    }
    const item = parseItem(cursorItem, Item, TableName);
    const cursor = toCursor(item);
    knownVersion = cursor.version;
    const { parts, digest } = item.pendingRetractions ?? {};
    storedPendingParts = parts && digest ? { parts, digest } : null;
    if (cursor.pendingRetractions && storedPendingParts) {
      cursor.pendingRetractions.keys = await readKeyListParts(table, pendingOwner(storedPendingParts.digest), storedPendingParts.parts);
    }
    return cursor;
  }

  /** Pending retraction keys too many for the cursor item go to part items first (unless already there). */
  async function writePendingParts(pending: PendingRetractions | undefined): Promise<{ parts: number; digest: string } | undefined> {
    if (!pending || fitsInline(pending.keys)) return undefined;
    const digest = keyListDigest(pending.keys);
    const parts = splitKeyList(pending.keys);
    if (storedPendingParts?.digest !== digest) await writeKeyListParts(table, pendingOwner(digest), parts, {});
    return { parts: parts.length, digest };
  }

  /** After a cursor write: the parts the replaced cursor named are nobody's now (best effort; the TTL is the backstop). */
  async function forgetPendingParts(now: { parts: number; digest: string } | null): Promise<void> {
    const old = storedPendingParts;
    storedPendingParts = now;
    if (!old || old.digest === now?.digest) return;
    try {
      await deleteKeyListParts(table, pendingOwner(old.digest), old.parts);
    } catch (error) {
      table.log('warn', 'could not delete the parts of old pending retractions; the TTL will', { error: String(error) });
    }
  }

  async function writeCursor(next: CursorPosition, expectedVersion: number | null, options: { releaseLeaseOf?: string } = {}): Promise<Cursor> {
    const written: Cursor = { height: next.height, hash: next.hash, time: next.time, version: (expectedVersion ?? 0) + 1 };
    if (next.pendingRetractions) {
      written.pendingRetractions = { untilHeight: next.pendingRetractions.untilHeight, keys: [...next.pendingRetractions.keys] };
    }
    if (next.smsDigest) written.smsDigest = structuredClone(next.smsDigest);
    const inParts = await writePendingParts(written.pendingRetractions);
    const update = cursorUpdate(written, expectedVersion, inParts, new Date(table.now()).toISOString(), options.releaseLeaseOf);
    let attempts = 0;
    try {
      await callTable(table, 'UpdateItem', (attempt) => {
        attempts = attempt;
        return table.doc.send(new UpdateCommand({ TableName, Key: keys.cursor, ...update }));
      });
    } catch (error) {
      if (!isConditionalCheckFailed(error)) throw error;
      const releasing = options.releaseLeaseOf !== undefined;
      const stored = attempts > 1 || releasing ? await readCursor() : undefined;
      // A retried write may be refused because its first attempt landed and only the answer was lost.
      if (attempts > 1 && isDeepStrictEqual(stored, written)) return written;
      // Refused only for the lease (another run took it after ours lapsed): move the cursor, leave the lease.
      if (releasing && (stored?.version ?? null) === expectedVersion) return writeCursor(next, expectedVersion);
      throw new CursorConflictError(
        `the cursor was moved by another run (expected version ${expectedVersion ?? 'none'}); ` +
          'this run stops and the next one resumes from the new cursor',
      );
    }
    knownVersion = written.version;
    await forgetPendingParts(inParts ?? null);
    return written;
  }

  return {
    // The lease is three attributes of the cursor item: taking it is one write, and giving it back rides on
    // the cycle's cursor write. An update leaves the cursor's own attributes (and its version) alone.
    async acquireLease(owner, nowMs, ttlMs) {
      try {
        await callTable(table, 'UpdateItem', () =>
          table.doc.send(
            new UpdateCommand({
              TableName,
              Key: keys.cursor,
              UpdateExpression: 'SET #owner = :me, #leaseUntil = :until, #acquiredAt = :now',
              ConditionExpression: 'attribute_not_exists(#leaseUntil) OR #leaseUntil < :now OR #owner = :me',
              ExpressionAttributeNames: LEASE_NAMES,
              ExpressionAttributeValues: { ':now': nowMs, ':me': owner, ':until': nowMs + ttlMs },
            }),
          ),
        );
        return true;
      } catch (error) {
        if (!isConditionalCheckFailed(error)) throw error;
        table.log('debug', 'another run holds the lease', { owner });
        return false;
      }
    },

    async releaseLease(owner) {
      try {
        await callTable(table, 'UpdateItem', () =>
          table.doc.send(
            new UpdateCommand({
              TableName,
              Key: keys.cursor,
              UpdateExpression: 'REMOVE #owner, #leaseUntil, #acquiredAt',
              ConditionExpression: '#owner = :me',
              ExpressionAttributeNames: LEASE_NAMES,
              ExpressionAttributeValues: { ':me': owner },
            }),
          ),
        );
      } catch (error) {
        // Expired and taken by another run, or already gone: it is not ours to release.
        if (!isConditionalCheckFailed(error)) throw error;
      }
    },

    readCursor,

    writeCursor,

    async putScannedBlocks(blocks) {
      if (blocks.length === 0) return;
      await writeStretches(table, keys, blocks, knownVersion + 1);
    },

    async getScannedBlocks(fromHeight, toHeight) {
      const from = Math.max(0, fromHeight);
      if (toHeight < from) return [];
      const queryRange = (pk: string, fromSk: string, toSk: string) =>
        queryAll({
          KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
          ExpressionAttributeValues: { ':pk': pk, ':from': fromSk, ':to': toSk },
          ConsistentRead: true,
        });
      return readStretches(table, keys, queryRange, from, toHeight);
    },

    // One Query of the whole partition, filtered here: the watch list is small, so this costs one or two
    // reads, where BatchGetItem would cost one per contract (in batches of 100, with unprocessed keys to retry).
    async readContractStatuses(contractIds) {
      const result = new Map<string, ReturnType<typeof toContractStatus>>();
      if (contractIds.length === 0) return result;
      const wanted = new Set(contractIds);
      const items = await queryAll({
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.contractsPk },
        ConsistentRead: true,
      });
      for (const item of items) {
        const status = toContractStatus(parseItem(contractStatusItem, item, TableName));
        if (wanted.has(status.contractId)) result.set(status.contractId, status);
      }
      return result;
    },

    async writeContractStatus(status) {
      await callTable(table, 'PutItem', () =>
        table.doc.send(
          new PutCommand({
            TableName,
            Item: {
              ...keys.contract(status.contractId),
              contractId: status.contractId,
              found: status.found,
              status: status.status,
              txId: status.txId,
              blockHeight: status.blockHeight,
              changes: status.changes,
              updatedAt: new Date(table.now()).toISOString(),
            },
          }),
        ),
      );
    },

    ...createAlertRecords(table, keys),
    ...createBlockStallRecord(table, keys),
  };
}
