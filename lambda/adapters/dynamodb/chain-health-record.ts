// What chain health remembers, in DynamoDB: one small item beside the cursor (`NET#<network>` / `CHAIN_HEALTH`):
// the API tip's last move, the conditions open (at most four) and the alerts decided but not yet known sent
// (at most eight): a few kilobytes at most. Replaced whole; last writer wins: runs do not overlap (the lease),
// and every alert is claimed by key besides. The state is kept as one JSON string with its version, read back
// through the same check the core relies on: an item that does not parse is an error naming the table.
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import * as z from '../../zod-mini';
import type { ChainHealthState } from '../../core/chain-health';
import type { StateStore } from '../../core/ports';
import { parseItem } from './items';
import type { StateKeys } from './keys';
import { callTable, type TableAccess } from './table-access';

const chainHealthItem = z.object({ version: z.int(), state: z.string() });

export function createChainHealthRecord(table: TableAccess, keys: StateKeys): Pick<StateStore, 'readChainHealth' | 'writeChainHealth'> {
  const { tableName: TableName } = table;
  const Key = { pk: keys.cursor.pk, sk: 'CHAIN_HEALTH' };
  return {
    async readChainHealth() {
      const { Item } = await callTable(table, 'GetItem', () => table.doc.send(new GetCommand({ TableName, Key, ConsistentRead: true })));
      if (!Item) return null;
      const { state } = parseItem(chainHealthItem, Item, TableName);
      try {
        return JSON.parse(state) as ChainHealthState;
      } catch {
        throw new Error(`the chain health item of table ${TableName} (${Key.pk} / ${Key.sk}) is not JSON: delete it to start chain health over`);
      }
    },

    async writeChainHealth(state) {
      const Item = { ...Key, version: state.version, state: JSON.stringify(state) };
      await callTable(table, 'PutItem', () => table.doc.send(new PutCommand({ TableName, Item })));
    },
  };
}
