// A watcher upgraded from a version that kept the sBTC tracker in the cursor item: its tracker is read from
// there, written to its own record before the first cursor write (which no longer carries it), and read from
// the record from then on: on DynamoDB and in the state file alike, nothing the tracker followed is lost.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDynamoStateStore } from '../../lambda/adapters/dynamodb';
import { FileStateStore } from '../../lambda/adapters/file/file-state-store';
import { SBTC_MAINNET_DEPLOYER } from '../../lambda/core/packs/sbtc-bridge';
import type { StateStore } from '../../lambda/core/ports';
import { compileWatchRules } from '../../lambda/core/rules/rule-lists';
import { OpenStages } from '../../lambda/core/stages/open-stages';
import { config, RecordingTelemetry } from '../core/harness';
import { startDynalite, type LocalDynamo } from '../support/dynalite';
import { MemoryChain } from '../support/memory-chain';
import { SAMPLE_RECORDS } from './stored-record-samples';

let dynamo: LocalDynamo;
let dir = '';
beforeAll(async () => {
  dynamo = await startDynalite();
  dir = await mkdtemp(join(tmpdir(), 'stacks-watch-sbtc-upgrade-'));
});
afterAll(async () => {
  await dynamo?.close();
  await rm(dir, { recursive: true, force: true });
});

const REGISTRY = `${SBTC_MAINNET_DEPLOYER}.sbtc-registry`;
const rules = compileWatchRules(config({ contractLogs: [{ contractId: REGISTRY, where: { topic: 'withdrawal-reject' } }], sbtcLifecycle: {} } as never));
const open = (state: StateStore) =>
  OpenStages.open({ deps: { chain: new MemoryChain(), clock: { now: () => 0 }, telemetry: new RecordingTelemetry(), state }, rules, network: 'mainnet' });

/** The tracker an earlier version left under the cursor's `stages`. */
const tracker = SAMPLE_RECORDS.sbtcLifecycle;

const STORES: { name: string; store: () => Promise<StateStore> }[] = [
  {
    name: 'DynamoDB (dynalite)',
    store: async () =>
      createDynamoStateStore({
        client: dynamo.client,
        tableName: await dynamo.createTable(`sbtc-upgrade-${Date.now()}`),
        network: 'mainnet',
        sleep: async () => {},
      }),
  },
  { name: 'the state file', store: () => FileStateStore.open(join(dir, `state-${Date.now()}.json`), 'mainnet') },
];

describe.each(STORES)('a tracker an earlier version kept in the cursor item, on $name', ({ store }) => {
  it('is read from the cursor, moved to its own record before the cursor write that drops it, and read from the record after', async () => {
    const state = await store();
    const earlier = await state.writeCursor({ height: 120, hash: '0x78', time: 0, stages: { sbtcLifecycle: { v: 1, state: tracker } } }, null);

    const stages = open(state);
    const loaded = await stages.load(await state.readCursor());
    expect(loaded.sbtcLifecycle).toEqual(tracker);
    // The next cursor write with nothing changed in the tracker: its record first, then the cursor without it.
    await stages.writeRecords(loaded, 121);
    await state.writeCursor(stages.carrying({ height: 121, hash: '0x79', time: 1 }, loaded), earlier.version);
    expect(await state.readRecord('sbtcLifecycle')).toEqual(tracker);
    expect((await state.readCursor())?.stages?.sbtcLifecycle).toBeUndefined();

    const later = await open(state).load(await state.readCursor());
    expect(later.sbtcLifecycle).toEqual(tracker);
  });
});
