// What chain health remembers, in DynamoDB: one small item beside the cursor (`NET#<network>` / `CHAIN_HEALTH`,
// json-record.ts): the API tip's last move, the conditions open (at most four) and the alerts decided but not yet
// known sent (at most eight): a few kilobytes at most. Replaced whole; last writer wins: runs do not overlap (the
// lease), and every alert is claimed by key besides. The state is kept as one JSON string with its version, read
// back through the same check the core relies on: an item that does not parse is an error naming the table.
import * as z from '../../zod-mini';
import type { ChainHealthState } from '../../core/health/chain-health';
import { parseItem } from './items';
import type { RecordShape } from './json-record';

const chainHealthItem = z.object({ version: z.int(), state: z.string() });

export const chainHealthRecord: RecordShape<ChainHealthState> = {
  sk: 'CHAIN_HEALTH',
  parse(item, tableName) {
    const { state } = parseItem(chainHealthItem, item, tableName);
    try {
      return JSON.parse(state) as ChainHealthState;
    } catch {
      throw new Error(`the chain health item of table ${tableName} (${String(item.pk)} / CHAIN_HEALTH) is not JSON: delete it to start chain health over`);
    }
  },
  toItem: (state) => ({ version: state.version, state: JSON.stringify(state) }),
};
