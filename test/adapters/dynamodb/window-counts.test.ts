// A window's counts ride on the cursor item, and DynamoDB bills every write of that item (the lease take too)
// for its whole size: they are stored compressed. Against a real DynamoDB API (dynalite): they read back as
// written, an item written before compression (JSON text) still reads, and a damaged attribute stops the run
// with a message naming the item.
import { describe, expect, it } from 'vitest';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { encodeWindows, parseWindows } from '../../../lambda/adapters/dynamodb/window-counts';
import type { CursorPosition } from '../../../lambda/core/ports';
import type { WindowStates } from '../../../lambda/core/stages/window-state';
import { useLocalStateTable } from './local-state-table';

const table = useLocalStateTable();
const Key = { pk: 'NET#mainnet', sk: 'CURSOR' };

/** A busy sum window: an entry per block, amounts with no pattern, the newest naming their transaction. */
function busyWindow(entries: number): WindowStates {
  let seed = 11;
  const random = () => (seed = (seed * 48_271) % 2_147_483_647) / 2_147_483_647;
  return {
    'treasury outflow per hour': {
      of: 'treasury outflows',
      entries: Array.from({ length: entries }, (_, i) => ({
        h: 3_500_000 + i,
        t: 1_790_000_000 + i * 5 + Math.floor(random() * 4),
        n: 1 + Math.floor(random() * 3),
        v: String(Math.floor(random() * 1e12)),
        c: 1,
        tx:
          i >= entries - 16
            ? [
                `0x${Math.floor(random() * 1e15)
                  .toString(16)
                  .padStart(64, '0')}`,
              ]
            : [],
      })),
    },
  };
}

const position = (windows: WindowStates): CursorPosition => ({ height: 3_500_719, hash: `0x${'c'.repeat(64)}`, time: 1_790_003_600, windows });

describe('window counts on the cursor item', () => {
  it('reads back the counts the cursor write stored', async () => {
    const windows = busyWindow(720);
    const store = table.store();
    await store.writeCursor(position(windows), null);
    expect((await store.readCursor())?.windows).toEqual(windows);
  });

  it('stores an hour of a busy sum window in under a quarter of its JSON, so each write of the item costs a quarter of the units', () => {
    const windows = busyWindow(720);
    const json = Buffer.byteLength(JSON.stringify(windows));
    expect(json).toBeGreaterThan(45_000);
    expect(encodeWindows(windows).length).toBeLessThan(json / 4);
  });

  it('still reads counts written as JSON text before they were compressed', async () => {
    const windows = busyWindow(30);
    const store = table.store();
    const cursor = await store.writeCursor(position(busyWindow(1)), null);
    await table.doc().send(
      new UpdateCommand({
        TableName: table.tableName(),
        Key,
        UpdateExpression: 'SET #w = :w',
        ExpressionAttributeNames: { '#w': 'windows' },
        ExpressionAttributeValues: { ':w': JSON.stringify(windows) },
      }),
    );
    expect((await store.readCursor())?.windows).toEqual(windows);
    // The next cursor write stores them compressed.
    await store.writeCursor({ ...position(windows), height: 3_500_720 }, cursor.version);
    expect((await store.readCursor())?.windows).toEqual(windows);
  });

  it('refuses bytes that do not decompress to counts, naming the table and what to do', () => {
    expect(() => parseWindows(new Uint8Array([1, 2, 3, 4]), 'stacks-watch-state')).toThrow(
      /cursor item in stacks-watch-state holds window counts that are not valid \(windows: 4 bytes that do not decompress\); remove the attribute/,
    );
    expect(() => parseWindows('{"w": {"of": 1}}', 'stacks-watch-state')).toThrow(/windows: \{"w": \{"of": 1\}\}…/);
  });
});
