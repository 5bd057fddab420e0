import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileStateStore } from '../../../lambda/adapters/file/file-state-store';
import { StateJournal } from '../../../lambda/adapters/file/state-journal';
import { CursorConflictError } from '../../../lambda/core/ports';

let dir: string;
let path: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'stacks-watch-state-'));
  path = join(dir, 'nested', 'state.json');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The state as a new process finds it on disk: the snapshot with the journal applied. */
const onDisk = async (file: string) => (await new StateJournal(file).read())!;
const at = (height: number) => ({ height, hash: `0x${height}`, time: 1_700_000_000 + height });

describe('file state store', () => {
  it('starts empty without writing anything', async () => {
    const store = await FileStateStore.open(path, 'mainnet');
    expect(await store.readCursor()).toBeNull();
    await expect(readdir(dir)).resolves.toEqual([]);
  });

  it('persists the cursor so a new process sees it', async () => {
    const store = await FileStateStore.open(path, 'mainnet');
    await store.writeCursor(at(10), null);
    const reopened = await FileStateStore.open(path, 'mainnet');
    expect(await reopened.readCursor()).toEqual({ ...at(10), version: 1 });
  });

  it('persists the record of a failing block so the next process counts on, and drops it when cleared', async () => {
    const stall = { height: 7, failures: 2, since: 1_800_000_000_000, cause: 'the API answered 500' };
    await (await FileStateStore.open(path, 'mainnet')).writeRecord('blockStall', stall);
    const reopened = await FileStateStore.open(path, 'mainnet');
    expect(await reopened.readRecord('blockStall')).toEqual(stall);
    await reopened.writeRecord('blockStall', null);
    expect(await (await FileStateStore.open(path, 'mainnet')).readRecord('blockStall')).toBeNull();
    expect(await onDisk(path)).not.toHaveProperty('blockStall');
  });

  it("reads an SMS tally of the shape written before the loop's window existed as that tally with no window", async () => {
    const held = { firstKey: 'token_transfer:0xab', counts: { critical: 1, warning: 0, info: 0 }, fromHeight: 7, toHeight: 7, throughHeight: 7 };
    await (await FileStateStore.open(path, 'mainnet')).writeCursor(at(7), null);
    const doc = await onDisk(path);
    await writeFile(path, JSON.stringify({ ...doc, smsTally: held }));
    expect(await (await FileStateStore.open(path, 'mainnet')).readRecord('smsTally')).toEqual({ held });
  });

  it('refuses a cursor write with a stale version', async () => {
    const store = await FileStateStore.open(path, 'mainnet');
    await store.writeCursor(at(10), null);
    await expect(store.writeCursor(at(11), null)).rejects.toBeInstanceOf(CursorConflictError);
    await store.writeCursor(at(11), 1);
    await expect(store.writeCursor(at(12), 1)).rejects.toBeInstanceOf(CursorConflictError);
  });

  it('has every change on disk when it answers, leaving no temp file and the snapshot whole JSON', async () => {
    const store = await FileStateStore.open(path, 'mainnet');
    for (let h = 1; h <= 20; h++) await store.writeCursor(at(h), h === 1 ? null : h - 1);
    expect((await readdir(join(dir, 'nested'))).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    expect(JSON.parse(await readFile(path, 'utf8')).format).toBe(1);
    expect((await onDisk(path)).cursor?.height).toBe(20);
  });

  it('names the file and what to do when it is not JSON', async () => {
    await FileStateStore.open(path, 'mainnet').then((s) => s.writeCursor(at(1), null));
    await writeFile(path, '{"format":1,');
    await expect(FileStateStore.open(path, 'mainnet')).rejects.toThrow(new RegExp(`${path}.*not valid JSON.*move it away`));
  });

  it('refuses a state file of another network', async () => {
    await FileStateStore.open(path, 'testnet').then((s) => s.writeCursor(at(1), null));
    await expect(FileStateStore.open(path, 'mainnet')).rejects.toThrow(/belongs to testnet.*--state/);
  });

  it('lets only one local runner hold the lease on a state file', async () => {
    const a = await FileStateStore.open(path, 'mainnet');
    const b = await FileStateStore.open(path, 'mainnet');
    expect(await a.acquireLease('a', 1000, 60_000)).toBe(true);
    expect(await b.acquireLease('b', 1000, 60_000)).toBe(false);
    await a.releaseLease('a');
    expect(await b.acquireLease('b', 2000, 60_000)).toBe(true);
  });

  it('takes over the lease of a runner whose process is gone', async () => {
    await FileStateStore.open(path, 'mainnet').then((s) => s.acquireLease('a', 1000, 60_000));
    const lock = JSON.parse(await readFile(`${path}.lock`, 'utf8'));
    await writeFile(`${path}.lock`, JSON.stringify({ ...lock, pid: 2 ** 22 + 12345 })); // no such pid
    const b = await FileStateStore.open(path, 'mainnet');
    expect(await b.acquireLease('b', 1000, 60_000)).toBe(true);
  });

  it('takes over an expired lease', async () => {
    const a = await FileStateStore.open(path, 'mainnet');
    await a.acquireLease('a', 1000, 60_000);
    const b = await FileStateStore.open(path, 'mainnet');
    expect(await b.acquireLease('b', 61_001, 60_000)).toBe(true);
  });

  it('counts an alert record past its expiry as absent', async () => {
    const store = await FileStateStore.open(path, 'mainnet');
    await store.claimAlert('k', 0, 1000);
    await store.markAlertSent('k', 0, { key: 'k' });
    expect(await store.claimAlert('k', 1000, 1000)).toBe('sent');
    expect(await store.claimAlert('k', 31 * 24 * 3600 * 1000, 1000)).toBe('claimed');
  });

  it('drops expired alert records from the file when a run takes the lease, so it does not grow forever', async () => {
    const store = await FileStateStore.open(path, 'mainnet');
    await store.claimAlert('old', 0, 1000);
    await store.markAlertSent('old', 0, { key: 'old' });
    const later = 31 * 24 * 3600 * 1000;
    await store.claimAlert('new', later, 1000);
    await store.markAlertSent('new', later, { key: 'new' });
    await store.releaseLease('run-1');
    expect(await store.acquireLease('run-2', later, 60_000)).toBe(true);
    await store.writeCursor(at(1), null);
    expect(Object.keys((await onDisk(path)).alerts)).toEqual(['new']);
  });
});

describe('chat deliveries in the state file', () => {
  it('keeps every delivery recorded while the cycle writes, through a compaction, one write at a time', async () => {
    const store = await FileStateStore.open(path, 'mainnet');
    await store.writeCursor({ ...at(1), height: 1 }, null);
    // Chat queues record beside the cycle, several at once: in waves of 10, 300 deliveries of 4 KB pass the
    // journal's 1 MiB, and the wave that finds it too big compacts it while the others in it write too.
    const reason = 'r'.repeat(4_096);
    for (let wave = 0; wave < 30; wave++) {
      await Promise.all(
        Array.from({ length: 10 }, (_, j) => {
          const i = wave * 10 + j;
          return i % 50 === 0
            ? store.claimAlert(`k${i}`, 1_000 + i, 60_000)
            : store.record(`k${i}`, i % 2 === 0 ? 'slack' : 'discord', { state: 'failed', attempts: 1, at: i, reason });
        }),
      );
    }
    const doc = await onDisk(path);
    const kept = Object.entries(doc.chat ?? {}).length;
    expect(kept).toBe(300 - 6);
    expect(Object.keys(doc.alerts)).toHaveLength(6);
  });
});
