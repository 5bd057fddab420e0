// What the pending rules remember of the mempool, in DynamoDB: one small item beside the cursor
// (`NET#<network>` / `MEMPOOL`), bounded by the core (a few hundred seen ids, at most 100 tracked transactions:
// well under the 400 KB item limit), written only by runs with pending rules. Last writer wins: runs do not
// overlap (the lease), and every pending alert is claimed besides.
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import * as z from '../../zod-mini';
import type { StateStore } from '../../core/ports';
import { parseItem } from './items';
import type { StateKeys } from './keys';
import { callTable, type TableAccess } from './table-access';

const trackedItem = z.object({
  txId: z.string(),
  pendingKey: z.string(),
  rule: z.string(),
  severity: z.enum(['critical', 'warning', 'info']),
  sender: z.string(),
  nonce: z.optional(z.number()),
  contractId: z.optional(z.string()),
  address: z.optional(z.string()),
  what: z.string(),
  seenAt: z.number(),
  nextCheckAt: z.number(),
  checks: z.number(),
  minedAt: z.optional(z.number()),
});
const mempoolItem = z.object({ seen: z.array(z.string()), newest: z.optional(z.number()), tracked: z.array(trackedItem) });

export function createMempoolRecord(table: TableAccess, keys: StateKeys): Pick<StateStore, 'readMempoolState' | 'writeMempoolState'> {
  const { tableName: TableName } = table;
  const Key = { pk: keys.cursor.pk, sk: 'MEMPOOL' };
  return {
    async readMempoolState() {
      const { Item } = await callTable(table, 'GetItem', () => table.doc.send(new GetCommand({ TableName, Key, ConsistentRead: true })));
      if (!Item) return null;
      const { seen, newest, tracked } = parseItem(mempoolItem, Item, TableName);
      return { seen: [...seen], ...(newest === undefined ? {} : { newest }), tracked: tracked.map((entry) => ({ ...entry })) };
    },

    async writeMempoolState(state) {
      const Item = { ...Key, seen: [...state.seen], ...(state.newest === undefined ? {} : { newest: state.newest }), tracked: state.tracked.map((entry) => ({ ...entry })) };
      await callTable(table, 'PutItem', () => table.doc.send(new PutCommand({ TableName, Item })));
    },
  };
}
