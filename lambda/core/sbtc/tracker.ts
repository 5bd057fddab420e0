// The sBTC lifecycle tracker: from Emily's records, the sbtc-registry's prints and the Bitcoin height, the
// deposits and withdrawals that miss the deadlines the signers keep, each told once at the Bitcoin block it
// is due, and none for those on time. Pure: state in, state and events out, so it runs as a pipeline stage
// (`apply` per run, `rollback` on a reorg) with its state stored beside the cursor.
import { DEFAULT_DEADLINES, deadlineProblems, type SbtcDeadlines } from './deadlines';
import { sweepDeadlines } from './due';
import { chainEvent, type SbtcLifecycleEvent } from './lifecycle-events';
import type { SbtcObservation } from './observations';
import { observe } from './observe';
import { sweepSettled, unsettle, type SbtcSettlementEvent } from './settlement';
import { emptySbtcState, RETAIN_FINISHED_BLOCKS, type SbtcTrackerState } from './tracker-state';

export interface SbtcTrackerConfig {
  deadlines?: Partial<SbtcDeadlines>;
  /** The Stacks principals whose deposits (as recipient) and withdrawals (as sender) are followed. */
  principals?: readonly string[];
  /** Those whose deposits are followed, as recipient; and whose withdrawals, as sender. With none of the three, everyone's. */
  recipients?: readonly string[];
  senders?: readonly string[];
  /** The settled follow-up: Bitcoin blocks a completing print must be deep (settlement.ts); off when null or absent. */
  settledBlocks?: number | null;
  /** Events told per apply; past it one summary says how many more. Default 20. */
  maxEvents?: number;
}

export interface SbtcTracker {
  readonly deadlines: SbtcDeadlines;
  initial(): SbtcTrackerState;
  /**
   * One Bitcoin height's observations. `stacksHeight`, the Stacks block they came in, is where a settled alert is
   * raised: without it no completion is told settled.
   */
  apply(
    state: SbtcTrackerState,
    observations: readonly SbtcObservation[],
    bitcoinHeight: number,
    stacksHeight?: number,
  ): { state: SbtcTrackerState; events: SbtcLifecycleEvent[]; settlements: SbtcSettlementEvent[] };
  /**
   * Takes back what prints in Stacks blocks above `forkHeight` said; what was told stays told, except the settled
   * follow-up's chain alerts: a completion taken back, and a settled alert raised above the fork, are told again
   * (under the same keys) when the new chain carries them, and retracted by the scan when it does not.
   */
  rollback(state: SbtcTrackerState, forkHeight: number): SbtcTrackerState;
}

export function createSbtcTracker(config: SbtcTrackerConfig = {}): SbtcTracker {
  const deadlines = { ...DEFAULT_DEADLINES, ...config.deadlines };
  const problems = deadlineProblems(deadlines);
  if (problems.length > 0) throw new Error(`sBTC deadlines: ${problems.join('; ')}`);
  const scope = scopeOf(config);
  const settleBlocks = config.settledBlocks ?? null;
  const maxEvents = config.maxEvents ?? 20;

  return {
    deadlines,
    initial: emptySbtcState,
    apply(before, observations, height, stacksHeight) {
      if (!Number.isSafeInteger(height) || height < 0) throw new Error(`Bitcoin height ${height} is not a block height`);
      const state = structuredClone(before);
      const events: SbtcLifecycleEvent[] = [];
      const settlements: SbtcSettlementEvent[] = [];
      for (const observation of observations) observe({ state, height, scope, events, settleBlocks, settlements }, observation);
      events.push(...sweepDeadlines(state, height, deadlines));
      // Not capped: each is a chain alert a reorg may have to retract, so none is folded into a summary (MAX_TRACKED bounds them).
      if (settleBlocks !== null && stacksHeight !== undefined) settlements.push(...sweepSettled(state, height, stacksHeight, settleBlocks));
      prune(state, height);
      return { state, events: capped(events, maxEvents, height), settlements };
    },
    rollback: rollbackSbtc,
  };
}

function scopeOf(config: SbtcTrackerConfig): { recipients: ReadonlySet<string> | null; senders: ReadonlySet<string> | null } {
  const { principals, recipients, senders } = config;
  if (principals === undefined && recipients === undefined && senders === undefined) return { recipients: null, senders: null };
  return { recipients: new Set([...(principals ?? []), ...(recipients ?? [])]), senders: new Set([...(principals ?? []), ...(senders ?? [])]) };
}

/** Past the cap, one summary counts the rest (they are marked told all the same: a flood is not repeated). */
function capped(events: SbtcLifecycleEvent[], max: number, height: number): SbtcLifecycleEvent[] {
  if (events.length <= max) return events;
  const kept = events.slice(0, max - 1);
  const rest = events.length - kept.length;
  const summary = chainEvent('summary', 'warning', `sbtc:summary:${height}`, height, { detail: String(rest) });
  return [...kept, summary];
}

function prune(state: SbtcTrackerState, height: number): void {
  for (const [id, d] of Object.entries(state.deposits)) if (d.endedAt !== null && height - d.endedAt > RETAIN_FINISHED_BLOCKS) delete state.deposits[id];
  for (const [id, w] of Object.entries(state.withdrawals)) if (w.endedAt !== null && height - w.endedAt > RETAIN_FINISHED_BLOCKS) delete state.withdrawals[id];
}

export function rollbackSbtc(before: SbtcTrackerState, forkHeight: number): SbtcTrackerState {
  const state = structuredClone(before);
  const undone = (c: { stacksHeight: number | null } | null): boolean => c !== null && c.stacksHeight !== null && c.stacksHeight > forkHeight;
  for (const [id, d] of Object.entries(state.deposits)) {
    unsettle(d.minted, forkHeight);
    if (!undone(d.minted)) continue;
    // Known only from the print taken back: nothing is left to follow.
    if (d.fromPrint) delete state.deposits[id];
    d.minted = null;
    d.endedAt = null;
  }
  for (const [id, w] of Object.entries(state.withdrawals)) {
    if (w.createdAtStacks !== null && w.createdAtStacks > forkHeight && !w.fromEmily) {
      delete state.withdrawals[id];
      continue;
    }
    if (w.createdAtStacks !== null && w.createdAtStacks > forkHeight) w.createdAtStacks = null;
    unsettle(w.accepted, forkHeight);
    if (undone(w.accepted)) w.accepted = null;
    if (undone(w.rejected)) w.rejected = null;
    if (!w.accepted && !w.rejected) w.endedAt = null;
  }
  state.rotations = state.rotations.filter((r) => r.stacksHeight <= forkHeight);
  return state;
}
