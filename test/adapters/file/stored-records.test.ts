// The small named records in the state file are the document members earlier versions wrote: a file written
// before loads as it was, and what is written now is the same member, in the snapshot or a journal line.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileStateStore } from '../../../lambda/adapters/file/file-state-store';
import { BARE_SMS_TALLY, EARLIER_MEMBERS, SAMPLE_NAMES, SAMPLE_RECORDS } from '../stored-record-samples';

let dir = '';
let count = 0;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'stacks-watch-records-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const earlierDocument = (members: Record<string, unknown>) => ({
  format: 1,
  network: 'mainnet',
  cursor: null,
  lease: null,
  blocks: {},
  contracts: {},
  alerts: {},
  ...members,
});

describe('the named records in the state file', () => {
  it('reads every record from a file an earlier version wrote', async () => {
    const path = join(dir, `state-${++count}.json`);
    await writeFile(path, JSON.stringify(earlierDocument({ ...EARLIER_MEMBERS })));
    const store = await FileStateStore.open(path, 'mainnet');
    for (const name of SAMPLE_NAMES) expect(await store.readRecord(name)).toEqual(SAMPLE_RECORDS[name]);
  });

  it('writes every record as the document member an earlier version wrote', async () => {
    const path = join(dir, `state-${++count}.json`);
    const store = await FileStateStore.open(path, 'mainnet');
    for (const name of SAMPLE_NAMES) await store.writeRecord(name, SAMPLE_RECORDS[name]);
    // The first change makes the snapshot; each later one is a journal line setting one member to its value.
    const snapshot = JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;
    const lines = (await readFile(`${path}.journal`, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as unknown);
    expect(snapshot).toEqual({ ...earlierDocument({ blockStall: SAMPLE_RECORDS.blockStall }), journaled: true });
    expect(lines).toEqual(SAMPLE_NAMES.slice(1).map((name) => [[[name], EARLIER_MEMBERS[name]]]));
  });

  it('removes the member when a record is written null', async () => {
    const path = join(dir, `state-${++count}.json`);
    await writeFile(path, JSON.stringify(earlierDocument({ blockStall: SAMPLE_RECORDS.blockStall })));
    await (await FileStateStore.open(path, 'mainnet')).writeRecord('blockStall', null);
    expect(await (await FileStateStore.open(path, 'mainnet')).readRecord('blockStall')).toBeNull();
    expect((await readFile(`${path}.journal`, 'utf8')).trim()).toBe(JSON.stringify([[['blockStall']]]));
  });

  it('reads an SMS member of the older shape (the bare tally) as a tally with nothing else', async () => {
    const path = join(dir, `state-${++count}.json`);
    await writeFile(path, JSON.stringify(earlierDocument({ smsTally: BARE_SMS_TALLY })));
    expect(await (await FileStateStore.open(path, 'mainnet')).readRecord('smsTally')).toEqual({ held: BARE_SMS_TALLY });
  });
});
