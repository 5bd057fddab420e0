// The self-rescheduling loop (docs/latency.md): each turn runs one cycle, then leaves its own SQS message to come
// back after a few seconds (the queue's visibility timeout), so that a block is alerted seconds after it appears
// without the function being billed while it waits. The message never changes: its body names the loop (a loop id), and SQS counts its receives. Exactly
// one loop is alive: the cursor item holds the loop's token, its id and the receive count of the turn that last
// wrote it (`loopToken`). A turn runs only when its message names the current loop and was received more often
// than that count, and its one conditional write (the cursor write, or a heartbeat) stores its own count: a copy
// of the message delivered twice, received at the same count or left behind by a visibility change that did not
// reach it, is then stale and deleted. A queued turn writes nothing to begin: it reads the cursor item once
// (token, lease, cursor); a turn that finds no new block writes nothing, but for a heartbeat every
// LOOP_BEAT_EVERY_MS. The 1-minute schedule is the loop's watchdog: a tick that finds no turn begun for longer
// than a healthy loop goes without one starts a new loop with a new id and a new message, which makes the old
// loop's message stale, and tells the operator when loops keep dying.
import { isNoticeDue } from '../health/block-stalls';
import type { StopReason } from '../cycle-types';
import type { Cursor, OperatorChannel, TurnHandover } from '../ports';

/** What the state holds of the loop (attributes of the cursor item, beside the lease). */
export interface LoopState {
  /** The loop's token (`loopToken`: its id and the receive count of its last write); null before the first loop. */
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

/** The longest a loop turn works: a catch-up goes on in the next turn, at once. */
export const LOOP_TURN_MAX_SECONDS = 20;
/**
 * What a queued turn keeps of its function's time after its work deadline: the last block's alerts published, the
 * cursor written, the message handed on. The turns' function times out at the loop's delay (the queue's visibility
 * timeout can be no shorter: infra/constructs/watch-loop.ts), so a turn works the delay less this.
 */
export const LOOP_TURN_MARGIN_MS = 3_000;

/** A queued turn's margin in a function timing out after `timeoutMs`: LOOP_TURN_MARGIN_MS, or half the time when shorter. */
export function loopTurnMarginMs(timeoutMs: number): number {
  return Math.min(LOOP_TURN_MARGIN_MS, timeoutMs / 2);
}

/** How long a turn works in a function timing out at the loop's delay: the delay less its margin, at most 20 s. */
export function loopTurnSeconds(delaySeconds: number): number {
  const delayMs = delaySeconds * 1000;
  return Math.min(LOOP_TURN_MAX_SECONDS, (delayMs - loopTurnMarginMs(delayMs)) / 1000);
}

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

/**
 * The token stored on the cursor item: the loop's id (its message's body) and the receive count of the turn that
 * wrote it; the watchdog's start stores the bare id (count 0), so the new message's first receive runs.
 */
export function loopToken(loop: string, receives: number): string {
  return receives > 0 ? `${loop}@${receives}` : loop;
}

/** The loop id and receive count a stored token holds (a bare id counts 0). */
export function readLoopToken(token: string): { loop: string; receives: number } {
  const at = token.lastIndexOf('@');
  const receives = at < 0 ? 0 : Number(token.slice(at + 1));
  return at < 0 || !Number.isSafeInteger(receives) ? { loop: token, receives: 0 } : { loop: token.slice(0, at), receives };
}

/** A turn message as SQS hands it over: the loop it names, and how many times SQS has delivered it. */
export interface TurnMessage {
  loop: string;
  receives: number;
}

/**
 * Whether a message is the current loop's live copy: it names the stored loop and was received more often
 * than the turn that last wrote the token. A copy delivered twice at one count, or one a lost visibility change
 * left behind (it counts its own receives from where it was left), is stale once the other copy has written.
 */
export function isLiveCopy(token: string | null | undefined, message: TurnMessage): boolean {
  if (!token) return false;
  const stored = readLoopToken(token);
  return stored.loop === message.loop && message.receives > stored.receives;
}

/** A queued turn that runs: it hands the token over with its cursor write, or with a heartbeat, or keeps it. */
export interface QueuedTurn {
  handover: TurnHandover;
  /** The cursor as the turn's one read found it: the cycle reads it no second time. */
  cursor: Cursor | null;
  /** The heartbeat stored when the turn began. */
  beatAt: number;
  /** The loop's message is replaced by a fresh one naming this new loop id (the old one nears its retention). */
  renewAs?: string;
  /** The ticks' notes as the turn's read found them (a config version to take, an SMS digest to send). */
  notes: TickNotes;
}

export type TurnDecision =
  | { run: true; next: string; queued?: QueuedTurn }
  | { run: false; why: 'stale-token' | 'loop-alive' | 'lost-the-restart' }
  | { run: false; why: 'lease-held' };

/**
 * A queued turn: it runs only when its message is the loop's live copy, and writes nothing to begin. A lease
 * another run holds (a restarting tick's cycle) lets that run work: the turn keeps its message for the delay and ends. `next` is
 * the loop id the message after this turn names: the same, or `renewAs` when the message is being replaced.
 */
export async function takeQueuedTurn(store: LoopStore, take: { owner: string; nowMs: number; message: TurnMessage; renewAs?: string }): Promise<TurnDecision> {
  const { loop, leaseHeldBy, cursor, notes } = await store.readTurn(take.nowMs);
  if (!loop?.turn || !isLiveCopy(loop.turn, take.message)) return { run: false, why: 'stale-token' };
  if (leaseHeldBy !== null && leaseHeldBy !== take.owner) return { run: false, why: 'lease-held' };
  const next = take.renewAs ?? take.message.loop;
  const handover = { expected: loop.turn, next: take.renewAs ?? loopToken(take.message.loop, take.message.receives), beatAt: take.nowMs };
  return { run: true, next, queued: { handover, cursor, beatAt: loop.beatAt, notes, ...(take.renewAs ? { renewAs: take.renewAs } : {}) } };
}

/**
 * Whether the cycle stopped because another run was at the same work: the cursor moved under its write, an
 * alert claimed by another run, the lease taken. That run may be a second copy of this turn's message.
 */
export function metAnotherRun(stoppedBecause: StopReason | undefined): boolean {
  return stoppedBecause === 'cursor-conflict' || stoppedBecause === 'alert-in-flight' || stoppedBecause === 'lease-held';
}

/**
 * The loop id the next turn's message names once this turn's cycle is over, or null when the loop ends here
 * (its message is stale: delete it). The cursor write handed the token over, or a heartbeat does when one is due,
 * when the message is being renewed, or when the cycle met another run (`metAnotherRun`: of two copies of one
 * delivery, the heartbeat's condition on the token lets one through, and the other's write then fails); else
 * nothing is written.
 */
export async function tokenAfterTurn(store: LoopStore, turn: QueuedTurn, handedOver: boolean, nowMs: number, contended = false): Promise<string | null> {
  const next = readLoopToken(turn.handover.next).loop;
  if (handedOver) return next;
  if (!contended && !turn.renewAs && nowMs - turn.beatAt < LOOP_BEAT_EVERY_MS) return next;
  return (await store.beatLoop({ ...turn.handover, beatAt: nowMs })) ? next : null;
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
        'keeping their message (SQS refusing it, the queue or its permission missing, failed runs).',
    });
  }
  return { run: true, next: take.next };
}
