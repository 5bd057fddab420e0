// The small named records on DynamoDB are the items earlier versions wrote, attribute for attribute: a table
// written before loads as it was, and what is written now an earlier version reads back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoDBDocumentClient, PutCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { createDynamoStateStore } from '../../../lambda/adapters/dynamodb';
import { startDynalite, type LocalDynamo } from '../../support/dynalite';
import { BARE_SMS_TALLY, EARLIER_ITEMS, SAMPLE_NAMES, SAMPLE_RECORDS } from '../stored-record-samples';

let dynamo: LocalDynamo;
let count = 0;
beforeAll(async () => {
  dynamo = await startDynalite();
});
afterAll(async () => {
  await dynamo?.close();
});

async function freshTable() {
  const tableName = await dynamo.createTable(`records-${++count}`);
  const doc = DynamoDBDocumentClient.from(dynamo.client);
  const store = createDynamoStateStore({ client: dynamo.client, tableName, network: 'mainnet', sleep: async () => {} });
  return {
    store,
    put: (item: Record<string, unknown>) => doc.send(new PutCommand({ TableName: tableName, Item: item })),
    items: async () => (await doc.send(new ScanCommand({ TableName: tableName }))).Items ?? [],
    /** The records' own items: the cursor item only carries the block-stall mark (block-stall-mark.ts). */
    recordItems: async () => ((await doc.send(new ScanCommand({ TableName: tableName }))).Items ?? []).filter((item) => item.sk !== 'CURSOR'),
    cursorItem: async () => ((await doc.send(new ScanCommand({ TableName: tableName }))).Items ?? []).find((item) => item.sk === 'CURSOR'),
  };
}

describe('the named records on DynamoDB', () => {
  it('reads every record from the items an earlier version wrote', async () => {
    const table = await freshTable();
    for (const name of SAMPLE_NAMES) await table.put(EARLIER_ITEMS[name]);
    for (const name of SAMPLE_NAMES) expect(await table.store.readRecord(name)).toEqual(SAMPLE_RECORDS[name]);
  });

  it('writes every record as the item an earlier version wrote, and deletes it on null', async () => {
    const table = await freshTable();
    for (const name of SAMPLE_NAMES) await table.store.writeRecord(name, SAMPLE_RECORDS[name]);
    const items = await table.recordItems();
    expect(items).toHaveLength(SAMPLE_NAMES.length);
    for (const name of SAMPLE_NAMES) expect(items).toContainEqual(EARLIER_ITEMS[name]);
    expect((await table.cursorItem())?.blockStalled).toBe(true);
    for (const name of SAMPLE_NAMES) await table.store.writeRecord(name, null);
    expect(await table.recordItems()).toEqual([]);
    expect((await table.cursorItem())?.blockStalled).toBeUndefined();
    for (const name of SAMPLE_NAMES) expect(await table.store.readRecord(name)).toBeNull();
  });

  it("keeps a balance read's retry schedule (after a lasting cause) in the balances item, read back as written", async () => {
    const table = await freshTable();
    const book = {
      ...SAMPLE_RECORDS.balances,
      unread: { 'busy|SP9|stx|1000|': { failures: 3, cause: 'more than 1000 transactions since block 10', retryAt: 80, tries: 3 } },
    };
    await table.store.writeRecord('balances', book);
    expect(await table.store.readRecord('balances')).toEqual(book);
  });

  it('reads an SMS item of the older shape (the bare tally) as a tally with nothing else', async () => {
    const table = await freshTable();
    await table.put({ pk: 'NET#mainnet', sk: 'SMS', ...BARE_SMS_TALLY });
    expect(await table.store.readRecord('smsTally')).toEqual({ held: BARE_SMS_TALLY });
  });
});
