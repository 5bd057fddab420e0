// The block-stall record (core/health/block-stalls.ts) is an item of its own, read by every run that passed
// blocks to see whether it must be cleared: on the loop's turns, a read on top of the cursor's every few
// seconds. A mark on the cursor item says whether a record exists, so a run that read the cursor (a loop
// turn's one read) knows without that second read. The mark is set before the record is written and removed
// after it is deleted: a crash between leaves a mark without a record, which costs the read again, never a
// record without a mark. A record written before marks existed is not seen by such a run, which takes it as
// cleared: at worst a failing block's count starts again at one.
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { BlockStall, RecordStore } from '../../core/ports';
import type { CursorRecord } from './cursor-record';
import type { StateKeys } from './keys';
import { callTable, type TableAccess } from './table-access';

/** The named records, with the block-stall record read and written through its mark on the cursor item. */
export function markedBlockStall(table: TableAccess, keys: StateKeys, cursor: CursorRecord, records: RecordStore): RecordStore {
  const mark = (on: boolean) =>
    callTable(table, 'UpdateItem', () =>
      table.doc.send(
        new UpdateCommand({
          TableName: table.tableName,
          Key: keys.cursor,
          UpdateExpression: on ? 'SET #mark = :on' : 'REMOVE #mark',
          ExpressionAttributeNames: { '#mark': 'blockStalled' },
          ...(on ? { ExpressionAttributeValues: { ':on': true } } : {}),
        }),
      ),
    );
  const readStall = async (): Promise<BlockStall | null> => (cursor.stallMarked === false ? null : records.readRecord('blockStall'));
  const writeStall = async (stall: BlockStall | null): Promise<void> => {
    if (stall) {
      if (cursor.stallMarked !== true) await mark(true);
      cursor.stallMarked = true;
      await records.writeRecord('blockStall', stall);
      return;
    }
    await records.writeRecord('blockStall', null);
    await mark(false);
    cursor.stallMarked = false;
  };
  return {
    readRecord: (name) => (name === 'blockStall' ? (readStall() as never) : records.readRecord(name)),
    writeRecord: (name, value) => (name === 'blockStall' ? writeStall(value as BlockStall | null) : records.writeRecord(name, value)),
  };
}
