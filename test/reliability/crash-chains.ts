// The chains the crash suite runs over: a steady one with alerts of every kind, and the same chain after a
// reorg (the watcher had scanned it all), where the crash-tested runs must rescan, alert the new chain's
// events once, leave moved ones alone and retract the lost ones.
import { runCycle } from '../../lambda/core/cycle';
import type { AlertType } from '../../lambda/core/alert-kinds/alert';
import { silentTelemetry } from '../../lambda/core/ports';
import { RETRACTION_GRACE_BLOCKS } from '../../lambda/core/scan/retractions';
import { config, RecordingOperator, ROUTER, TOKEN, WATCHED } from '../core/harness';
import { coinbase, contractCall, MemoryChain, resetTxIds, transfer, type ModelTx } from '../support/memory-chain';
import { RecordingPublisher } from '../support/recording-publisher';
import type { OpenState } from './crash-scenario';

const POX = 'SP000000000000000000002Q6VF78.pox-4';

export const scenarioConfig = config({ startHeight: 101, contracts: [POX] });

/** How a scenario begins: the chain the crash-tested runs see, after whatever happened to the state before. */
export interface CrashSetting {
  name: string;
  setUp(openState: OpenState): Promise<MemoryChain>;
  /** What the crash-tested runs must publish, by alert type. */
  expects: Partial<Record<AlertType, number>>;
}

function steadyChain(): { chain: MemoryChain; txs: Record<'t2' | 't3' | 'c' | 'd', ModelTx> } {
  resetTxIds();
  const chain = new MemoryChain(100, 1);
  chain.statuses.set(POX, { contractId: POX, found: true, status: 'success', txId: '0xaa', blockHeight: 1 });
  chain.mine([coinbase(), transfer(WATCHED, '1'), contractCall(TOKEN, [{ repr: 'a' }, { repr: 'b' }])]); // 101
  chain.mine([coinbase()]); // 102
  const txs = { t2: transfer(WATCHED, '2'), t3: transfer(WATCHED, '3'), c: contractCall(ROUTER, [{ contractId: TOKEN, repr: 'c' }]) };
  chain.mine([txs.t2, txs.t3, txs.c]); // 103
  const d = contractCall(TOKEN, [{ repr: 'd' }]);
  chain.mine([d]); // 104
  return { chain, txs: { ...txs, d } };
}

/** The steady chain alone, for suites that need a chain with alerts of every kind. */
export const scenarioChain = (): MemoryChain => steadyChain().chain;

export const STEADY: CrashSetting = {
  name: 'a steady chain',
  setUp: async () => steadyChain().chain,
  expects: { contract_status: 1, token_transfer: 3, contract_log: 4 },
};

/**
 * The steady chain scanned in full by a run before, then blocks 102..104 replaced: t3 moves down to 102, d
 * comes back at 104 in another block, t2 and c are gone, a new transfer appears at 103, and the chain goes
 * on past the grace, so that the lost alerts are retracted.
 */
export const REORGED: CrashSetting = {
  name: 'a reorg of depth 3',
  async setUp(openState) {
    const { chain, txs } = steadyChain();
    let now = 1_800_000_000_000 - 120_000; // just before the crash-tested runs
    await runCycle(
      {
        chain,
        state: await openState({ now: () => now }),
        publisher: new RecordingPublisher(),
        clock: { now: () => now },
        telemetry: silentTelemetry,
        operator: new RecordingOperator(),
      },
      scenarioConfig,
      { runId: 'before-the-reorg', deadlineMs: now + 60_000, leaseTtlMs: 60_000, alertStaleAfterMs: 60_000 },
    );
    now += 60_000;
    chain.reorg(3, [[coinbase(), txs.t3], [transfer(WATCHED, '5')], [txs.d], ...Array.from({ length: RETRACTION_GRACE_BLOCKS + 1 }, () => [coinbase()])]);
    return chain;
  },
  expects: { token_transfer: 1, retraction: 2 },
};
