// One crash scenario: a chain (crash-chains.ts), a crash injected at one step, then reruns (each a new
// process, started by the schedule, which runs more often than the function timeout) until the watcher
// has caught up. Reports how often each expected alert was published. The store comes from a
// factory called once per run, so that a store which persists (a file, DynamoDB) is reopened from disk.
import { runCycle } from '../../lambda/core/cycle';
import type { ChainApi, Clock, StateStore } from '../../lambda/core/ports';
import { silentTelemetry } from '../../lambda/core/ports';
import { RecordingOperator } from '../core/harness';
import type { MemoryChain } from '../support/memory-chain';
import { RecordingPublisher } from '../support/recording-publisher';
import { CrashSwitch, crashingChain, crashingPublisher, crashingState, InjectedCrash, type CrashPoint } from '../support/crash-points';
import { scenarioConfig, type CrashSetting } from './crash-chains';

/** The function timeout: a dead run's lease lapses this long after the run started, its claims this long after each was made. */
const TIMEOUT_MS = 120_000;
/** The schedule starts a run this often, faster than the timeout, as a Lambda on a one-minute-ish rate would. */
const SCHEDULE_MS = 25_000;
/**
 * Each API call takes this long: slower in the first run (a slow API is often why a run dies), so that its
 * claims, status claims included, are younger than its lease when the next run finds them.
 */
const API_LATENCY_MS = { firstRun: 8_000, later: 2_000 };
/** Alerts per publish call: small, so that a block's alerts take several calls and a crash can come between them. */
export const CALL_SIZE = 2;
/** More runs than any crash needs: the crash, runs that find its lease or fresh claims, one to finish. */
const MAX_RUNS = 16;

/** Opens the state as a newly started process would; `clock` is the scenario's time. */
export type OpenState = (clock: Clock) => Promise<StateStore> | StateStore;

export interface ScenarioResult {
  counts: Map<string, number>;
  runs: number;
  crashed: boolean;
  /** The alerts whose publish the crash interrupted before they were marked sent. */
  interruptedBatch: string[];
  /** How often the runs passed each crash point. */
  passes: Map<CrashPoint, number>;
  cursorHeight: number | null;
  /** The chain the runs saw. */
  chain: MemoryChain;
}

export async function runCrashScenario(setting: CrashSetting, openState: OpenState, point: CrashPoint | null, occurrence: number): Promise<ScenarioResult> {
  const chain = await setting.setUp(openState);
  const publisher = new RecordingPublisher(CALL_SIZE);
  const crash = new CrashSwitch(point ?? 'after publishing', point ? occurrence : Number.POSITIVE_INFINITY);
  const firstStart = 1_800_000_000_000;
  let now = firstStart;
  const clock: Clock = { now: () => now };
  let runs = 0;
  const slowChain = withLatency(chain, () => (now += runs === 1 ? API_LATENCY_MS.firstRun : API_LATENCY_MS.later));
  for (; runs < MAX_RUNS; ) {
    runs += 1;
    crash.restart();
    const state = await openState(clock);
    try {
      const summary = await runCycle(
        {
          chain: crashingChain(slowChain, crash),
          state: crashingState(state, crash),
          publisher: crashingPublisher(publisher, crash),
          clock,
          telemetry: silentTelemetry,
          operator: new RecordingOperator(),
        },
        scenarioConfig,
        { runId: `run-${runs}`, deadlineMs: now + TIMEOUT_MS - 15_000, leaseTtlMs: TIMEOUT_MS, alertStaleAfterMs: TIMEOUT_MS },
      );
      const caughtUp = summary.stoppedBecause === 'caught-up' && summary.cursor?.height === chain.tip.height;
      if (caughtUp && summary.contractsChecked === scenarioConfig.contracts.length) break;
    } catch (error) {
      // Anything but the injected crash is a run that failed on its own: the test fails with it.
      if (!(error instanceof InjectedCrash)) throw error;
    }
    now = firstStart + (Math.floor((now - firstStart) / SCHEDULE_MS) + 1) * SCHEDULE_MS; // the next scheduled start
  }
  const counts = new Map<string, number>();
  for (const key of publisher.keys()) counts.set(key, (counts.get(key) ?? 0) + 1);
  const final = await openState(clock);
  return {
    counts,
    runs,
    crashed: crash.fired,
    interruptedBatch: crash.interruptedBatch,
    passes: crash.passes,
    cursorHeight: (await final.readCursor())?.height ?? null,
    chain,
  };
}

/** The chain with every call taking API time. */
function withLatency(chain: ChainApi, elapse: () => void): ChainApi {
  return new Proxy(chain, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        elapse();
        return (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
      };
    },
  });
}
