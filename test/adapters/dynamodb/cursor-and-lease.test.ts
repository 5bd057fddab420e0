// The cursor and the run lease against a real DynamoDB API (dynalite): the conditional writes decide.
import { describe, expect, it } from 'vitest';
import { CursorConflictError } from '../../../lambda/core/ports';
import { useLocalStateTable } from './local-state-table';

const table = useLocalStateTable();

const block100 = { height: 100, hash: '0xaa', time: 1_700_000_000 };
const block101 = { height: 101, hash: '0xbb', time: 1_700_000_010 };
const block102 = { height: 102, hash: '0xcc', time: 1_700_000_020 };

describe('cursor', () => {
  it('reads as absent before the first write', async () => {
    expect(await table.store().readCursor()).toBeNull();
  });

  it('reads as absent while its item holds only a lease, and is then created at version 1 beside the lease', async () => {
    const store = table.store();
    expect(await store.acquireLease('run-a', 1_000, 60_000)).toBe(true);
    expect(await store.readCursor()).toBeNull();
    expect(await store.writeCursor(block100, null)).toEqual({ ...block100, version: 1 });
    expect(await table.store().acquireLease('run-b', 2_000, 60_000)).toBe(false);
    await store.writeCursor(block101, 1, { releaseLeaseOf: 'run-a' });
    expect(await table.store().acquireLease('run-b', 2_000, 60_000)).toBe(true);
    expect(await table.store().readCursor()).toEqual({ ...block101, version: 2 });
  });

  it('is created at version 1 and read back as written', async () => {
    const store = table.store();
    const written = await store.writeCursor(block100, null);
    expect(written).toEqual({ ...block100, version: 1 });
    expect(await store.readCursor()).toEqual({ ...block100, version: 1 });
  });

  it('advances when the expected version is the current one', async () => {
    const store = table.store();
    await store.writeCursor(block100, null);
    const advanced = await store.writeCursor(block101, 1);
    expect(advanced.version).toBe(2);
    expect(await store.readCursor()).toEqual({ ...block101, version: 2 });
  });

  it('keeps pending retractions with the cursor and drops them when a write has none', async () => {
    const store = table.store();
    const pendingRetractions = { untilHeight: 105, keys: ['token_transfer:0x01', 'contract_log:0x02:3'] };
    await store.writeCursor({ ...block100, pendingRetractions }, null);
    expect((await store.readCursor())?.pendingRetractions).toEqual(pendingRetractions);
    await store.writeCursor(block101, 1);
    expect(await store.readCursor()).not.toHaveProperty('pendingRetractions');
  });

  it('refuses to be created again once it exists', async () => {
    const store = table.store();
    await store.writeCursor(block100, null);
    await expect(store.writeCursor(block101, null)).rejects.toBeInstanceOf(CursorConflictError);
    expect(await store.readCursor()).toEqual({ ...block100, version: 1 });
  });

  it('refuses a move from a stale version and keeps the newer cursor', async () => {
    const store = table.store();
    await store.writeCursor(block100, null);
    await store.writeCursor(block101, 1);
    await expect(store.writeCursor(block102, 1)).rejects.toBeInstanceOf(CursorConflictError);
    expect(await store.readCursor()).toEqual({ ...block101, version: 2 });
  });

  it('lets exactly one of two runs advance from the same version', async () => {
    const first = table.store();
    const second = table.store();
    await first.writeCursor(block100, null);
    const results = await Promise.allSettled([first.writeCursor(block101, 1), second.writeCursor(block102, 1)]);
    const won = results.filter((r) => r.status === 'fulfilled');
    const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect(lost[0]?.reason).toBeInstanceOf(CursorConflictError);
    const winner = results[0]?.status === 'fulfilled' ? block101 : block102;
    expect(await first.readCursor()).toEqual({ ...winner, version: 2 });
  });

  it('keeps each network to its own cursor', async () => {
    await table.store({ network: 'mainnet' }).writeCursor(block100, null);
    expect(await table.store({ network: 'testnet' }).readCursor()).toBeNull();
  });
});

describe('run lease', () => {
  const now = 1_700_000_000_000;
  const ttl = 60_000;

  it('is granted when nobody holds it', async () => {
    expect(await table.store().acquireLease('run-a', now, ttl)).toBe(true);
  });

  it('is refused to another run while unexpired', async () => {
    const store = table.store();
    await store.acquireLease('run-a', now, ttl);
    expect(await store.acquireLease('run-b', now + ttl - 1, ttl)).toBe(false);
  });

  it('is renewed by the run that holds it', async () => {
    const store = table.store();
    await store.acquireLease('run-a', now, ttl);
    expect(await store.acquireLease('run-a', now + 1_000, ttl)).toBe(true);
    // The renewal moved the expiry: another run is still refused past the first lease's end.
    expect(await store.acquireLease('run-b', now + ttl + 500, ttl)).toBe(false);
  });

  it('is taken over once expired', async () => {
    const store = table.store();
    await store.acquireLease('run-a', now, ttl);
    expect(await store.acquireLease('run-b', now + ttl + 1, ttl)).toBe(true);
    expect(await store.acquireLease('run-a', now + ttl + 2, ttl)).toBe(false);
  });

  it('is not released by a run that does not hold it', async () => {
    const store = table.store();
    await store.acquireLease('run-a', now, ttl);
    await store.releaseLease('run-b');
    expect(await store.acquireLease('run-c', now + 1, ttl)).toBe(false);
  });

  it('is free for the next run once its holder releases it', async () => {
    const store = table.store();
    await store.acquireLease('run-a', now, ttl);
    await store.releaseLease('run-a');
    expect(await store.acquireLease('run-b', now + 1, ttl)).toBe(true);
  });

  it('can be released when nobody holds it', async () => {
    await expect(table.store().releaseLease('run-a')).resolves.toBeUndefined();
  });
});
