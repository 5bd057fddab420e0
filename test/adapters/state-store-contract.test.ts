// One contract for every StateStore: the in-memory document, the state file and DynamoDB (on dynalite) must
// make the same decisions on the same calls, so that the core's guarantees hold whichever store it runs on.
// Each store is reopened ("a new process") where that matters, so that what is checked is what was stored.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDynamoStateStore } from '../../lambda/adapters/dynamodb';
import { FileStateStore } from '../../lambda/adapters/file/file-state-store';
import { DocumentStateStore, emptyDocument } from '../../lambda/adapters/file/state-document';
import { CursorConflictError, type StateStore } from '../../lambda/core/ports';
import { startDynalite, type LocalDynamo } from '../support/dynalite';
import { SAMPLE_NAMES, SAMPLE_RECORDS } from './stored-record-samples';

/** A fresh, empty state; `reopen` gives a store over the same state as a newly started process would. */
interface FreshState {
  reopen(): Promise<StateStore>;
}

let dynamo: LocalDynamo;
let dir = '';
let count = 0;
beforeAll(async () => {
  dynamo = await startDynalite();
  dir = await mkdtemp(join(tmpdir(), 'stacks-watch-contract-'));
});
afterAll(async () => {
  await dynamo?.close();
  await rm(dir, { recursive: true, force: true });
});

const STORES: { name: string; fresh(): Promise<FreshState> }[] = [
  {
    name: 'in-memory document',
    async fresh() {
      const store = new DocumentStateStore(emptyDocument('mainnet'));
      return { reopen: async () => store };
    },
  },
  {
    name: 'state file',
    async fresh() {
      const path = join(dir, `state-${++count}.json`);
      return { reopen: () => FileStateStore.open(path, 'mainnet') };
    },
  },
  {
    name: 'DynamoDB',
    async fresh() {
      const tableName = await dynamo.createTable(`contract-${++count}`);
      return {
        reopen: async () => createDynamoStateStore({ client: dynamo.client, tableName, network: 'mainnet', now: () => T0, sleep: async () => {} }),
      };
    },
  },
];

const T0 = 1_800_000_000_000;
const STALE_MS = 120_000;
const at = (height: number) => ({ height, hash: `0x${height.toString(16).padStart(64, '0')}`, time: 1_700_000_000 + height });
/** As long as real contract_log keys: a 64-hex tx id and an event index. */
const manyKeys = (n: number, salt = 'a') => Array.from({ length: n }, (_, i) => `contract_log:0x${salt.repeat(8)}${i.toString(16).padStart(56, '0')}:${i}`);

describe.each(STORES)('the StateStore contract: $name', ({ fresh }) => {
  it('lets one owner hold the lease until it lapses or is given back', async () => {
    const state = await fresh();
    const store = await state.reopen();
    expect(await store.acquireLease('a', T0, 60_000)).toBe(true);
    expect(await store.acquireLease('a', T0 + 1_000, 60_000)).toBe(true);
    const dynamoOrMemory = await state.reopen();
    // The file store's lock also admits a holder whose process is gone; this one's is alive (this test).
    expect(await dynamoOrMemory.acquireLease('b', T0 + 2_000, 60_000)).toBe(false);
    await store.releaseLease('a');
    expect(await (await state.reopen()).acquireLease('b', T0 + 3_000, 60_000)).toBe(true);
  });

  it('moves the cursor only from the version it was read at', async () => {
    const state = await fresh();
    const store = await state.reopen();
    expect(await store.writeCursor(at(10), null)).toEqual({ ...at(10), version: 1 });
    await expect(store.writeCursor(at(11), null)).rejects.toBeInstanceOf(CursorConflictError);
    await store.writeCursor(at(11), 1);
    await expect((await state.reopen()).writeCursor(at(12), 1)).rejects.toBeInstanceOf(CursorConflictError);
    expect(await (await state.reopen()).readCursor()).toEqual({ ...at(11), version: 2 });
  });

  it('walks an alert key through claimed, in flight, stale, sent', async () => {
    const store = await (await fresh()).reopen();
    expect(await store.claimAlert('k', T0, STALE_MS)).toBe('claimed');
    expect(await store.claimAlert('k', T0 + 1_000, STALE_MS)).toBe('in-flight');
    expect(await store.claimAlert('k', T0 + STALE_MS + 1, STALE_MS)).toBe('stale');
    await store.markAlertSent('k', T0 + STALE_MS + 2, { key: 'k', type: 'token_transfer' });
    expect(await store.claimAlert('k', T0 + STALE_MS + 3, STALE_MS)).toBe('sent');
    expect(await store.getAlertRecord('k')).toMatchObject({ state: 'sent', alert: { key: 'k' } });
  });

  it('frees a released claim and a retracted alert for the next claim', async () => {
    const store = await (await fresh()).reopen();
    await store.claimAlert('r', T0, STALE_MS);
    await store.releaseAlertClaim('r');
    expect(await store.getAlertRecord('r')).toBeNull();
    expect(await store.claimAlert('r', T0 + 1, STALE_MS)).toBe('claimed');
    await store.markAlertSent('r', T0 + 2, { key: 'r' });
    await store.markAlertRetracted('r', T0 + 3);
    expect((await store.getAlertRecord('r'))?.state).toBe('retracted');
    expect(await store.claimAlert('r', T0 + 4, STALE_MS)).toBe('claimed');
  });

  it('keeps a parked alert with its reason and content, and never hands it out to publish again', async () => {
    const state = await fresh();
    const store = await state.reopen();
    await store.claimAlert('p', T0, STALE_MS);
    await store.parkAlert('p', T0 + 1, { key: 'p', type: 'contract_log' }, 'SNS refused the message as invalid (InvalidParameter)');
    const reopened = await state.reopen();
    expect(await reopened.getAlertRecord('p')).toEqual({
      key: 'p',
      state: 'parked',
      reason: 'SNS refused the message as invalid (InvalidParameter)',
      alert: { key: 'p', type: 'contract_log' },
    });
    expect(await reopened.claimAlert('p', T0 + 10 * STALE_MS, STALE_MS)).toBe('parked');
    await reopened.releaseAlertClaim('p');
    expect((await reopened.getAlertRecord('p'))?.state).toBe('parked');
  });

  it('remembers a block with 10,000 alert keys, whole and in order, and a smaller block written over it', async () => {
    const state = await fresh();
    const keys = manyKeys(10_000);
    expect(Buffer.byteLength(JSON.stringify(keys))).toBeGreaterThan(400 * 1024);
    const store = await state.reopen();
    await store.putScannedBlocks([{ ...at(100), parentHash: at(99).hash, alertKeys: ['x'] }]);
    await store.putScannedBlocks([{ ...at(101), parentHash: at(100).hash, alertKeys: keys }]);
    await store.putScannedBlocks([{ ...at(102), parentHash: at(101).hash, alertKeys: ['y'] }]);
    const read = await (await state.reopen()).getScannedBlocks(100, 102);
    expect(read.map((b) => b.height)).toEqual([100, 101, 102]);
    expect(read[1]!.alertKeys).toEqual(keys);
    expect(read[0]!.alertKeys).toEqual(['x']);
    expect((await (await state.reopen()).getScannedBlocks(101, 101))[0]!.alertKeys).toEqual(keys);

    const replaced = { hash: `0x${'b'.repeat(64)}`, height: 101, parentHash: at(100).hash, alertKeys: ['z'] };
    await store.putScannedBlocks([replaced]);
    expect(await (await state.reopen()).getScannedBlocks(101, 101)).toEqual([
      { height: 101, hash: replaced.hash, parentHash: replaced.parentHash, alertKeys: ['z'] },
    ]);
  });

  it('keeps 10,000 pending retractions with the cursor, across writes that change them and one that drops them', async () => {
    const state = await fresh();
    const store = await state.reopen();
    const keys = manyKeys(10_000);
    await store.writeCursor(at(500), null);
    await store.writeCursor({ ...at(400), pendingRetractions: { untilHeight: 510, keys } }, 1);
    expect(await (await state.reopen()).readCursor()).toEqual({ ...at(400), version: 2, pendingRetractions: { untilHeight: 510, keys } });

    const next = await state.reopen();
    const read = (await next.readCursor())!;
    const fewer = keys.slice(1);
    await next.writeCursor({ ...at(401), pendingRetractions: { untilHeight: 510, keys: fewer } }, read.version);
    await next.writeCursor({ ...at(402), pendingRetractions: { untilHeight: 510, keys: fewer } }, read.version + 1);
    await expect(next.writeCursor({ ...at(403), pendingRetractions: { untilHeight: 510, keys } }, read.version)).rejects.toBeInstanceOf(CursorConflictError);
    expect(await (await state.reopen()).readCursor()).toEqual({
      ...at(402),
      version: 4,
      pendingRetractions: { untilHeight: 510, keys: fewer },
    });
    await next.writeCursor(at(403), 4);
    expect(await (await state.reopen()).readCursor()).toEqual({ ...at(403), version: 5 });
  });

  it("keeps the windows' counts with the cursor (150 KB of them beside 3,000 pending retractions), and drops them with a write that has none", async () => {
    const state = await fresh();
    const store = await state.reopen();
    const tx = (h: number, i: number) => `0x${h.toString(16).padStart(60, '0')}${i.toString(16).padStart(4, '0')}`;
    const entries = Array.from({ length: 750 }, (_, h) => ({
      h,
      t: 1_700_000_000 + h,
      n: 2,
      v: '18446744073709551616',
      c: 2,
      tx: [tx(h, 0), tx(h, 1)],
      ...(h < 10 ? { d: 20 } : {}),
    }));
    const windows = { 'treasury drain': { of: 'treasury outflows', entries, exactFrom: 3 } };
    const keys = manyKeys(3_000);
    await store.writeCursor({ ...at(750), windows, pendingRetractions: { untilHeight: 760, keys } }, null);
    expect(await (await state.reopen()).readCursor()).toEqual({ ...at(750), version: 1, windows, pendingRetractions: { untilHeight: 760, keys } });
    await store.writeCursor(at(751), 1);
    expect(await (await state.reopen()).readCursor()).toEqual({ ...at(751), version: 2 });
  });

  it("keeps an unsent SMS digest tally and the loop's window in a record of its own, null heights included, until it is cleared", async () => {
    const state = await fresh();
    const store = await state.reopen();
    expect(await store.readRecord('smsTally')).toBeNull();
    const held = { firstKey: manyKeys(1)[0]!, counts: { critical: 2, warning: 35, info: 0 }, fromHeight: null, toHeight: null, throughHeight: null };
    await store.writeRecord('smsTally', { held });
    expect(await (await state.reopen()).readRecord('smsTally')).toEqual({ held });
    const heights = { held: { ...held, fromHeight: 590, toHeight: 600, throughHeight: 600 }, minute: { startedAt: T0, texted: 5 } };
    await store.writeRecord('smsTally', heights);
    // Cursor writes leave it alone: it is not the cursor's.
    await store.writeCursor(at(601), null);
    expect(await (await state.reopen()).readRecord('smsTally')).toEqual(heights);
    const textsOnly = { held: null, minute: { startedAt: T0 + 1, texted: 1 } };
    await store.writeRecord('smsTally', textsOnly);
    expect(await (await state.reopen()).readRecord('smsTally')).toEqual(textsOnly);
    await store.writeRecord('smsTally', null);
    expect(await (await state.reopen()).readRecord('smsTally')).toBeNull();
    expect(await (await state.reopen()).readCursor()).toEqual({ ...at(601), version: 1 });
  });

  it('records a held or muted match only where the key is free, keeps it with its reason, and lets a later claim take it', async () => {
    const state = await fresh();
    const store = await state.reopen();
    await store.recordHeldOrMuted('h', T0, { key: 'h', rule: 'r' }, 'held', 'held by a 30-minute cooldown');
    await store.recordHeldOrMuted('h', T0 + 1, { key: 'h', rule: 'r' }, 'held', 'held by a 30-minute cooldown'); // a rescan: the same
    const reopened = await state.reopen();
    expect(await reopened.getAlertRecord('h')).toEqual({ key: 'h', state: 'held', reason: 'held by a 30-minute cooldown', alert: { key: 'h', rule: 'r' } });
    await store.claimAlert('s', T0, STALE_MS);
    await store.markAlertSent('s', T0 + 1, { key: 's' });
    await store.recordHeldOrMuted('s', T0 + 2, { key: 's' }, 'muted', 'muted until 2026-11-26T06:00:00Z');
    expect((await (await state.reopen()).getAlertRecord('s'))?.state).toBe('sent');
    expect(await reopened.claimAlert('h', T0 + 3, STALE_MS)).toBe('claimed');
  });

  it('keeps what cooldowns and mutes hold with the cursor (with what a reorg takes back), and drops it with a write that has none', async () => {
    const state = await fresh();
    const store = await state.reopen();
    const tally = {
      rule: 'r',
      severity: 'critical' as const,
      held: 41,
      first: [{ key: 'k', tx_id: '0x01', block_height: 500 }],
      fromHeight: 500,
      toHeight: 510,
    };
    const steps = [
      { h: 509, n: 38, l: 1, to: 508 },
      { h: 510, n: 40, l: 1, to: 509 },
    ];
    const quiet = {
      throughHeight: 510,
      cooldowns: [
        { ...tally, startedBy: 'k0', startedAt: 1_700_000_000, startedHeight: 499, until: 1_700_001_800, minutes: 30, steps },
        { ...tally, startedBy: 'k1', startedAt: 1_699_990_000, until: 1_699_991_800, minutes: 30, d: 498 },
      ],
      mutes: [{ ...tally, rule: 'm', severity: 'warning' as const, until: 1_700_003_600, fromHeight: null, toHeight: null, first: [], held: 0 }],
      exactFrom: 493,
    };
    await store.writeCursor({ ...at(510), quiet }, null);
    expect(await (await state.reopen()).readCursor()).toEqual({ ...at(510), quiet, version: 1 });
    await (await state.reopen()).writeCursor(at(511), 1);
    expect(await (await state.reopen()).readCursor()).toEqual({ ...at(511), version: 2 });
  });

  it("keeps other stages' states with the cursor under their names and versions, and drops them with a write that has none", async () => {
    const state = await fresh();
    const store = await state.reopen();
    const stages = { alertStreak: { v: 1, state: { heights: [508, 509, 510], big: '18446744073709551616' } }, other: { v: 3, state: null } };
    await store.writeCursor({ ...at(510), stages }, null);
    const reopened = await state.reopen();
    expect(await reopened.readCursor()).toEqual({ ...at(510), stages, version: 1 });
    await reopened.writeCursor(at(511), 1);
    expect(await (await state.reopen()).readCursor()).toEqual({ ...at(511), version: 2 });
  });

  it('keeps the balance book of the balance rules, big balances and a stale entry included, replaced by each write', async () => {
    const state = await fresh();
    const store = await state.reopen();
    expect(await store.readRecord('balances')).toBeNull();
    const entry = {
      balance: '340282366920938463463374607431768211455',
      locked: '0',
      unlockBurnHeight: null,
      zone: 'above' as const,
      fingerprint: 'SP…|stx|1|2',
      readAt: 599,
    };
    const book = {
      base: { height: 590, entries: { 'relayer gas|SP…|stx|1|': { ...entry, stale: true } } },
      deltas: [
        {
          height: 600,
          hash: at(600).hash,
          entries: {
            'vault|SP….vault|SM….sbtc-token::sbtc-token||2': { ...entry, balance: '-5', locked: '7', unlockBurnHeight: 960_300, zone: 'below' as const },
          },
        },
      ],
    };
    await store.writeRecord('balances', book);
    expect(await (await state.reopen()).readRecord('balances')).toEqual(book);
    const next = { base: { height: 600, entries: {} }, deltas: [] };
    await store.writeRecord('balances', next);
    await store.writeCursor(at(601), null);
    expect(await (await state.reopen()).readRecord('balances')).toEqual(next);
  });

  it('keeps what the pending rules saw of the mempool in a record of its own, beside the cursor', async () => {
    const state = await fresh();
    const store = await state.reopen();
    expect(await store.readRecord('mempool')).toBeNull();
    const tracked = {
      txId: `0x${'ab'.repeat(32)}`,
      pendingKey: `pending_call:0x${'ab'.repeat(32)}`,
      rule: 'Owner change',
      severity: 'critical' as const,
      sender: 'SP3K8BC0PPEVCV7NZ6QSRWPQ2JE9E5B6N3PA0KBR9',
      nonce: 41,
      contractId: 'SP2C2YFP12AJZB4MABJBAJ55XECVS7E4PMMZ89YZR.vault',
      what: 'set-owner on SP2C2YFP12AJZB4MABJBAJ55XECVS7E4PMMZ89YZR.vault',
      seenAt: T0,
      nextCheckAt: T0 + 60_000,
      checks: 1,
    };
    const mempool = { seen: manyKeys(200), newest: 1_750_000_123, tracked: [tracked] };
    await store.writeRecord('mempool', mempool);
    await store.writeCursor(at(700), null);
    expect(await (await state.reopen()).readRecord('mempool')).toEqual(mempool);
    await store.writeRecord('mempool', { seen: [], tracked: [] });
    expect(await (await state.reopen()).readRecord('mempool')).toEqual({ seen: [], tracked: [] });
    expect(await (await state.reopen()).readCursor()).toEqual({ ...at(700), version: 1 });
  });

  it("keeps how the mempool was last read and the list's measured pages with the mempool record", async () => {
    const state = await fresh();
    const store = await state.reopen();
    const mempool = { seen: ['0x01'], newest: 1_750_000_123, tracked: [], read: { way: 'principals' as const, listPages: { pages: 3, at: T0 } } };
    await store.writeRecord('mempool', mempool);
    expect(await (await state.reopen()).readRecord('mempool')).toEqual(mempool);
    await store.writeRecord('mempool', { seen: [], tracked: [], read: { way: 'list' } });
    expect(await (await state.reopen()).readRecord('mempool')).toEqual({ seen: [], tracked: [], read: { way: 'list' } });
  });

  it('keeps every named record across restarts, each replaced whole by its write and removed by null, none touching another', async () => {
    const state = await fresh();
    const store = await state.reopen();
    for (const name of SAMPLE_NAMES) expect(await store.readRecord(name)).toBeNull();
    for (const name of SAMPLE_NAMES) await store.writeRecord(name, SAMPLE_RECORDS[name]);
    const reopened = await state.reopen();
    for (const name of SAMPLE_NAMES) expect(await reopened.readRecord(name)).toEqual(SAMPLE_RECORDS[name]);
    await reopened.writeRecord('blockStall', { ...SAMPLE_RECORDS.blockStall, failures: 4 });
    await reopened.writeRecord('mempool', null);
    const again = await state.reopen();
    expect(await again.readRecord('blockStall')).toEqual({ ...SAMPLE_RECORDS.blockStall, failures: 4 });
    expect(await again.readRecord('mempool')).toBeNull();
    for (const name of SAMPLE_NAMES.filter((n) => n !== 'blockStall' && n !== 'mempool')) expect(await again.readRecord(name)).toEqual(SAMPLE_RECORDS[name]);
  });

  it('keeps the token decimals read from metadata across restarts, replaced whole by each write, beside the cursor', async () => {
    const state = await fresh();
    const store = await state.reopen();
    expect(await store.readRecord('tokenDecimals')).toBeNull();
    const alex = 'SP102V8P0F7JX67ARQ77WEA3D3CFB5XW39REDT0AM.token-alex::alex';
    const odd = 'SP2C2YFP12AJZB4MABJBAJ55XECVS7E4PMMZ89YZR.odd-token::odd';
    await store.writeRecord('tokenDecimals', { [alex]: { decimals: 8, symbol: 'ALEX' } });
    await store.writeCursor(at(800), null);
    expect(await (await state.reopen()).readRecord('tokenDecimals')).toEqual({ [alex]: { decimals: 8, symbol: 'ALEX' } });
    await store.writeRecord('tokenDecimals', { [alex]: { decimals: 8, symbol: 'ALEX' }, [odd]: { decimals: 0 } });
    expect(await (await state.reopen()).readRecord('tokenDecimals')).toEqual({ [alex]: { decimals: 8, symbol: 'ALEX' }, [odd]: { decimals: 0 } });
    expect(await (await state.reopen()).readCursor()).toEqual({ ...at(800), version: 1 });
  });
});
