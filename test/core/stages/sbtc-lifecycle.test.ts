// The sBTC lifecycle tracker as a stage: the sbtc-registry's prints in a block become observations at the
// block's Bitcoin height, the tracker's deadlines become `sbtc_lifecycle` alerts, a reorg takes the prints
// back, and through the real scanner the alert goes out once, a rescan after a crash included.
import { bufferCV, principalCV, serializeCV, stringAsciiCV, tupleCV, uintCV } from '@stacks/transactions';
import { describe, expect, it } from 'vitest';
import type { ChainAlert } from '../../../lambda/core/alert-kinds/chain-kinds';
import type { Block, TxEvents } from '../../../lambda/core/domain';
import { SBTC_MAINNET_DEPLOYER } from '../../../lambda/core/packs/sbtc-bridge';
import { compileWatchRules } from '../../../lambda/core/rules/rule-lists';
import type { RunningStage } from '../../../lambda/core/stages/block-stage';
import { BLOCK_STAGES } from '../../../lambda/core/stages/registry';
import { sbtcLifecycleStage } from '../../../lambda/core/stages/sbtc-lifecycle';
import type { SbtcTrackerState } from '../../../lambda/core/sbtc/tracker-state';
import type { StateStore } from '../../../lambda/core/ports';
import { config, harness, RecordingTelemetry } from '../harness';
import { coinbase, contractCall, MemoryChain, type ModelTx } from '../../support/memory-chain';

const REGISTRY = `${SBTC_MAINNET_DEPLOYER}.sbtc-registry`;
const SENDER = 'SP3FBR2AGK5H9QBDH3EEN6DF8EK8JY7RX8QJ5SVTE';
/** The Bitcoin height of the first Stacks block of these tests; each Stacks block here is one Bitcoin block on. */
const BTC = 871_000;

const withdrawalCreateHex = (requestId: number, bitcoinHeight: number) =>
  serializeCV(
    tupleCV({
      topic: stringAsciiCV('withdrawal-create'),
      amount: uintCV(25_000_000),
      'request-id': uintCV(requestId),
      sender: principalCV(SENDER),
      recipient: tupleCV({ version: bufferCV(new Uint8Array([4])), hashbytes: bufferCV(new Uint8Array(20).fill(0xee)) }),
      'block-height': uintCV(bitcoinHeight),
      'max-fee': uintCV(4_000),
    }),
  );

const registryLogs = [{ contractId: REGISTRY, where: { topic: 'withdrawal-reject' } }];
const sbtcConfig = (sbtcLifecycle: object = {}) => config({ contractLogs: registryLogs, sbtcLifecycle } as never);

function openStage(sbtcLifecycle: object = {}): RunningStage<SbtcTrackerState> {
  const deps = { chain: new MemoryChain(), clock: { now: () => 0 }, telemetry: new RecordingTelemetry() };
  const running = sbtcLifecycleStage.open({ deps, rules: compileWatchRules(sbtcConfig(sbtcLifecycle)), network: 'mainnet' });
  if (!running) throw new Error('the stage did not open for a config that watches the sbtc-registry');
  return running;
}

/** Stacks block `height`, anchored to Bitcoin block BTC + (height - 100); with a withdrawal-create print when `requestId` is given. */
function stageBlock(height: number, requestId?: number) {
  const txId = `0x${height.toString(16).padStart(64, '0')}`;
  const block: Block = {
    header: { height, hash: `0x${height}`, parentHash: `0x${height - 1}`, time: 1_700_000_000 + height, txCount: 1, burnHeight: BTC + height - 100 },
    transactions: [{ txId, txIndex: 0, txType: 'contract_call', txStatus: 'success', sender: SENDER, eventCount: requestId === undefined ? 0 : 1 }],
  };
  const events = new Map<string, TxEvents>();
  if (requestId !== undefined) {
    const valueHex = withdrawalCreateHex(requestId, BTC + height - 100);
    events.set(txId, { txId, logs: [{ eventIndex: 0, contractId: REGISTRY, topic: 'print', valueHex, valueRepr: '' }], assets: [] });
  }
  return { block, events, network: 'mainnet' as const, positionOf: () => undefined };
}

/** Blocks 100..`last` through the stage: which alerts it raised at which Stacks height, and the state after. */
async function through(stage: RunningStage<SbtcTrackerState>, last: number, state?: SbtcTrackerState, first = 100) {
  const raised: { height: number; alert: ChainAlert }[] = [];
  for (let height = first; height <= last; height++) {
    const out = await stage.apply(stageBlock(height, height === 100 ? 412 : undefined), [], state);
    state = out.state;
    for (const alert of out.alerts) raised.push({ height, alert });
  }
  return { raised, state };
}

describe('the sBTC lifecycle stage', () => {
  it('raises one warning at the block where a withdrawal passes request + 12 Bitcoin blocks unaccepted', async () => {
    const { raised } = await through(openStage(), 100 + 15);
    expect(raised).toHaveLength(1);
    expect(raised[0]!.height).toBe(112);
    expect(raised[0]!.alert).toMatchObject({
      type: 'sbtc_lifecycle',
      situation: 'withdrawal_late',
      severity: 'warning',
      request_id: 412,
      due_height: BTC + 12,
    });
  });

  it("moves the warning to the section's own withdrawalWarning: request + 5 Bitcoin blocks", async () => {
    const { raised } = await through(openStage({ deadlines: { withdrawalWarning: 5 } }), 100 + 8);
    expect(raised).toHaveLength(1);
    expect(raised[0]!.height).toBe(105);
    expect(raised[0]!.alert).toMatchObject({ situation: 'withdrawal_late', severity: 'warning', due_height: BTC + 5 });
  });

  it('does not open, and so costs nothing, when the config watches no sbtc-registry', () => {
    const deps = { chain: new MemoryChain(), clock: { now: () => 0 }, telemetry: new RecordingTelemetry() };
    expect(sbtcLifecycleStage.open({ deps, rules: compileWatchRules(config()), network: 'mainnet' })).toBeNull();
  });

  it('does not open for a config that watches the sbtc-registry logs without the sbtcLifecycle section', () => {
    const deps = { chain: new MemoryChain(), clock: { now: () => 0 }, telemetry: new RecordingTelemetry() };
    const rules = compileWatchRules(config({ contractLogs: registryLogs } as never));
    expect(sbtcLifecycleStage.open({ deps, rules, network: 'mainnet' })).toBeNull();
  });

  it('forgets a withdrawal-create print that a reorg took away, so no deadline follows it', async () => {
    const stage = openStage();
    const { state } = await through(stage, 105);
    expect(Object.keys(state!.withdrawals)).toEqual(['412']);
    const back = stage.rollback(state, 99).state;
    expect(back!.withdrawals).toEqual({});
    const after = await through(stage, 115, back, 101);
    expect(after.raised).toEqual([]);
  });
});

describe('the sBTC lifecycle stage, on prints it cannot follow', () => {
  function withPrint(change: (at: ReturnType<typeof stageBlock>) => void) {
    const at = stageBlock(100, 412);
    change(at);
    return at;
  }
  const open = () => {
    const telemetry = new RecordingTelemetry();
    const deps = { chain: new MemoryChain(), clock: { now: () => 0 }, telemetry };
    return { telemetry, stage: sbtcLifecycleStage.open({ deps, rules: compileWatchRules(sbtcConfig()), network: 'mainnet' })! };
  };

  it('follows no print of an aborted transaction: its prints were rolled back with it', async () => {
    const { stage } = open();
    const out = await stage.apply(
      withPrint((at) => void (at.block.transactions[0]!.txStatus = 'abort_by_response')),
      [],
      undefined,
    );
    expect(out.state!.withdrawals).toEqual({});
  });

  it('follows no malformed print, and logs a warning naming it', async () => {
    const { stage, telemetry } = open();
    const bad = serializeCV(tupleCV({ topic: stringAsciiCV('withdrawal-create'), 'request-id': uintCV(412) }));
    const out = await stage.apply(
      withPrint((at) => void (at.events.get(at.block.transactions[0]!.txId)!.logs[0]!.valueHex = bad)),
      [],
      undefined,
    );
    expect(out.state!.withdrawals).toEqual({});
    expect(telemetry.logs.filter((l) => l.level === 'warn').map((l) => l.message)).toEqual([
      'sbtc-registry print "withdrawal-create": recipient: missing; not followed',
    ]);
  });

  it('changes nothing in a block the API gave without its Bitcoin height, and says so when it held prints', async () => {
    const { stage, telemetry } = open();
    const out = await stage.apply(
      withPrint((at) => void delete at.block.header.burnHeight),
      [],
      undefined,
    );
    expect(out).toEqual({ alerts: [], state: undefined });
    expect(telemetry.logs.map((l) => l.message)).toEqual(['sBTC prints in a block without its Bitcoin height; not followed']);
  });
});

/** The stage registered: the one registry line. */
it('is registered after the other stages', () => {
  expect(BLOCK_STAGES.at(-1)).toBe(sbtcLifecycleStage);
});

function failOnce(state: StateStore, method: keyof StateStore, error: Error): () => void {
  const original = (state[method] as (...args: unknown[]) => unknown).bind(state);
  (state as unknown as Record<string, unknown>)[method] = async () => {
    throw error;
  };
  return () => void ((state as unknown as Record<string, unknown>)[method] = original);
}

describe('the sBTC lifecycle stage through the scanner', () => {
  const mine = (chain: MemoryChain, txs: ModelTx[]) => {
    const block = chain.mine(txs);
    block.burnHeight = BTC + block.height - 100;
  };
  const createTx = () =>
    contractCall(`${SBTC_MAINNET_DEPLOYER}.sbtc-withdrawal`, [], {
      eventCount: 1,
      logs: [{ eventIndex: 0, contractId: REGISTRY, topic: 'print', valueHex: withdrawalCreateHex(412, BTC + 1), valueRepr: '' }],
    });

  it('delivers the late withdrawal once, and a rescan after a crash does not send it again', async () => {
    const chain = new MemoryChain(100);
    chain.tip.burnHeight = BTC;
    const h = harness(chain, sbtcConfig());
    await h.run();
    mine(chain, [createTx()]);
    for (let i = 0; i < 15; i++) mine(chain, [coinbase()]);

    const crash = new Error('the process died');
    const restore = failOnce(h.state, 'writeCursor', crash);
    await expect(h.run()).rejects.toThrow(crash);
    const sbtc = () => h.publisher.keys().filter((k) => k.startsWith('sbtc:'));
    // The dead run delivered it before its cursor write failed: the rescan covers the same blocks.
    expect(sbtc()).toEqual(['sbtc:withdrawal_late:warning:412']);
    expect((await h.state.readCursor())?.height).toBe(100);
    // The tracker's record was written before the cursor write that failed: it is ahead of the cursor.
    expect((await h.state.readRecord('sbtcLifecycle'))?.withdrawals['412']?.sent).toEqual(['withdrawal_late:warning']);
    restore();
    h.advance(200_000); // past the dead run's lease
    expect((await h.run()).cursor?.height).toBe(116);
    expect(sbtc()).toEqual(['sbtc:withdrawal_late:warning:412']);
    // The tracker is its own record, no longer carried by the cursor.
    expect((await h.state.readCursor())?.stages?.sbtcLifecycle).toBeUndefined();
    expect(Object.keys((await h.state.readRecord('sbtcLifecycle'))?.withdrawals ?? {})).toEqual(['412']);
  });

  it('forgets a withdrawal whose print a reorg took away while the record was ahead of the cursor: no deadline for it', async () => {
    const chain = new MemoryChain(100);
    chain.tip.burnHeight = BTC;
    const h = harness(chain, sbtcConfig());
    await h.run();
    mine(chain, [createTx()]);
    mine(chain, [coinbase()]);
    const restore = failOnce(h.state, 'writeCursor', new Error('the process died'));
    await expect(h.run()).rejects.toThrow('the process died');
    expect(Object.keys((await h.state.readRecord('sbtcLifecycle'))?.withdrawals ?? {})).toEqual(['412']);
    restore();
    // The blocks past the stored cursor are replaced by blocks without the print: the cursor's block stays.
    chain.reorg(2, []);
    for (let i = 0; i < 16; i++) mine(chain, [coinbase()]);
    h.advance(200_000);
    expect((await h.run()).cursor?.height).toBe(116);
    expect(h.publisher.keys().filter((k) => k.startsWith('sbtc:'))).toEqual([]);
    expect(await h.state.readRecord('sbtcLifecycle')).toMatchObject({ withdrawals: {} });
  });
});
