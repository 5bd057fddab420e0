// The SMS budget's record against a real DynamoDB API (dynalite): an item of the shape written before the loop's
// SMS minute existed (the bare tally) still reads as the tally it was, so its digest is sent after an upgrade.
import { describe, expect, it } from 'vitest';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { useLocalStateTable } from './local-state-table';

const table = useLocalStateTable();
const Key = { pk: 'NET#mainnet', sk: 'SMS' };
const held = { firstKey: 'token_transfer:0xab', counts: { critical: 1, warning: 2, info: 0 }, fromHeight: 7, toHeight: 9, throughHeight: 9 };

describe('SMS tally record', () => {
  it('reads an item of the older shape (the tally at the top of the item) as that tally with no SMS minute', async () => {
    await table.doc().send(new PutCommand({ TableName: table.tableName(), Item: { ...Key, ...held } }));
    expect(await table.store().readRecord('smsTally')).toEqual({ held });
  });

  it('stores the SMS minute beside the tally in the one item (as `window`), and drops it for a tally counted per invocation', async () => {
    const store = table.store();
    await store.writeRecord('smsTally', { held, minute: { startedAt: 1_800_000_000_000, texted: 5 } });
    const item = async () => (await table.doc().send(new GetCommand({ TableName: table.tableName(), Key }))).Item;
    expect(await item()).toEqual({ ...Key, held, window: { startedAt: 1_800_000_000_000, texted: 5 } });
    await store.writeRecord('smsTally', { held });
    expect(await item()).toEqual({ ...Key, held });
  });

  it('refuses a hand-edited item with a message naming the item', async () => {
    await table.doc().send(new PutCommand({ TableName: table.tableName(), Item: { ...Key, held: null, window: { startedAt: 'soon', texted: 1 } } }));
    await expect(table.store().readRecord('smsTally')).rejects.toThrow(/SMS[\s\S]*startedAt/);
  });
});
