// The sBTC lifecycle tracker in DynamoDB: one item beside the cursor (`NET#<network>` / `SBTC`, json-record.ts),
// the state as one JSON string with its version beside it (a nested map of every deposit would cost the same and
// read no better). Its size is bounded by the core (core/sbtc/state-bound.ts) to fit this item on its own. An item
// that does not parse stops the run naming it; one of another version is handed on, and the stage starts over.
import * as z from '../../zod-mini';
import type { SbtcTrackerState } from '../../core/sbtc/tracker-state';
import { parseItem } from './items';
import type { RecordShape } from './json-record';

const sbtcItem = z.object({ version: z.int(), state: z.string() });

export const sbtcTrackerRecord: RecordShape<SbtcTrackerState> = {
  sk: 'SBTC',
  parse(item, tableName) {
    const { state } = parseItem(sbtcItem, item, tableName);
    try {
      return JSON.parse(state) as SbtcTrackerState;
    } catch {
      throw new Error(`the sBTC tracker item of table ${tableName} (${String(item.pk)} / SBTC) is not JSON: delete it to start the tracker over`);
    }
  },
  toItem: (state) => ({ version: state.version, state: JSON.stringify(state) }),
};
