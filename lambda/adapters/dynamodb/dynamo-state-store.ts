// The StateStore on one DynamoDB table (layout in keys.ts). Every decision the cycle makes on state, such
// as who runs, how far the cursor is, whether an alert went out, rests on a conditional write or a
// strongly consistent read, so overlapping runs, retries and crashes cannot double-alert or skip a block.
// Each record kind lives in its own module; this one wires them onto one table.
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Network } from '../../core/domain';
import type { LoopStore } from '../../core/scan/loop-turns';
import type { StateStore, Telemetry } from '../../core/ports';
import { realSleep, type RetryPolicy, type Sleep } from '../aws/retry';
import { createAlertRecords } from './alert-records';
import { createStateRecords } from './state-records';
import { createContractStatuses } from './contract-statuses';
import { CursorRecord } from './cursor-record';
import { stateKeys } from './keys';
import { createLease } from './lease';
import { markedBlockStall } from './block-stall-mark';
import { createLoopRecord } from './loop-record';
import { createScannedBlocks } from './scanned-blocks';
import { createWatchPointRecord, type WatchPointStore } from './watch-point-record';
import type { TableAccess } from './table-access';

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

/** The StateStore, the polling loop's token beside the lease, and the tick's watch point (the Lambda's only). */
export function createDynamoStateStore(options: DynamoStateStoreOptions): StateStore & LoopStore & WatchPointStore {
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
  const cursor = new CursorRecord(table, keys);
  const records = createStateRecords(table, keys);
  return {
    ...createLease(table, keys),
    ...createLoopRecord(table, keys),
    ...createWatchPointRecord(table, keys),
    readCursor: cursor.readCursor,
    writeCursor: cursor.writeCursor,
    readTurn: cursor.readTurn,
    ...createScannedBlocks(table, keys, () => cursor.knownVersion, cursor.openStretch),
    ...createContractStatuses(table, keys),
    ...createAlertRecords(table, keys),
    ...markedBlockStall(table, keys, cursor, records),
    // The tick's self-watch reads the stall record itself, mark or none (core/health/self-watch.ts).
    readBlockStall: () => records.readRecord('blockStall'),
  };
}
