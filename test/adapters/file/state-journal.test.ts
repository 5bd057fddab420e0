// The state file's journal: a change costs what it touched, every change is on disk when the store answers,
// a torn last line is ignored, and compaction keeps the files no bigger than the state they hold.
import { appendFile, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileStateStore } from '../../../lambda/adapters/file/file-state-store';
import { StateJournal } from '../../../lambda/adapters/file/state-journal';

let dir: string;
let path: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'stacks-watch-journal-'));
  path = join(dir, 'state.json');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const T0 = 1_800_000_000_000;
const journalOf = (file: string) => `${file}.journal`;
const sizeOf = async (file: string) => (await stat(file)).size;
const onDisk = async (file: string) => (await new StateJournal(file).read())!;

/** An alert copy of about 600 bytes, as a transfer's. */
const copy = (i: number) => ({ type: 'stx_transfer', key: `stx_transfer:${String(i).padStart(8, '0')}`, amount: '1000000', memo: 'x'.repeat(500) });

async function deliver(store: FileStateStore, i: number): Promise<void> {
  const alert = copy(i);
  await store.claimAlert(alert.key, T0, 120_000);
  await store.markAlertSent(alert.key, T0, alert);
}

describe('writes to the state file', () => {
  it('cost what changed: the snapshot is not rewritten, and an alert adds as much after 1,000 alerts as the first did', async () => {
    const store = await FileStateStore.open(path, 'mainnet');
    await store.writeCursor({ height: 1, hash: '0x01', time: 1 }, null);
    const snapshot = await readFile(path, 'utf8');

    await deliver(store, 0);
    const first = await sizeOf(journalOf(path));
    for (let i = 1; i < 1_000; i++) await deliver(store, i);
    const before = await sizeOf(journalOf(path));
    await deliver(store, 1_000);

    expect((await sizeOf(journalOf(path))) - before).toBe(first);
    expect(await readFile(path, 'utf8')).toBe(snapshot);
    expect(Object.keys((await onDisk(path)).alerts)).toHaveLength(1_001);
  });

  it('are all read back by a new process, in order, the last write of an entry winning', async () => {
    const store = await FileStateStore.open(path, 'mainnet');
    await store.writeCursor({ height: 1, hash: '0x01', time: 1 }, null);
    await store.writeRecord('blockStall', { height: 2, failures: 1, since: T0, cause: 'the API answered 500' });
    await deliver(store, 1);
    await store.writeRecord('blockStall', null);
    await store.writeCursor({ height: 2, hash: '0x02', time: 2 }, 1);

    const reopened = await FileStateStore.open(path, 'mainnet');
    expect(await reopened.readCursor()).toEqual({ height: 2, hash: '0x02', time: 2, version: 2 });
    expect(await reopened.readRecord('blockStall')).toBeNull();
    expect(await reopened.claimAlert(copy(1).key, T0, 120_000)).toBe('sent');
  });
});

describe('a crash', () => {
  it('in the middle of an append leaves a torn last line that is ignored, and cut off before the next append', async () => {
    const store = await FileStateStore.open(path, 'mainnet');
    await store.writeCursor({ height: 1, hash: '0x01', time: 1 }, null);
    await deliver(store, 1);
    await appendFile(journalOf(path), '[[["alerts","stx_transfer:torn"],{"state":"se');

    const reopened = await FileStateStore.open(path, 'mainnet');
    expect(await reopened.claimAlert(copy(1).key, T0, 120_000)).toBe('sent');
    expect(await reopened.getAlertRecord('stx_transfer:torn')).toBeNull();
    await deliver(reopened, 2);
    const lines = (await readFile(journalOf(path), 'utf8')).split('\n');
    expect(lines.every((line) => line === '' || Array.isArray(JSON.parse(line)))).toBe(true);
    expect(Object.keys((await onDisk(path)).alerts).sort()).toEqual([copy(1).key, copy(2).key]);
  });

  it('between a new snapshot and emptying the journal replays the old journal to the same state', async () => {
    const store = await FileStateStore.open(path, 'mainnet');
    await store.writeCursor({ height: 1, hash: '0x01', time: 1 }, null);
    for (let i = 0; i < 20; i++) await deliver(store, i);
    await store.writeCursor({ height: 2, hash: '0x02', time: 2 }, 1);
    const journal = await readFile(journalOf(path), 'utf8');
    const state = await onDisk(path);

    await new StateJournal(path).compact(state);
    await writeFile(journalOf(path), journal);
    expect(await onDisk(path)).toEqual(state);
  });

  it('never leaves a line in the middle that the watcher did not write; one there is named, with what to do', async () => {
    const store = await FileStateStore.open(path, 'mainnet');
    await store.writeCursor({ height: 1, hash: '0x01', time: 1 }, null);
    await deliver(store, 1);
    await appendFile(journalOf(path), '{"cursor": 7}\n');
    await deliver(store, 2);
    await expect(FileStateStore.open(path, 'mainnet')).rejects.toThrow(
      /line 3 of the state journal .*state\.json\.journal is not a change the watcher wrote; move it and .* away/,
    );
  });
});

describe('compaction', () => {
  it('writes a new snapshot and empties the journal once the journal outgrows the snapshot', async () => {
    const store = await FileStateStore.open(path, 'mainnet');
    await store.writeCursor({ height: 1, hash: '0x01', time: 1 }, null);
    // About 900 bytes of journal an alert: past 1 MiB within 1,500 alerts.
    for (let i = 0; i < 1_500; i++) await deliver(store, i);
    expect(await sizeOf(journalOf(path))).toBeLessThan(await sizeOf(path));
    expect(Object.keys(JSON.parse(await readFile(path, 'utf8')).alerts).length).toBeGreaterThan(1_100);
    expect(Object.keys((await onDisk(path)).alerts)).toHaveLength(1_500);
  });

  it('refuses a state whose file was deleted and its journal left behind, and starts over once the journal is moved away', async () => {
    const store = await FileStateStore.open(path, 'mainnet');
    await store.writeCursor({ height: 9, hash: '0x09', time: 9 }, null);
    await deliver(store, 1);
    await rm(path);
    await expect(FileStateStore.open(path, 'mainnet')).rejects.toThrow(/the state file .* is missing, but its journal .* is there/);
    await rm(`${path}.journal`);
    const fresh = await FileStateStore.open(path, 'mainnet');
    expect(await fresh.readCursor()).toBeNull();
    await fresh.writeCursor({ height: 1, hash: '0x01', time: 1 }, null);
    expect(await (await FileStateStore.open(path, 'mainnet')).getAlertRecord(copy(1).key)).toBeNull();
  });

  it('refuses a state whose journal was deleted and its file kept, naming the journal', async () => {
    const store = await FileStateStore.open(path, 'mainnet');
    await store.writeCursor({ height: 9, hash: '0x09', time: 9 }, null);
    await deliver(store, 1);
    await rm(journalOf(path));
    await expect(FileStateStore.open(path, 'mainnet')).rejects.toThrow(
      /the state journal .*state\.json\.journal is missing, but the state file .* was written with one/,
    );
  });

  it('opens a state file written before snapshots were marked, with no journal beside it', async () => {
    const old = { format: 1, network: 'mainnet', cursor: { height: 7, hash: '0x07', time: 7, version: 1 }, lease: null, blocks: {}, contracts: {}, alerts: {} };
    await writeFile(path, JSON.stringify(old));
    expect(await (await FileStateStore.open(path, 'mainnet')).readCursor()).toMatchObject({ height: 7 });
  });

  it('opens as new a state whose first snapshot was cut short: an empty journal, the snapshot still a temp file', async () => {
    await writeFile(journalOf(path), '');
    await writeFile(`${path}.4242.tmp`, '{"format":1');
    expect(await (await FileStateStore.open(path, 'mainnet')).readCursor()).toBeNull();
  });
});
