// The sBTC lifecycle stage and Emily's port: asked only at a block at the tip's Bitcoin height (its records are
// how things stand now), once a run, never in a replay; and the operator told once when the tracker is full.
import { describe, expect, it } from 'vitest';
import type { Block } from '../../../lambda/core/domain';
import { compileWatchRules } from '../../../lambda/core/rules/rule-lists';
import type { StageRun } from '../../../lambda/core/stages/block-stage';
import { sbtcLifecycleStage } from '../../../lambda/core/stages/sbtc-lifecycle';
import type { EmilyApi, EmilyReadPlan } from '../../../lambda/core/sbtc/emily-port';
import type { SbtcDeposit } from '../../../lambda/core/sbtc/records';
import { MAX_TRACKED, type SbtcTrackerState } from '../../../lambda/core/sbtc/tracker-state';
import { SBTC_STATE_MAX_BYTES, stateBytes } from '../../../lambda/core/sbtc/state-bound';
import { SBTC_MAINNET_DEPLOYER } from '../../../lambda/core/packs/sbtc-bridge';
import { config, RecordingOperator, RecordingTelemetry } from '../harness';
import { MemoryChain } from '../../support/memory-chain';

const REGISTRY = `${SBTC_MAINNET_DEPLOYER}.sbtc-registry`;
const rules = compileWatchRules(config({ contractLogs: [{ contractId: REGISTRY, where: { topic: 'withdrawal-reject' } }], sbtcLifecycle: {} } as never));

const deposit = (n: number): SbtcDeposit => ({
  bitcoinTxid: n.toString(16).padStart(64, '0'),
  outputIndex: 0,
  recipient: 'SP3FBR2AGK5H9QBDH3EEN6DF8EK8JY7RX8QJ5SVTE',
  amountSats: 1_000n,
  status: 'pending',
  statusMessage: null,
  lockTime: 950,
  maxFeeSats: null,
  signersKey: null,
  fulfillment: null,
  replacedByTx: null,
  lastUpdateHeight: 1,
});

function emily(deposits: number, shape: (d: SbtcDeposit) => SbtcDeposit = (d) => d): EmilyApi & { plans: EmilyReadPlan[] } {
  const plans: EmilyReadPlan[] = [];
  return {
    plans,
    async read(plan) {
      plans.push(plan);
      const observations = plan.openDeposits ? Array.from({ length: deposits }, (_, i) => ({ source: 'emily' as const, deposit: shape(deposit(i + 1)) })) : [];
      return { observations, malformed: [], error: null, requests: 1 };
    },
  };
}

const at = (height: number, burnHeight: number) => {
  const block: Block = {
    header: { height, hash: `0x${height}`, parentHash: `0x${height - 1}`, time: 1_700_000_000 + height, txCount: 0, burnHeight },
    transactions: [],
  };
  return { block, events: new Map(), network: 'mainnet' as const, positionOf: () => undefined };
};

function open(api: EmilyApi, extra: Partial<StageRun> = {}) {
  const operator = new RecordingOperator();
  const deps = { chain: new MemoryChain(), clock: { now: () => 1_700_000_000_000 }, telemetry: new RecordingTelemetry(), operator, emily: api };
  return { operator, stage: sbtcLifecycleStage.open({ deps, rules, network: 'mainnet', tip: { height: 10, burnHeight: 900 }, ...extra })! };
}

describe('the sBTC stage asking Emily', () => {
  it("asks at the first block at the tip's Bitcoin height, not at older blocks, and once a run", async () => {
    const api = emily(1);
    const { stage } = open(api);
    let state: SbtcTrackerState | undefined;
    for (const [height, burn] of [
      [8, 899],
      [9, 900],
      [10, 900],
    ] as const)
      state = (await stage.apply(at(height, burn), [], state)).state;
    expect(api.plans).toHaveLength(1);
    expect(Object.values(state!.deposits)[0]!.clockFrom).toBe(901);
  });

  it('asks nothing in a replay: Emily says how things stand now, not then', async () => {
    const api = emily(1);
    const { stage } = open(api, { replay: true });
    await stage.apply(at(10, 900), [], undefined);
    expect(api.plans).toEqual([]);
  });

  it('tells the operator once when the tracker is full, naming how many it does not follow', async () => {
    const { stage, operator } = open(emily(MAX_TRACKED + 3));
    const first = await stage.apply(at(10, 900), [], undefined);
    expect(operator.notices.map((n) => n.kind)).toEqual(['sbtc-untracked']);
    expect(operator.notices[0]!.message).toMatch(new RegExp(`at most ${MAX_TRACKED} .* 3 more were not followed`));
    const { stage: next, operator: later } = open(emily(MAX_TRACKED + 9), { tip: { height: 11, burnHeight: 901 } });
    await next.apply(at(11, 901), [], first.state);
    expect(later.notices).toEqual([]);
  });
});

describe('the sBTC tracker one record past its ceiling', () => {
  it('counts the one past MAX_TRACKED untracked and tells the operator once, naming where the state is kept', async () => {
    const { stage, operator } = open(emily(MAX_TRACKED + 1));
    const { state } = await stage.apply(at(10, 900), [], undefined);
    expect(Object.keys(state!.deposits)).toHaveLength(MAX_TRACKED);
    expect(state!.untracked).toBe(1);
    expect(operator.notices).toHaveLength(1);
    expect(operator.notices[0]!.message).toMatch(
      new RegExp(`at most ${MAX_TRACKED} deposits and withdrawals at once, in at most ${SBTC_STATE_MAX_BYTES / 1000} KB`),
    );
    expect(operator.notices[0]!.message).toMatch(/its state is one record of the state store, one DynamoDB item on AWS\); 1 more were not followed/);
    const { stage: next, operator: later } = open(emily(MAX_TRACKED + 1), { tip: { height: 11, burnHeight: 901 } });
    expect(Object.keys((await next.apply(at(11, 901), [], state)).state!.deposits)).toHaveLength(MAX_TRACKED);
    expect(later.notices).toEqual([]);
  });
});

describe('the sBTC state within one DynamoDB item of its own', () => {
  /** The largest record: a deposit to a contract principal with a 128-character name. */
  const widest = (d: SbtcDeposit): SbtcDeposit => ({
    ...d,
    outputIndex: 4_000,
    recipient: `${d.recipient}.${'a'.repeat(128)}`,
    amountSats: 2_100_000_000_000_000n,
    signersKey: 'ab'.repeat(32),
  });

  it('admits new records only while the state is within its bytes, however wide they are, counting the rest untracked', async () => {
    const { stage, operator } = open(emily(MAX_TRACKED, widest));
    const { state } = await stage.apply(at(10, 900), [], undefined);
    expect(stateBytes(state!)).toBeLessThanOrEqual(SBTC_STATE_MAX_BYTES);
    expect(state!.untracked).toBeGreaterThan(0);
    expect(Object.keys(state!.deposits).length + state!.untracked).toBe(MAX_TRACKED);
    expect(operator.notices.map((n) => n.kind)).toEqual(['sbtc-untracked']);
  });

  it('stays under 370 KB once every record it follows has learnt its mint and told its alerts', async () => {
    const { stage } = open(emily(MAX_TRACKED, widest));
    const { state } = await stage.apply(at(10, 900), [], undefined);
    for (const d of Object.values(state!.deposits)) {
      d.sent.push('deposit_late:warning', 'deposit_late:critical', 'deposit_reclaimable:reclaim');
      d.minted = { stacksTxid: `0x${'ef'.repeat(32)}`, stacksHeight: 1_000_000, sweepTxid: 'cd'.repeat(32) };
      d.endedAt = 1_000_000;
    }
    expect(stateBytes(state!)).toBeLessThan(370_000);
  });
});
