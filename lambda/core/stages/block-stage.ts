// The shape of everything that remembers across blocks: a stage takes a block, the alerts the stages before it
// passed on, and its state as of the block before; it gives back the alerts to pass on and its state after the
// block. The scanner runs the registered stages in order for every block (registry.ts), asks every stage to
// take its state back to a reorg's fork point, and the cursor keeper stores every stage's state with the
// cursor through one path (stage-states.ts), so that a crash rescans from a state that goes with the cursor.
// A stage's state is plain JSON data: it is written as it is, with the stage's version beside it.
import type { Block, Network, Transaction, TxEvents } from '../domain';
import type { ChainAlert } from '../alert-kinds/chain-kinds';
import type { ChainPosition } from '../alert-kinds/kind';
import type { WatchRules } from '../rules/rule-lists';
import type { ChainApi, Clock, OperatorChannel, StateStore, Telemetry } from '../ports';
import type { EmilyApi } from '../sbtc/emily-port';
import type { RecordName, StateRecords } from '../state-records';
import type { BalanceReadAllowance } from './balance-reads';

/** The block a stage is applied to. */
export interface StageBlock {
  block: Block;
  events: ReadonlyMap<string, TxEvents>;
  network: Network;
  /** Where a matcher found an alert in the block (undefined for an alert a stage raised). */
  positionOf(alert: ChainAlert): ChainPosition | undefined;
}

/** What a stage gives back for one block. */
export interface StageOutcome<S> {
  /** The block's alerts from here on, in the order they go out; each is one of the block's keys. */
  alerts: ChainAlert[];
  /** The state after the block; undefined: nothing to remember (nothing is stored). */
  state: S | undefined;
  /** Alerts among `alerts` that are recorded but not sent (a rule's cooldown held them, its mute silenced them). */
  unsent?: readonly ChainAlert[];
  /** Work for after the block's alerts are delivered (records of the unsent ones). */
  afterDelivery?: () => Promise<void>;
}

/** The state taken back to a fork point, and whether that is exact (a fork deeper than the state keeps is not). */
export interface StageRollback<S> {
  state: S | undefined;
  /** What could not be restored exactly (window names, `cooldowns`): logged once as a warning. */
  inexact?: readonly string[];
}

/** A stage at work in one run, set up from the run's rules (`BlockStage.open`). */
export interface RunningStage<S> {
  apply(at: StageBlock, alerts: ChainAlert[], state: S | undefined): StageOutcome<S> | Promise<StageOutcome<S>>;
  rollback(state: S | undefined, forkHeight: number): StageRollback<S>;
  /** Present when the stage is kept in a record of its own (`kept: 'record'`). */
  record?: StageRecord<S>;
}

/** The ports a stage may use: a replay has no state store, no publisher and no operator. */
// The ports by name, as the cycle's (cycle-types.ts) has them: the stages are planned from below the cycle (stage-events.ts).
export type StageDeps = { chain: ChainApi; clock: Clock; telemetry: Telemetry; state?: StateStore; operator?: OperatorChannel; emily?: EmilyApi };

/** What a stage is given to set up for a run. */
export interface StageRun {
  deps: StageDeps;
  rules: WatchRules;
  network: Network;
  /** The run's share of balance reads, and when the run must be done by (CycleBudget's). */
  budget?: { balanceReads?: BalanceReadAllowance; deadlineMs?: number };
  /** The chain tip read at the start of the run (its Bitcoin height when the API gave it). */
  tip?: { height: number; burnHeight?: number };
  /** The mempool watch of the run, when pending rules run beside the scan (mempool/mempool-watch.ts). */
  mempool?: { markMined(alerts: ChainAlert[]): Promise<ChainAlert[]> };
  /** `--replay`: no state is read or written (`deps.state` absent), and a read the stage cannot make fails the replay. */
  replay?: boolean;
}

/**
 * A state too big for the cursor item, kept in the named record of the stage's name (core/state-records.ts):
 * read when the run starts, written just before each cursor write that passes blocks which changed it. A crash
 * between the two writes leaves a record ahead of the cursor, which `loaded` takes back to the cursor's height.
 */
export interface StageRecord<S> {
  /**
   * The state as of the stored cursor, from the stored record (null: none, or a replay that reads no state).
   * `fromCursor`: the state came from the cursor item, where an earlier version kept the stage; it must be
   * written to the record before the next cursor write, which no longer carries it.
   */
  loaded(stored: S | null, cursorHeight: number | null, fromCursor?: boolean): S | undefined;
  /** The state to write before a cursor write at `headHeight`, or null when it has not changed since read or written. */
  take(state: S | undefined, headHeight: number): S | null;
}

export interface BlockStage<S> {
  /** Names its state in the stored cursor: unique among the stages. */
  name: string;
  /** The version of its state's shape: a state stored with another version is not handed to it. */
  version: number;
  /** `cursor`: its state rides in the cursor write itself (small, bounded by the config check); `record`: the named record of its name (`RunningStage.record`). */
  kept: 'cursor' | 'record';
  /** The stage for one run, or null when the run's rules give it nothing to do. */
  open(run: StageRun): RunningStage<S> | null;
  /**
   * The transactions whose events the stage reads under `rules`, or null when it reads none: the scan fetches
   * them with those the matchers need, and the fetch plan counts them (stage-events.ts).
   */
  eventsWanted?(rules: WatchRules): ((tx: Transaction) => boolean) | null;
}

/** A stage kept in a record of its own: its name is the record's, its state the record's value. */
export type RecordKeptStage<N extends RecordName> = BlockStage<StateRecords[N]> & { name: N; kept: 'record' };

/** Any stage, as the registry lists them. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyBlockStage = BlockStage<any>;
