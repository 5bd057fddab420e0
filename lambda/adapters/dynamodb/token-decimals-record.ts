// The token decimals read from the token metadata API, in DynamoDB: one small item beside the cursor
// (`NET#<network>` / `TOKEN_DECIMALS`), kept for ever (a token's decimals are a constant of its contract) and
// replaced whole by each write; last writer wins: two runs that read the same token write the same facts.
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import * as z from '../../zod-mini';
import type { StateStore } from '../../core/ports';
import { parseItem } from './items';
import type { StateKeys } from './keys';
import { callTable, type TableAccess } from './table-access';

const tokenDecimalsItem = z.object({
  tokens: z.record(z.string(), z.object({ decimals: z.int().check(z.minimum(0), z.maximum(38)), symbol: z.optional(z.string()) })),
});

export function createTokenDecimalsRecord(table: TableAccess, keys: StateKeys): Pick<StateStore, 'readTokenDecimals' | 'writeTokenDecimals'> {
  const { tableName: TableName } = table;
  const Key = { pk: keys.cursor.pk, sk: 'TOKEN_DECIMALS' };
  return {
    async readTokenDecimals() {
      const { Item } = await callTable(table, 'GetItem', () => table.doc.send(new GetCommand({ TableName, Key, ConsistentRead: true })));
      return Item ? new Map(Object.entries(parseItem(tokenDecimalsItem, Item, TableName).tokens)) : new Map();
    },

    async writeTokenDecimals(tokens) {
      await callTable(table, 'PutItem', () => table.doc.send(new PutCommand({ TableName, Item: { ...Key, tokens: Object.fromEntries(tokens) } })));
    },
  };
}
