// The lease is three attributes of the cursor item: taking it is one write, and giving it back rides on
// the cycle's cursor write. An update leaves the cursor's own attributes (and its version) alone.
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { StateStore } from '../../core/ports';
import { LEASE_NAMES } from './items';
import type { StateKeys } from './keys';
import { callTable, isConditionalCheckFailed, type TableAccess } from './table-access';

export function createLease(table: TableAccess, keys: StateKeys): Pick<StateStore, 'acquireLease' | 'releaseLease'> {
  const TableName = table.tableName;
  return {
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
  };
}
