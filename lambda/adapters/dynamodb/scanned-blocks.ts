// Scanned blocks as stretches (block-stretches.ts), tagged with the cursor version that will follow them.
import type { StateStore } from '../../core/ports';
import { readStretches, writeStretches } from './block-stretches';
import type { StateKeys } from './keys';
import { queryAll } from './query-all';
import type { TableAccess } from './table-access';

export function createScannedBlocks(
  table: TableAccess,
  keys: StateKeys,
  knownCursorVersion: () => number,
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
      return readStretches(table, keys, queryRange, from, toHeight);
    },
  };
}
