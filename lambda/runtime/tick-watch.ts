// The schedule's tick as the watcher's watch on itself (lambda/core/health/self-watch.ts), in every mode: on the
// 1-minute schedule each run is a tick and judges the cursor it left; in the loop mode a tick reads the cursor
// item once (the loop's heartbeat is on it) and judges it, after the restart it may have made. A queued turn
// never judges: the tick is the one observer, so the flag needs no condition.
import type { LoopState, LoopStore, TickNotes } from '../core/scan/loop-turns';
import { checkProgress, type SelfWatchVerdict, type WatchPoint } from '../core/health/self-watch';
import type { OperatorChannel, Telemetry } from '../core/ports';
import type { WatchPointStore } from '../adapters/dynamodb/watch-point-record';
import type { WatchConfig } from '../core/watch-config/watch-config-schema';
import type { HiroClient } from '../hiro';

export interface TickWatchDeps {
  state: WatchPointStore & LoopStore;
  operator: OperatorChannel;
  log: Telemetry['log'];
  /** The API's tip height, asked only once a stall is found and the run has none. */
  tipHeight(): Promise<number | null>;
  lagLimitSeconds: number;
  confirmations: number;
}

export type TickPoint = WatchPoint & { loop: LoopState | null; notes?: TickNotes };

export interface TickJudgement {
  nowMs: number;
  /** The point read before the tick's work; read again when the tick ran a cycle, which moves the cursor. */
  point?: TickPoint;
  /** The tip the tick's cycle saw, if it got that far. */
  tipHeight?: number | null;
  /** The loop's heartbeat was older than its limit: this tick restarted it. */
  loopSilentMs?: number;
}

/** What a tick judges with: the state, the operations topic, the tip on demand, the limit. */
export function tickWatchDeps(
  lagLimitSeconds: number,
  run: { ports: Pick<TickWatchDeps, 'state' | 'operator'> & { telemetry: Pick<Telemetry, 'log'> }; chain: HiroClient; config: WatchConfig },
): TickWatchDeps {
  const { ports, chain, config } = run;
  return {
    state: ports.state,
    operator: ports.operator,
    log: ports.telemetry.log,
    tipHeight: () =>
      chain.getTip().then(
        (tip) => tip?.height ?? null,
        () => null,
      ),
    lagLimitSeconds,
    confirmations: config.confirmations,
  };
}

/** Leaves the tick's notes for the loop's turns on the cursor item: one write, only when one of them changed. */
export async function leaveTickNotes(state: Pick<WatchPointStore, 'writeTickNotes'>, point: TickPoint, notes: TickNotes): Promise<void> {
  const before = point.notes ?? { configVersion: null, smsDigestOwed: false };
  if (before.configVersion !== notes.configVersion || before.smsDigestOwed !== notes.smsDigestOwed) await state.writeTickNotes(notes);
}

/** The loop's store, answering `readLoop` from the point already read (the tick's one read). */
export function loopStoreFrom(state: LoopStore, point: TickPoint): LoopStore {
  return { ...state, readLoop: async () => point.loop };
}

/** Judges the watcher's progress; never throws (the run's own outcome is what the invocation reports). */
export async function judgeOnTick(deps: TickWatchDeps, judgement: TickJudgement): Promise<SelfWatchVerdict | 'unjudged'> {
  try {
    const point = judgement.point ?? (await deps.state.readWatchPoint());
    const known = judgement.tipHeight;
    const verdict = await checkProgress(
      { store: deps.state, operator: deps.operator, tipHeight: known != null ? async () => known : deps.tipHeight },
      {
        nowMs: judgement.nowMs,
        point,
        lagLimitSeconds: deps.lagLimitSeconds,
        confirmations: deps.confirmations,
        ...(judgement.loopSilentMs !== undefined ? { loopDied: { silentMs: judgement.loopSilentMs } } : {}),
      },
    );
    // The notices log themselves (the operator channel); a verdict that changes nothing stays at debug.
    deps.log('debug', 'self-watch', { verdict });
    return verdict;
  } catch (error) {
    deps.log('error', 'the self-watch could not judge this tick; the next tick tries again', {
      reason: error instanceof Error ? error.message : String(error),
    });
    return 'unjudged';
  }
}
