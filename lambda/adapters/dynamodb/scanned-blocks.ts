// Scanned blocks as stretches (block-stretches.ts), tagged with the cursor version that will follow them, and
// the newest in the open stretch on the cursor item (open-stretch.ts), which a loop turn writes with its cursor.
import type { ScannedBlock, StateStore } from '../../core/ports';
import { readStretches, writeStretches } from './block-stretches';
import type { StateKeys } from './keys';
import { queryAll } from './query-all';
import type { TableAccess } from './table-access';

export function createScannedBlocks(
  table: TableAccess,
  keys: StateKeys,
  knownCursorVersion: () => number,
  /** The open stretch as the cursor was last read or written (read now if it was not). */
  openBlocks: () => Promise<readonly ScannedBlock[]> = async () => [],
): Pick<StateStore, 'putScannedBlocks' | 'getScannedBlocks'> {
  return {
    async putScannedBlocks(blocks) {
      if (blocks.length === 0) return;
      await writeStretches(table, keys, blocks, knownCursorVersion() + 1);
    },

    async getScannedBlocks(fromHeight, toHeight) {
      const from = Math.max(0, fromHeight);
      if (toHeight < from) return [];
      const queryRange = (pk: string, fromSk: string, toSk: string) =>
        queryAll(table, {
          KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
          ExpressionAttributeValues: { ':pk': pk, ':from': fromSk, ':to': toSk },
          ConsistentRead: true,
        });
      const stored = await readStretches(table, keys, queryRange, from, toHeight);
      // The open stretch was written with the cursor as last read: newer than any stretch item.
      const open = (await openBlocks()).filter((b) => b.height >= from && b.height <= toHeight);
      if (open.length === 0) return stored;
      const byHeight = new Map(stored.map((b) => [b.height, b]));
      for (const block of open) byHeight.set(block.height, { ...block, alertKeys: [] });
      return [...byHeight.values()].sort((a, b) => a.height - b.height);
    },
  };
}
