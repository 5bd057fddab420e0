// Alert records on DynamoDB: the primitive reads and conditional writes (AlertRecordStore) that the core's
// claim machine (core/deliver/alert-claims.ts) runs on. The conditions make two runs unable to both claim a key, and a
// refused write returns the item that refused it (ALL_OLD), so a lost race costs no second read.
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { createAlertClaims, FREE_TO_CLAIM, type AlertClaimMethods } from '../../core/deliver/alert-claims';
import type { HeldOrMutedState } from '../../core/stages/cooldown-mute-state';
import type { AlertClaim, AlertRecordStore, ConditionalWrite, StoredAlertRecord } from '../../core/ports';
import { errorMessage } from '../aws/retry';
import { alertItem, parseItem, StateItemError } from './items';
import type { StateKeys } from './keys';
import { callTable, expiresAtFrom, isConditionalCheckFailed, type TableAccess } from './table-access';

/** DynamoDB's item limit is 400 KB: the alert copy must leave room for the rest of the record. */
const MAX_STORED_ALERT_BYTES = 350_000;
/** Longer text fields (a huge contract log value) are cut in the copy; a retraction needs none of them whole. */
const MAX_STORED_FIELD_CHARS = 10_000;

/**
 * The alert as kept for a later retraction: whole when it fits in the item, else with its long text fields
 * cut, else nothing; never a sent mark that fails (the alert is out, and a failed mark would publish it again).
 */
function alertCopy(alert: unknown): string | null {
  const whole = JSON.stringify(alert) ?? 'null';
  if (Buffer.byteLength(whole, 'utf8') <= MAX_STORED_ALERT_BYTES) return whole;
  if (typeof alert !== 'object' || alert === null || Array.isArray(alert)) return null;
  const cut = Object.fromEntries(
    Object.entries(alert).map(([field, value]) =>
      typeof value === 'string' && value.length > MAX_STORED_FIELD_CHARS ? [field, `${value.slice(0, MAX_STORED_FIELD_CHARS)}...[truncated]`] : [field, value],
    ),
  );
  const json = JSON.stringify(cut);
  return Buffer.byteLength(json, 'utf8') <= MAX_STORED_ALERT_BYTES ? json : null;
}

/**
 * The item a refused conditional write returned (ReturnValuesOnConditionCheckFailure: ALL_OLD), in DynamoDB's
 * wire form: the document client converts results but not errors. An alert record holds only strings and
 * numbers, so this small conversion stands in for @aws-sdk/util-dynamodb, which is not a direct dependency.
 */
function refusingItem(error: unknown): Record<string, unknown> | undefined {
  const item = (error as { Item?: Record<string, Record<string, unknown>> }).Item;
  if (!item || typeof item !== 'object') return undefined;
  return Object.fromEntries(
    Object.entries(item).map(([name, value]) => {
      if (value && typeof value.S === 'string') return [name, value.S];
      if (value && typeof value.N === 'string') return [name, Number(value.N)];
      if (value && typeof value.BOOL === 'boolean') return [name, value.BOOL];
      return [name, value?.NULL === true ? null : value];
    }),
  );
}

/** The table and the key layout every operation on alert records works on. */
interface AlertTable {
  table: TableAccess;
  keys: StateKeys;
}

function toStored({ table, keys }: AlertTable, alertKey: string, item: Record<string, unknown>, nowMs: number): StoredAlertRecord | null {
  const record = parseItem(alertItem, item, table.tableName);
  // DynamoDB deletes expired items days late; until then they must read as gone.
  if (record.expiresAt < Math.floor(nowMs / 1000)) return null;
  const stored: StoredAlertRecord = { state: record.state };
  if (record.state === 'pending') stored.claim = { claimedAt: record.claimedAt, claimId: record.claimId };
  if (record.state === 'parked' || record.state === 'held' || record.state === 'muted') stored.reason = record.reason;
  if (record.alert !== undefined) {
    try {
      stored.alert = JSON.parse(record.alert) as unknown;
    } catch (error) {
      throw new StateItemError(table.tableName, keys.alert(alertKey), `its alert copy is not JSON (${errorMessage(error)})`);
    }
  }
  return stored;
}

async function readRecord(at: AlertTable, alertKey: string, nowMs: number): Promise<StoredAlertRecord | null> {
  const { table, keys } = at;
  const { Item } = await callTable(table, 'GetItem', () =>
    table.doc.send(new GetCommand({ TableName: table.tableName, Key: keys.alert(alertKey), ConsistentRead: true })),
  );
  return Item ? toStored(at, alertKey, Item, nowMs) : null;
}

/** A refused write's outcome: the item ALL_OLD returned, or (a store that does not return it) a strong read. */
async function refused(at: AlertTable, alertKey: string, error: unknown, nowMs: number): Promise<ConditionalWrite> {
  if (!isConditionalCheckFailed(error)) throw error;
  const item = refusingItem(error);
  return { written: false, found: item ? toStored(at, alertKey, item, nowMs) : await readRecord(at, alertKey, nowMs) };
}

async function update(
  { table, keys }: AlertTable,
  alertKey: string,
  set: Record<string, unknown>,
  options: { remove?: string[]; condition?: string } = {},
): Promise<void> {
  const names = Object.fromEntries([...Object.keys(set), ...(options.remove ?? [])].map((n) => [`#${n}`, n]));
  const values = Object.fromEntries(Object.entries(set).map(([n, v]) => [`:${n}`, v]));
  const assignments = Object.keys(set)
    .map((n) => `#${n} = :${n}`)
    .join(', ');
  const removals = options.remove?.length ? ` REMOVE ${options.remove.map((n) => `#${n}`).join(', ')}` : '';
  await callTable(table, 'UpdateItem', () =>
    table.doc.send(
      new UpdateCommand({
        TableName: table.tableName,
        Key: keys.alert(alertKey),
        UpdateExpression: `SET ${assignments}${removals}`,
        ...(options.condition ? { ConditionExpression: options.condition } : {}),
        ExpressionAttributeNames: { ...names, ...(options.condition ? { '#pk': 'pk' } : {}) },
        ExpressionAttributeValues: values,
      }),
    ),
  );
}

/** The key is free: no record, or one never sent (retracted, held, muted), or expired but not yet deleted. */
function freeKeyCondition(nowMs: number) {
  const free = FREE_TO_CLAIM.map((state) => `#state = :${state}`).join(' OR ');
  return {
    ConditionExpression: `attribute_not_exists(pk) OR ${free} OR #expiresAt < :nowSec`,
    ExpressionAttributeNames: { '#state': 'state', '#expiresAt': 'expiresAt' },
    ExpressionAttributeValues: { ...Object.fromEntries(FREE_TO_CLAIM.map((state) => [`:${state}`, state])), ':nowSec': Math.floor(nowMs / 1000) },
  };
}

/** Records a match held or muted where the key is free; a sent, parked or claimed record stays as it is. */
async function writeHeldOrMuted(at: AlertTable, alertKey: string, nowMs: number, alert: unknown, state: HeldOrMutedState, reason: string): Promise<void> {
  const { table, keys } = at;
  const json = alertCopy(alert);
  const item = { ...keys.alert(alertKey), state, heldAt: nowMs, reason: reason.slice(0, MAX_STORED_FIELD_CHARS), expiresAt: expiresAtFrom(table, nowMs) };
  try {
    await callTable(table, 'PutItem', () =>
      table.doc.send(new PutCommand({ TableName: table.tableName, Item: { ...item, ...(json !== null ? { alert: json } : {}) }, ...freeKeyCondition(nowMs) })),
    );
  } catch (error) {
    if (!isConditionalCheckFailed(error)) throw error;
  }
}

/** Claims a key nobody holds: absent, retracted, or expired but not yet deleted. */
async function createClaim(at: AlertTable, alertKey: string, claim: AlertClaim, nowMs: number): Promise<ConditionalWrite> {
  const { table, keys } = at;
  try {
    await callTable(table, 'PutItem', () =>
      table.doc.send(
        new PutCommand({
          TableName: table.tableName,
          Item: { ...keys.alert(alertKey), state: 'pending', ...claim, expiresAt: expiresAtFrom(table, nowMs) },
          ...freeKeyCondition(nowMs),
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      ),
    );
    return { written: true };
  } catch (error) {
    return refused(at, alertKey, error, nowMs);
  }
}

/** Takes over the stale claim `seen`, only if it is still exactly that claim. */
async function replaceClaim(at: AlertTable, alertKey: string, seen: AlertClaim, claim: AlertClaim, nowMs: number): Promise<ConditionalWrite> {
  const { table, keys } = at;
  try {
    await callTable(table, 'UpdateItem', () =>
      table.doc.send(
        new UpdateCommand({
          TableName: table.tableName,
          Key: keys.alert(alertKey),
          UpdateExpression: 'SET #claimedAt = :now, #claimId = :mine, #expiresAt = :expiresAt',
          ConditionExpression: '#state = :pending AND #claimedAt = :seenAt AND #claimId = :seenId',
          ExpressionAttributeNames: { '#state': 'state', '#claimedAt': 'claimedAt', '#claimId': 'claimId', '#expiresAt': 'expiresAt' },
          ExpressionAttributeValues: {
            ':now': claim.claimedAt,
            ':mine': claim.claimId,
            ':expiresAt': expiresAtFrom(table, nowMs),
            ':pending': 'pending',
            ':seenAt': seen.claimedAt,
            ':seenId': seen.claimId,
          },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      ),
    );
    return { written: true };
  } catch (error) {
    return refused(at, alertKey, error, nowMs);
  }
}

async function deleteClaim({ table, keys }: AlertTable, alertKey: string, claimId: string | undefined): Promise<void> {
  try {
    await callTable(table, 'DeleteItem', () =>
      table.doc.send(
        new DeleteCommand({
          TableName: table.tableName,
          Key: keys.alert(alertKey),
          ConditionExpression: claimId ? '#state = :pending AND #claimId = :mine' : '#state = :pending',
          ExpressionAttributeNames: claimId ? { '#state': 'state', '#claimId': 'claimId' } : { '#state': 'state' },
          ExpressionAttributeValues: claimId ? { ':pending': 'pending', ':mine': claimId } : { ':pending': 'pending' },
        }),
      ),
    );
  } catch (error) {
    // Already sent, gone, or taken over by another run: not ours to release.
    if (!isConditionalCheckFailed(error)) throw error;
  }
}

async function writeSent(at: AlertTable, alertKey: string, nowMs: number, alert: unknown): Promise<void> {
  const json = alertCopy(alert);
  if (json === null) at.table.log('warn', 'alert too large to keep a copy: it cannot be retracted after a reorg', { key: alertKey });
  const set = { state: 'sent', sentAt: nowMs, expiresAt: expiresAtFrom(at.table, nowMs), ...(json !== null ? { alert: json } : {}) };
  await update(at, alertKey, set, json === null ? { remove: ['alert'] } : {});
}

async function writeParked(at: AlertTable, alertKey: string, nowMs: number, alert: unknown, reason: string): Promise<void> {
  const json = alertCopy(alert);
  const set = {
    state: 'parked',
    parkedAt: nowMs,
    reason: reason.slice(0, MAX_STORED_FIELD_CHARS),
    expiresAt: expiresAtFrom(at.table, nowMs),
    ...(json !== null ? { alert: json } : {}),
  };
  await update(at, alertKey, set, json === null ? { remove: ['alert'] } : {});
}

async function writeRetracted(at: AlertTable, alertKey: string, nowMs: number): Promise<void> {
  try {
    await update(at, alertKey, { state: 'retracted', retractedAt: nowMs, expiresAt: expiresAtFrom(at.table, nowMs) }, { condition: 'attribute_exists(#pk)' });
  } catch (error) {
    // No record: nothing was alerted, so nothing to retract, and the key is free already.
    if (!isConditionalCheckFailed(error)) throw error;
  }
}

export function createAlertRecords(table: TableAccess, keys: StateKeys): AlertClaimMethods {
  const at: AlertTable = { table, keys };
  const records: AlertRecordStore = {
    readAlertRecord: (alertKey) => readRecord(at, alertKey, table.now()),
    createClaim: (alertKey, claim, nowMs) => createClaim(at, alertKey, claim, nowMs),
    replaceClaim: (alertKey, seen, claim, nowMs) => replaceClaim(at, alertKey, seen, claim, nowMs),
    deleteClaim: (alertKey, claimId) => deleteClaim(at, alertKey, claimId),
    writeSent: (alertKey, nowMs, alert) => writeSent(at, alertKey, nowMs, alert),
    writeParked: (alertKey, nowMs, alert, reason) => writeParked(at, alertKey, nowMs, alert, reason),
    writeRetracted: (alertKey, nowMs) => writeRetracted(at, alertKey, nowMs),
    writeHeldOrMuted: (alertKey, nowMs, alert, state, reason) => writeHeldOrMuted(at, alertKey, nowMs, alert, state, reason),
  };
  return createAlertClaims(records);
}
