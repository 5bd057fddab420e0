// The self-rescheduling loop (docs/latency.md): each turn runs one cycle, then queues the next turn a few
// seconds later, so that a block is alerted seconds after it appears without the function being billed while
// it waits. Exactly one loop is alive: the loop's current turn token is kept with the run lease, a turn takes
// the lease only while its token is current and hands a fresh one to the next turn, so a duplicate message or
// a second loop finds its token stale and ends. A queued turn writes nothing to begin: it reads the cursor item
// once (token, lease, cursor) and hands the token on with its cursor write, the turn's one write; a turn that
// finds no new block writes nothing and queues the same token, but for a heartbeat every LOOP_BEAT_EVERY_MS.
// Two copies of one message (SQS delivers at least once) are one loop again at the next write, which only
// one of them can make. The 1-minute schedule is the loop's watchdog: a tick that
// finds no turn begun for longer than a healthy loop goes without one starts a new loop, whose token makes any
// straggler of the old one stale, and tells the operator when loops keep dying.
import { isNoticeDue } from '../health/block-stalls';
import type { Cursor, OperatorChannel, TurnHandover } from '../ports';

/** What the state holds of the loop (attributes of the cursor item, beside the lease). */
export interface LoopState {
  /** The token the next turn must carry; null before the first loop. */
  turn: string | null;
  /** Epoch ms the current loop's last turn began. */
  beatAt: number;
  /** Epoch ms the current loop was started by the watchdog. */
  startedAt: number;
  /** Restarts in a row, each of a loop that had lived less than LOOP_HEALTHY_MS. */
  restarts: number;
}

export interface LoopTake {
  owner: string;
  nowMs: number;
  ttlMs: number;
  /** The token the state must hold for the take to succeed (null: no loop has run yet). */
  expected: string | null;
  /** The token handed to the next turn. */
  next: string;
  /** Set by the watchdog when it starts a new loop. */
  restart?: { restarts: number };
}

/** A queued turn's one read: the loop, the lease and the cursor, all on the cursor item. */
export interface TurnRead {
  loop: LoopState | null;
  /** The owner of an unexpired lease at `nowMs` (a doorbell's or the watchdog's cycle), or null. */
  leaseHeldBy: string | null;
  cursor: Cursor | null;
  notes: TickNotes;
}

/**
 * What the schedule's ticks leave on the cursor item for the turns, which read nothing else: the watch config
 * version the store called current (null before any), and whether an SMS minute that ended owes its digest.
 */
export interface TickNotes {
  configVersion: string | null;
  smsDigestOwed: boolean;
}

export interface LoopStore {
  readLoop(): Promise<LoopState | null>;
  /** The cursor item in one strongly consistent read: what a queued turn decides and scans from. */
  readTurn(nowMs: number): Promise<TurnRead>;
  /** A quiet turn's heartbeat: the token moved and the beat written, only while the token is `expected`. */
  beatLoop(handover: TurnHandover): Promise<boolean>;
  /**
   * Takes the run lease for `owner` and moves the loop's token from `expected` to `next`, in one conditional
   * write; false when the token is no longer `expected` or another owner holds an unexpired lease.
   */
  takeLoopTurn(take: LoopTake): Promise<boolean>;
}

/** A loop whose first turn is older than this when it dies is not counted as one that keeps dying. */
export const LOOP_HEALTHY_MS = 10 * 60_000;
/** Beyond the longest gap between two healthy heartbeats, before the watchdog calls the loop dead. */
export const LOOP_GRACE_MS = 10_000;
/**
 * A turn that finds no new block writes its heartbeat only when the last is this old: while blocks come, every
 * turn's cursor write beats; while the chain is quiet, a write every half minute instead of every turn.
 */
export const LOOP_BEAT_EVERY_MS = 20_000;

export interface LoopTiming {
  /** The delay between a caught-up turn's end and the next turn. */
  delayMs: number;
  /** How long one turn may work: behind the tip, the next turn follows at once. */
  turnMs: number;
}

/** The longest a healthy loop goes between two heartbeats, and the grace beyond. */
export function loopDeadAfterMs(timing: LoopTiming): number {
  return LOOP_BEAT_EVERY_MS + timing.turnMs + timing.delayMs + LOOP_GRACE_MS;
}

/** A queued turn that runs: it hands the token over with its cursor write, or with a heartbeat, or keeps it. */
export interface QueuedTurn {
  handover: TurnHandover;
  /** The cursor as the turn's one read found it: the cycle reads it no second time. */
  cursor: Cursor | null;
  /** The heartbeat stored when the turn began. */
  beatAt: number;
  /** The ticks' notes as the turn's read found them (a config version to take, an SMS digest to send). */
  notes: TickNotes;
}

export type TurnDecision =
  | { run: true; next: string; queued?: QueuedTurn }
  | { run: false; why: 'stale-token' | 'loop-alive' | 'lost-the-restart' }
  | { run: false; why: 'lease-held'; requeue: string };

/**
 * A queued turn: it runs only when its token is still the loop's, and writes nothing to begin. A lease another
 * run holds (a doorbell's cycle) lets that run work: the turn queues its token again and ends.
 */
export async function takeQueuedTurn(store: LoopStore, take: Omit<LoopTake, 'restart' | 'ttlMs'>): Promise<TurnDecision> {
  const { loop, leaseHeldBy, cursor, notes } = await store.readTurn(take.nowMs);
  if (take.expected === null || loop?.turn !== take.expected) return { run: false, why: 'stale-token' };
  if (leaseHeldBy !== null && leaseHeldBy !== take.owner) return { run: false, why: 'lease-held', requeue: take.expected };
  return {
    run: true,
    next: take.next,
    queued: { handover: { expected: take.expected, next: take.next, beatAt: take.nowMs }, cursor, beatAt: loop.beatAt, notes },
  };
}

/**
 * The token the next turn carries once the turn's cycle is over, or null when the loop ends here: the new
 * one if the cursor write handed it over, else after a heartbeat when one is due, else the same.
 */
export async function tokenAfterTurn(store: LoopStore, turn: QueuedTurn, handedOver: boolean, nowMs: number): Promise<string | null> {
  if (handedOver) return turn.handover.next;
  if (nowMs - turn.beatAt < LOOP_BEAT_EVERY_MS) return turn.handover.expected;
  return (await store.beatLoop({ ...turn.handover, beatAt: nowMs })) ? turn.handover.next : null;
}

export interface WatchdogDeps {
  store: LoopStore;
  operator: OperatorChannel;
}

/**
 * A schedule tick: nothing to do while the loop is alive; otherwise start a new loop (this invocation runs
 * its first turn). Restarts of loops that died young are counted, and the operator hears of them at the 3rd
 * in a row, then the 6th, 12th...
 */
export async function watchdogTick(deps: WatchdogDeps, take: Omit<LoopTake, 'expected' | 'restart'>, timing: LoopTiming): Promise<TurnDecision> {
  const state = await deps.store.readLoop();
  if (state?.turn && take.nowMs - state.beatAt <= loopDeadAfterMs(timing)) return { run: false, why: 'loop-alive' };
  const diedYoung = state?.turn != null && take.nowMs - state.startedAt < LOOP_HEALTHY_MS;
  const restarts = diedYoung ? state.restarts + 1 : state?.turn ? 1 : 0;
  const taken = await deps.store.takeLoopTurn({ ...take, expected: state?.turn ?? null, restart: { restarts } });
  if (!taken) return { run: false, why: 'lost-the-restart' };
  if (diedYoung && isNoticeDue(restarts)) {
    await deps.operator.notify({
      kind: 'loop-restarts',
      subject: `stacks-watch: the polling loop died ${restarts} times in a row`,
      message:
        `The schedule restarted the watcher's polling loop ${restarts} times in a row, each time less than ` +
        `${LOOP_HEALTHY_MS / 60_000} minutes after the last start. Blocks are still scanned at least once a minute, ` +
        'but alerts come later than they should. Read the function logs ("loop turn") for why turns end without ' +
        'queuing the next one (SQS refusing the message, the queue or its permission missing, failed runs).',
    });
  }
  return { run: true, next: take.next };
}
