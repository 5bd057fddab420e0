// One crash scenario: a chain with alerts of every kind, a crash injected at one step, then reruns (each
// after the function timeout, as the scheduler would) until the watcher has caught up. Reports how often
// each expected alert was published.
import { runCycle } from '../../lambda/core/cycle';
import { AlertDeliveryError } from '../../lambda/core/delivery';
import type { StateStore } from '../../lambda/core/ports';
import { silentTelemetry } from '../../lambda/core/ports';
import { config, ROUTER, TOKEN, WATCHED } from '../core/harness';
import { coinbase, contractCall, MemoryChain, resetTxIds, transfer } from '../support/memory-chain';
import { RecordingPublisher } from '../support/recording-publisher';
import { CrashSwitch, crashingChain, crashingPublisher, crashingState, InjectedCrash, type CrashPoint } from '../support/crash-points';

const TIMEOUT_MS = 120_000;
const POX = 'SP000000000000000000002Q6VF78.pox-4';

export function scenarioChain(): MemoryChain {
  resetTxIds();
  const chain = new MemoryChain(100, 1);
  chain.statuses.set(POX, { contractId: POX, found: true, status: 'success', txId: '0xaa', blockHeight: 1 });
  chain.mine([coinbase(), transfer(WATCHED, '1'), contractCall(TOKEN, [{ repr: 'a' }, { repr: 'b' }])]);
  chain.mine([coinbase()]);
  chain.mine([transfer(WATCHED, '2'), transfer(WATCHED, '3'), contractCall(ROUTER, [{ contractId: TOKEN, repr: 'c' }])]);
  chain.mine([contractCall(TOKEN, [{ repr: 'd' }])]);
  return chain;
}

export const scenarioConfig = config({ startHeight: 101, contracts: [POX] });

export interface ScenarioResult {
  counts: Map<string, number>;
  runs: number;
  crashed: boolean;
  /** The alerts whose publish the crash interrupted before they were marked sent. */
  interruptedBatch: string[];
  cursorHeight: number | null;
}

export async function runCrashScenario(
  chain: MemoryChain,
  state: StateStore,
  point: CrashPoint | null,
  occurrence: number,
): Promise<ScenarioResult> {
  const publisher = new RecordingPublisher();
  const crash = new CrashSwitch(point ?? 'after publishing', point ? occurrence : Number.POSITIVE_INFINITY);
  let now = 1_800_000_000_000;
  let runs = 0;
  for (; runs < 10; ) {
    runs += 1;
    try {
      const summary = await runCycle(
        {
          chain: crashingChain(chain, crash),
          state: crashingState(state, crash),
          publisher: crashingPublisher(publisher, crash),
          clock: { now: () => now },
          telemetry: silentTelemetry,
        },
        scenarioConfig,
        { runId: `run-${runs}`, deadlineMs: now + 60_000, leaseTtlMs: TIMEOUT_MS, alertStaleAfterMs: TIMEOUT_MS },
      );
      if (summary.stoppedBecause === 'caught-up' && summary.cursor?.height === chain.tip.height) break;
    } catch (error) {
      // A crash inside the publish surfaces as a failed delivery: the run still ends there.
      if (!(error instanceof InjectedCrash) && !(error instanceof AlertDeliveryError)) throw error;
    }
    now += TIMEOUT_MS + 1_000; // the next scheduled run that finds the crashed run's claims is past its timeout
  }
  const counts = new Map<string, number>();
  for (const key of publisher.keys()) counts.set(key, (counts.get(key) ?? 0) + 1);
  return { counts, runs, crashed: crash.fired, interruptedBatch: crash.interruptedBatch, cursorHeight: (await state.readCursor())?.height ?? null };
}
