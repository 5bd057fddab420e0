// The SMS budget's record in DynamoDB: one small item beside the cursor (`NET#<network>` / `SMS`), written only
// when a run texts (in the loop mode) or holds alerts back from SMS, and when their digest is sent. Last writer
// wins: runs do not overlap (the lease). An item written before the loop's window existed is the bare tally.
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import * as z from '../../zod-mini';
import type { StateStore } from '../../core/ports';
import type { SmsTally } from '../../core/sms-tally';
import { parseItem } from './items';
import type { StateKeys } from './keys';
import { callTable, type TableAccess } from './table-access';

const height = z.nullable(z.int().check(z.nonnegative()));
const count = z.int().check(z.nonnegative());
const heldTally = z.object({
  firstKey: z.string(),
  counts: z.object({ critical: count, warning: count, info: count }),
  fromHeight: height,
  toHeight: height,
  throughHeight: height,
});
const smsTallyItem = z.object({
  held: z.nullable(heldTally),
  window: z.optional(z.nullable(z.object({ startedAt: z.number(), texted: count }))),
});

export function createSmsTallyRecord(table: TableAccess, keys: StateKeys): Pick<StateStore, 'readSmsTally' | 'writeSmsTally'> {
  const { tableName: TableName } = table;
  const Key = { pk: keys.cursor.pk, sk: 'SMS' };
  return {
    async readSmsTally() {
      const { Item } = await callTable(table, 'GetItem', () => table.doc.send(new GetCommand({ TableName, Key, ConsistentRead: true })));
      if (!Item) return null;
      // The older shape: the tally's fields at the top of the item, no window.
      if ('firstKey' in Item) return { held: copyHeld(parseItem(heldTally, Item, TableName)) };
      const { held, window } = parseItem(smsTallyItem, Item, TableName);
      const tally: SmsTally = { held: held ? copyHeld(held) : null };
      if (window) tally.window = { startedAt: window.startedAt, texted: window.texted };
      return tally;
    },

    async writeSmsTally(tally) {
      if (!tally) {
        await callTable(table, 'DeleteItem', () => table.doc.send(new DeleteCommand({ TableName, Key })));
        return;
      }
      const Item = { ...Key, held: structuredClone(tally.held), ...(tally.window ? { window: { ...tally.window } } : {}) };
      await callTable(table, 'PutItem', () => table.doc.send(new PutCommand({ TableName, Item })));
    },
  };
}

function copyHeld({ firstKey, counts, fromHeight, toHeight, throughHeight }: z.infer<typeof heldTally>): NonNullable<SmsTally['held']> {
  return { firstKey, counts: { ...counts }, fromHeight, toHeight, throughHeight };
}
