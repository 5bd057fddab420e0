// Alert records: the exactly-once half of delivery. A run claims an alert key with a conditional write
// before publishing and marks it sent after; the conditions make two runs unable to both publish it,
// and a claim left behind by a crashed run is taken over once it is stale, by exactly one run.
import { randomUUID } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { AlertRecordSummary, ClaimOutcome, StateStore } from '../../core/ports';
import { errorMessage } from '../aws/retry';
import { alertItem, parseItem, StateItemError, type AlertItem } from './items';
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
      typeof value === 'string' && value.length > MAX_STORED_FIELD_CHARS
        ? [field, `${value.slice(0, MAX_STORED_FIELD_CHARS)}...[truncated]`]
        : [field, value],
    ),
  );
  const json = JSON.stringify(cut);
  return Buffer.byteLength(json, 'utf8') <= MAX_STORED_ALERT_BYTES ? json : null;
}

/** A claim can lose its race at most this many times in one call before the alert is left to the next run. */
const MAX_CLAIM_ROUNDS = 3;

type AlertRecordMethods = Pick<
  StateStore,
  'claimAlert' | 'markAlertSent' | 'releaseAlertClaim' | 'parkAlert' | 'markAlertRetracted' | 'getAlertRecord'
>;

export function createAlertRecords(table: TableAccess, keys: StateKeys): AlertRecordMethods {
  // The claim ids this store holds, so that releasing a claim cannot delete another run's takeover of it.
  const ownClaims = new Map<string, string>();

  async function readRecord(alertKey: string, nowMs: number): Promise<AlertItem | null> {
    const key = keys.alert(alertKey);
    const { Item } = await callTable(table, 'GetItem', () =>
      table.doc.send(new GetCommand({ TableName: table.tableName, Key: key, ConsistentRead: true })),
    );
    if (!Item) return null;
    const record = parseItem(alertItem, Item, table.tableName);
    // DynamoDB deletes expired items days late; until then they must read as gone.
    return record.expiresAt < Math.floor(nowMs / 1000) ? null : record;
  }

  /** Claims a key nobody holds: absent, retracted, or expired but not yet deleted. */
  async function claimFresh(alertKey: string, nowMs: number, claimId: string): Promise<boolean> {
    try {
      await callTable(table, 'PutItem', () =>
        table.doc.send(
          new PutCommand({
            TableName: table.tableName,
            Item: {
              ...keys.alert(alertKey),
              state: 'pending',
              claimedAt: nowMs,
              claimId,
              expiresAt: expiresAtFrom(table, nowMs),
            },
            ConditionExpression: 'attribute_not_exists(pk) OR #state = :retracted OR #expiresAt < :nowSec',
            ExpressionAttributeNames: { '#state': 'state', '#expiresAt': 'expiresAt' },
            ExpressionAttributeValues: { ':retracted': 'retracted', ':nowSec': Math.floor(nowMs / 1000) },
          }),
        ),
      );
      return true;
    } catch (error) {
      if (isConditionalCheckFailed(error)) return false;
      throw error;
    }
  }

  /** Takes over the stale claim `seen`, only if it is still exactly that claim. */
  async function takeOver(
    alertKey: string,
    seen: { claimedAt: number; claimId: string },
    nowMs: number,
    claimId: string,
  ): Promise<boolean> {
    try {
      await callTable(table, 'UpdateItem', () =>
        table.doc.send(
          new UpdateCommand({
            TableName: table.tableName,
            Key: keys.alert(alertKey),
            UpdateExpression: 'SET #claimedAt = :now, #claimId = :mine, #expiresAt = :expiresAt',
            ConditionExpression: '#state = :pending AND #claimedAt = :seenAt AND #claimId = :seenId',
            ExpressionAttributeNames: {
              '#state': 'state',
              '#claimedAt': 'claimedAt',
              '#claimId': 'claimId',
              '#expiresAt': 'expiresAt',
            },
            ExpressionAttributeValues: {
              ':now': nowMs,
              ':mine': claimId,
              ':expiresAt': expiresAtFrom(table, nowMs),
              ':pending': 'pending',
              ':seenAt': seen.claimedAt,
              ':seenId': seen.claimId,
            },
          }),
        ),
      );
      return true;
    } catch (error) {
      if (isConditionalCheckFailed(error)) return false;
      throw error;
    }
  }

  async function claim(alertKey: string, nowMs: number, staleAfterMs: number, claimId: string): Promise<ClaimOutcome> {
    // What this call last tried to write: if a retried write landed but its answer was lost, the record
    // read back carries our claim id, and the outcome is what we had tried.
    let tried: 'claimed' | 'stale' = 'claimed';
    for (let round = 0; round < MAX_CLAIM_ROUNDS; round++) {
      if (await claimFresh(alertKey, nowMs, claimId)) return 'claimed';
      const record = await readRecord(alertKey, nowMs);
      if (!record || record.state === 'retracted') {
        // Gone, expired or retracted since the write was refused: the key is free again.
        tried = 'claimed';
        continue;
      }
      if (record.state === 'sent') return 'sent';
      if (record.state === 'parked') return 'parked';
      if (record.claimId === claimId) return tried;
      if (nowMs - record.claimedAt < staleAfterMs) return 'in-flight';
      tried = 'stale';
      if (await takeOver(alertKey, record, nowMs, claimId)) return 'stale';
      // Another run took it over or finished it first: the next round reads what it did.
    }
    return 'in-flight';
  }

  return {
    async claimAlert(alertKey, nowMs, staleAfterMs) {
      const claimId = randomUUID();
      const outcome = await claim(alertKey, nowMs, staleAfterMs, claimId);
      if (outcome === 'claimed' || outcome === 'stale') ownClaims.set(alertKey, claimId);
      table.log('debug', 'alert claim', { key: alertKey, outcome });
      return outcome;
    },

    async markAlertSent(alertKey, nowMs, alert) {
      const json = alertCopy(alert);
      const keep = json !== null;
      if (!keep) table.log('warn', 'alert too large to keep a copy: it cannot be retracted after a reorg', { key: alertKey });
      await callTable(table, 'UpdateItem', () =>
        table.doc.send(
          new UpdateCommand({
            TableName: table.tableName,
            Key: keys.alert(alertKey),
            UpdateExpression: keep
              ? 'SET #state = :sent, #sentAt = :now, #expiresAt = :expiresAt, #alert = :alert'
              : 'SET #state = :sent, #sentAt = :now, #expiresAt = :expiresAt REMOVE #alert',
            ExpressionAttributeNames: { '#state': 'state', '#sentAt': 'sentAt', '#expiresAt': 'expiresAt', '#alert': 'alert' },
            ExpressionAttributeValues: {
              ':sent': 'sent',
              ':now': nowMs,
              ':expiresAt': expiresAtFrom(table, nowMs),
              ...(keep ? { ':alert': json } : {}),
            },
          }),
        ),
      );
      ownClaims.delete(alertKey);
    },

    async releaseAlertClaim(alertKey) {
      const claimId = ownClaims.get(alertKey);
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
      } finally {
        ownClaims.delete(alertKey);
      }
    },

    async parkAlert(alertKey, nowMs, alert, reason) {
      const json = alertCopy(alert);
      const attributes: Record<string, unknown> = {
        ':parked': 'parked',
        ':now': nowMs,
        ':reason': reason.slice(0, MAX_STORED_FIELD_CHARS),
        ':expiresAt': expiresAtFrom(table, nowMs),
      };
      if (json !== null) attributes[':alert'] = json;
      await callTable(table, 'UpdateItem', () =>
        table.doc.send(
          new UpdateCommand({
            TableName: table.tableName,
            Key: keys.alert(alertKey),
            UpdateExpression:
              'SET #state = :parked, #parkedAt = :now, #reason = :reason, #expiresAt = :expiresAt' +
              (json !== null ? ', #alert = :alert' : ' REMOVE #alert'),
            ExpressionAttributeNames: {
              '#state': 'state',
              '#parkedAt': 'parkedAt',
              '#reason': 'reason',
              '#expiresAt': 'expiresAt',
              '#alert': 'alert',
            },
            ExpressionAttributeValues: attributes,
          }),
        ),
      );
      ownClaims.delete(alertKey);
    },

    async markAlertRetracted(alertKey, nowMs) {
      try {
        await callTable(table, 'UpdateItem', () =>
          table.doc.send(
            new UpdateCommand({
              TableName: table.tableName,
              Key: keys.alert(alertKey),
              UpdateExpression: 'SET #state = :retracted, #retractedAt = :now, #expiresAt = :expiresAt',
              ConditionExpression: 'attribute_exists(pk)',
              ExpressionAttributeNames: { '#state': 'state', '#retractedAt': 'retractedAt', '#expiresAt': 'expiresAt' },
              ExpressionAttributeValues: { ':retracted': 'retracted', ':now': nowMs, ':expiresAt': expiresAtFrom(table, nowMs) },
            }),
          ),
        );
      } catch (error) {
        // No record: nothing was alerted, so nothing to retract, and the key is free already.
        if (!isConditionalCheckFailed(error)) throw error;
      }
    },

    async getAlertRecord(alertKey): Promise<AlertRecordSummary | null> {
      const record = await readRecord(alertKey, table.now());
      if (!record) return null;
      const summary: AlertRecordSummary = { key: alertKey, state: record.state };
      if (record.state === 'parked') summary.reason = record.reason;
      if (record.alert !== undefined) {
        try {
          summary.alert = JSON.parse(record.alert) as unknown;
        } catch (error) {
          throw new StateItemError(table.tableName, keys.alert(alertKey), `its alert copy is not JSON (${errorMessage(error)})`);
        }
      }
      return summary;
    },
  };
}
