// The SMS budget's tally in DynamoDB: one small item beside the cursor (`NET#<network>` / `SMS`), written only
// when a run holds alerts back from SMS and when their digest is sent. Last writer wins: runs do not overlap
// (the lease).
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import * as z from '../../zod-mini';
import type { StateStore } from '../../core/ports';
import { parseItem } from './items';
import type { StateKeys } from './keys';
import { callTable, type TableAccess } from './table-access';

const height = z.nullable(z.int().check(z.nonnegative()));
const count = z.int().check(z.nonnegative());
const smsTallyItem = z.object({
  firstKey: z.string(),
  counts: z.object({ critical: count, warning: count, info: count }),
  fromHeight: height,
  toHeight: height,
  throughHeight: height,
});

export function createSmsTallyRecord(table: TableAccess, keys: StateKeys): Pick<StateStore, 'readSmsTally' | 'writeSmsTally'> {
  const { tableName: TableName } = table;
  const Key = { pk: keys.cursor.pk, sk: 'SMS' };
  return {
    async readSmsTally() {
      const { Item } = await callTable(table, 'GetItem', () => table.doc.send(new GetCommand({ TableName, Key, ConsistentRead: true })));
      if (!Item) return null;
      const { firstKey, counts, fromHeight, toHeight, throughHeight } = parseItem(smsTallyItem, Item, TableName);
      return { firstKey, counts: { ...counts }, fromHeight, toHeight, throughHeight };
    },

    async writeSmsTally(tally) {
      if (!tally) {
        await callTable(table, 'DeleteItem', () => table.doc.send(new DeleteCommand({ TableName, Key })));
        return;
      }
      await callTable(table, 'PutItem', () => table.doc.send(new PutCommand({ TableName, Item: { ...Key, ...structuredClone(tally) } })));
    },
  };
}
