// Deployment status of watched contracts: one item per contract under the network's contracts partition.
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { StateStore } from '../../core/ports';
import { contractStatusItem, parseItem, toContractStatus } from './items';
import type { StateKeys } from './keys';
import { queryAll } from './query-all';
import { callTable, type TableAccess } from './table-access';

export function createContractStatuses(table: TableAccess, keys: StateKeys): Pick<StateStore, 'readContractStatuses' | 'writeContractStatus'> {
  const TableName = table.tableName;
  return {
    // One Query of the whole partition, filtered here: the watch list is small, so this costs one or two
    // reads, where BatchGetItem would cost one per contract (in batches of 100, with unprocessed keys to retry).
    async readContractStatuses(contractIds) {
      const result = new Map<string, ReturnType<typeof toContractStatus>>();
      if (contractIds.length === 0) return result;
      const wanted = new Set(contractIds);
      const items = await queryAll(table, {
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
  };
}
