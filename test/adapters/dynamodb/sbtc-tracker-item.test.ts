// The sBTC tracker at its ceilings, every record it follows grown by what it learns, is one DynamoDB item that
// dynalite (which refuses an item past 400 KB as DynamoDB does) accepts and reads back whole.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDynamoStateStore } from '../../../lambda/adapters/dynamodb';
import type { Block } from '../../../lambda/core/domain';
import { SBTC_MAINNET_DEPLOYER } from '../../../lambda/core/packs/sbtc-bridge';
import { compileWatchRules } from '../../../lambda/core/rules/rule-lists';
import type { SbtcDeposit } from '../../../lambda/core/sbtc/records';
import type { EmilyApi } from '../../../lambda/core/sbtc/emily-port';
import { MAX_TRACKED } from '../../../lambda/core/sbtc/tracker-state';
import { sbtcLifecycleStage } from '../../../lambda/core/stages/sbtc-lifecycle';
import { config, RecordingOperator, RecordingTelemetry } from '../../core/harness';
import { startDynalite, type LocalDynamo } from '../../support/dynalite';
import { MemoryChain } from '../../support/memory-chain';

let dynamo: LocalDynamo;
beforeAll(async () => {
  dynamo = await startDynalite();
});
afterAll(async () => {
  await dynamo?.close();
});

const REGISTRY = `${SBTC_MAINNET_DEPLOYER}.sbtc-registry`;
const rules = compileWatchRules(config({ contractLogs: [{ contractId: REGISTRY, where: { topic: 'withdrawal-reject' } }], sbtcLifecycle: {} } as never));

/** The largest record: a deposit to a contract principal with a 128-character name. */
const widest = (n: number): SbtcDeposit => ({
  bitcoinTxid: n.toString(16).padStart(64, '0'),
  outputIndex: 4_000,
  recipient: `SP3FBR2AGK5H9QBDH3EEN6DF8EK8JY7RX8QJ5SVTE.${'a'.repeat(128)}`,
  amountSats: 2_100_000_000_000_000n,
  status: 'pending',
  statusMessage: null,
  lockTime: 950,
  maxFeeSats: null,
  signersKey: 'ab'.repeat(32),
  fulfillment: null,
  replacedByTx: null,
  lastUpdateHeight: 1,
});

const emily: EmilyApi = {
  read: async (plan) => ({
    observations: plan.openDeposits ? Array.from({ length: MAX_TRACKED }, (_, i) => ({ source: 'emily' as const, deposit: widest(i + 1) })) : [],
    malformed: [],
    error: null,
    requests: 1,
  }),
};

describe('the sBTC tracker in its own DynamoDB item', () => {
  it('fits one item at its ceilings with every record grown by its mint and alerts, and reads back whole', async () => {
    const deps = {
      chain: new MemoryChain(),
      clock: { now: () => 1_700_000_000_000 },
      telemetry: new RecordingTelemetry(),
      operator: new RecordingOperator(),
      emily,
    };
    const stage = sbtcLifecycleStage.open({ deps, rules, network: 'mainnet', tip: { height: 10, burnHeight: 900 } })!;
    const block: Block = { header: { height: 10, hash: '0x10', parentHash: '0x09', time: 1_700_000_000, txCount: 0, burnHeight: 900 }, transactions: [] };
    const { state } = await stage.apply({ block, events: new Map(), network: 'mainnet', positionOf: () => undefined }, [], undefined);
    for (const d of Object.values(state!.deposits)) {
      d.sent.push('deposit_late:warning', 'deposit_late:critical', 'deposit_reclaimable:reclaim');
      d.minted = { stacksTxid: `0x${'ef'.repeat(32)}`, stacksHeight: 1_000_000, sweepTxid: 'cd'.repeat(32) };
      d.endedAt = 1_000_000;
    }
    const store = createDynamoStateStore({
      client: dynamo.client,
      tableName: await dynamo.createTable('sbtc-item'),
      network: 'mainnet',
      sleep: async () => {},
    });
    await store.writeRecord('sbtcLifecycle', state!);
    expect(await store.readRecord('sbtcLifecycle')).toEqual(state);
    // The same table refuses an item past 400 KB: what makes the write above a check of the size.
    const tooBig = { ...state!, throttle: 'x'.repeat(409_600 - JSON.stringify(state).length) };
    await expect(store.writeRecord('sbtcLifecycle', tooBig)).rejects.toThrow(/size/);
  });
});
