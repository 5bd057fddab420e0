// The block-stall record in DynamoDB: one small item beside the cursor (`NET#<network>` / `STALL`), written
// only when a run fails at a block or the first run after such failures gets past it. Last writer wins:
// runs do not overlap (the lease), and a lost count only delays the operator's notice by a run.
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import * as z from '../../zod-mini';
import type { BlockStall, StateStore } from '../../core/ports';
import { parseItem } from './items';
import type { StateKeys } from './keys';
import { callTable, type TableAccess } from './table-access';

const blockStallItem = z.object({
  height: z.int().check(z.nonnegative()),
  failures: z.int().check(z.positive()),
  since: z.number(),
  cause: z.string(),
});

export function createBlockStallRecord(
  table: TableAccess,
  keys: StateKeys,
): Pick<StateStore, 'readBlockStall' | 'writeBlockStall'> {
  const { tableName: TableName } = table;
  const Key = { pk: keys.cursor.pk, sk: 'STALL' };
  return {
    async readBlockStall() {
      const { Item } = await callTable(table, 'GetItem', () =>
        table.doc.send(new GetCommand({ TableName, Key, ConsistentRead: true })),
      );
      if (!Item) return null;
      const { height, failures, since, cause } = parseItem(blockStallItem, Item, TableName);
      return { height, failures, since, cause };
    },

    async writeBlockStall(stall: BlockStall | null) {
      if (!stall) {
        await callTable(table, 'DeleteItem', () => table.doc.send(new DeleteCommand({ TableName, Key })));
        return;
      }
      const { height, failures, since, cause } = stall;
      await callTable(table, 'PutItem', () =>
        table.doc.send(new PutCommand({ TableName, Item: { ...Key, height, failures, since, cause } })),
      );
    },
  };
}
