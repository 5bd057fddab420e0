// The block-stall record (core/health/block-stalls.ts) is an item of its own, read by every run that passed
// blocks to see whether it must be cleared: on the loop's turns, a read on top of the cursor's every few
// seconds. A mark on the cursor item says whether a record exists, so a run that read the cursor (a loop
// turn's one read) knows without that second read. The mark is set before the record is written and removed
// after it is deleted: a crash between leaves a mark without a record, which costs the read again, never a
// record without a mark. A record written before marks existed is not seen by such a run, which takes it as
// cleared: at worst a failing block's count starts again at one.
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { BlockStall } from '../../core/ports';
import type { CursorRecord } from './cursor-record';
import type { StateKeys } from './keys';
import { callTable, type TableAccess } from './table-access';

interface StallRecord {
  read(): Promise<BlockStall | null>;
  write(stall: BlockStall | null): Promise<void>;
}

export function markedBlockStall(table: TableAccess, keys: StateKeys, cursor: CursorRecord, record: StallRecord) {
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
  return {
    async readBlockStall(): Promise<BlockStall | null> {
      return cursor.stallMarked === false ? null : record.read();
    },
    async writeBlockStall(stall: BlockStall | null): Promise<void> {
      if (stall) {
        if (cursor.stallMarked !== true) await mark(true);
        cursor.stallMarked = true;
        await record.write(stall);
        return;
      }
      await record.write(null);
      await mark(false);
      cursor.stallMarked = false;
    },
  };
}
