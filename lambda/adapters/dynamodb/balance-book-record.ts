// The tracked balances of the `balances` rules in DynamoDB: one item beside the cursor (`NET#<network>` /
// `BALANCES`) holding the book as JSON, written only in a run where a tracked balance moved, before the cursor
// write that passes those blocks (core/balance-book.ts bounds its size). Runs do not overlap (the lease).
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import * as z from '../../zod-mini';
import type { StateStore } from '../../core/ports';
import type { BalanceBookRecord } from '../../core/balance-book';
import { parseItem } from './items';
import type { StateKeys } from './keys';
import { callTable, type TableAccess } from './table-access';

const digits = z.string().check(z.regex(/^-?\d+$/));
const entry = z.object({
  balance: digits,
  locked: digits,
  unlockBurnHeight: z.nullable(z.int()),
  zone: z.enum(['below', 'normal', 'above']),
  fingerprint: z.string(),
  readAt: z.int(),
  stale: z.optional(z.boolean()),
});
const entries = z.record(z.string(), entry);
const bookSchema = z.object({
  base: z.object({ height: z.int(), entries }),
  deltas: z.array(z.object({ height: z.int(), hash: z.string(), entries })),
  unread: z.optional(z.record(z.string(), z.object({ failures: z.int(), cause: z.string() }))),
});
const bookItem = z.object({ book: z.string() });

export function createBalanceBookRecord(table: TableAccess, keys: StateKeys): Pick<StateStore, 'readBalanceBook' | 'writeBalanceBook'> {
  const { tableName: TableName } = table;
  const Key = { pk: keys.cursor.pk, sk: 'BALANCES' };
  return {
    async readBalanceBook() {
      const { Item } = await callTable(table, 'GetItem', () => table.doc.send(new GetCommand({ TableName, Key, ConsistentRead: true })));
      if (!Item) return null;
      const { book } = parseItem(bookItem, Item, TableName);
      return parseItem(bookSchema, JSON.parse(book) as Record<string, unknown>, TableName) as BalanceBookRecord;
    },

    async writeBalanceBook(book) {
      // One string attribute: a nested map of every rule's entry would cost the same and read no better.
      await callTable(table, 'PutItem', () => table.doc.send(new PutCommand({ TableName, Item: { ...Key, book: JSON.stringify(book) } })));
    },
  };
}
