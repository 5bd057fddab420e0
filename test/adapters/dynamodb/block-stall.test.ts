// The block-stall record against a real DynamoDB API (dynalite): its own item, read back whole, removable.
import { describe, expect, it } from 'vitest';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { BlockStall } from '../../../lambda/core/ports';
import { useLocalStateTable } from './local-state-table';

const table = useLocalStateTable();
const stall: BlockStall = { height: 150, failures: 3, since: 1_800_000_000_000, cause: 'block 150 (0xabc): the API answered 500' };

describe('block-stall record', () => {
  it('is absent until written, and reads back what a previous run wrote', async () => {
    expect(await table.store().readRecord('blockStall')).toBeNull();
    await table.store().writeRecord('blockStall', stall);
    expect(await table.store().readRecord('blockStall')).toEqual(stall);
  });

  it('is its own item beside the cursor, so writing it touches neither cursor nor lease', async () => {
    const store = table.store();
    await store.writeCursor({ height: 149, hash: '0x149', time: 1 }, null);
    await store.writeRecord('blockStall', stall);
    const { Item } = await table.doc().send(new GetCommand({ TableName: table.tableName(), Key: { pk: 'NET#mainnet', sk: 'STALL' } }));
    expect(Item).toMatchObject({ height: 150, failures: 3, cause: stall.cause });
    expect(await store.readCursor()).toMatchObject({ height: 149, version: 1 });
  });

  it('is removed by writing null', async () => {
    const store = table.store();
    await store.writeRecord('blockStall', stall);
    await store.writeRecord('blockStall', null);
    expect(await store.readRecord('blockStall')).toBeNull();
  });

  it('refuses a hand-edited item with a message naming the item', async () => {
    await table
      .doc()
      .send(new PutCommand({ TableName: table.tableName(), Item: { pk: 'NET#mainnet', sk: 'STALL', height: 'x', failures: 1, since: 1, cause: '' } }));
    await expect(table.store().readRecord('blockStall')).rejects.toThrow(/STALL[\s\S]*height/);
  });
});
