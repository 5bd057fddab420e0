// One named record of the state (core/state-records.ts) as one item beside the cursor (`NET#<network>` / its
// sort key, state-records.ts): read strongly consistent and validated, replaced whole by each write, deleted by
// writing null. Last writer wins: runs do not overlap (the lease), and what each record holds says why a lost
// write costs nothing (core/state-records.ts).
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { StateKeys } from './keys';
import { callTable, type TableAccess } from './table-access';

/** How one record is stored: its sort key, and its value to and from the item's attributes. */
export interface RecordShape<T> {
  sk: string;
  /** The value of a stored item, validated (parseItem); anything else stops the run naming the item. */
  parse(item: Record<string, unknown>, tableName: string): T;
  toItem(value: T): Record<string, unknown>;
}

export interface JsonRecord<T> {
  /** null when there is no item. */
  read(): Promise<T | null>;
  /** Replaces the item; null deletes it. */
  write(value: T | null): Promise<void>;
}

export function jsonRecord<T>(table: TableAccess, keys: StateKeys, shape: RecordShape<T>): JsonRecord<T> {
  const { tableName: TableName } = table;
  const Key = { pk: keys.cursor.pk, sk: shape.sk };
  return {
    async read() {
      const { Item } = await callTable(table, 'GetItem', () => table.doc.send(new GetCommand({ TableName, Key, ConsistentRead: true })));
      return Item ? shape.parse(Item, TableName) : null;
    },
    async write(value) {
      if (value === null) {
        await callTable(table, 'DeleteItem', () => table.doc.send(new DeleteCommand({ TableName, Key })));
        return;
      }
      await callTable(table, 'PutItem', () => table.doc.send(new PutCommand({ TableName, Item: { ...shape.toItem(value), ...Key } })));
    },
  };
}
