// Crash at every step over the two local stores: the in-memory document (the file store's semantics) and
// the real state file, reopened from disk by every run as a restarted process would.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { FileStateStore } from '../../lambda/adapters/file/file-state-store';
import { DocumentStateStore, emptyDocument } from '../../lambda/adapters/file/state-document';
import { describeCrashAtEveryStep } from './crash-suite';

describeCrashAtEveryStep(
  'in-memory document store',
  async () => {
    const store = new DocumentStateStore(emptyDocument('mainnet'));
    return () => store;
  },
  { every: true },
);

let dir = '';
let files = 0;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'stacks-watch-crash-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describeCrashAtEveryStep(
  'state file',
  async () => {
    const path = join(dir, `state-${++files}.json`);
    return () => FileStateStore.open(path, 'mainnet');
  },
  { every: false },
);
