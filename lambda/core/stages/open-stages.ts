// The stages of one run, opened from its rules: the scanner's single way to run them over a block, take them
// back to a fork point, and hand their states to the cursor keeper (which stores them with the cursor).
import type { ChainAlert } from '../alert-kinds/chain-kinds';
import type { Matched } from '../alert-kinds/kind';
import type { CursorPosition, RecordName, RecordStore } from '../ports';
import { isRecordName } from '../state-records';
import type { AnyBlockStage, RunningStage, StageBlock, StageRun } from './block-stage';
import { BLOCK_STAGES } from './registry';
import { carrying, cursorStates, type StageStates } from './stage-states';

/** One block through every stage. */
export interface StagedBlock {
  /** The block's alerts after every stage, sent or not: their keys are the block's. */
  alerts: ChainAlert[];
  /** Those to deliver, in order. */
  send: ChainAlert[];
  /** How many were recorded but not sent. */
  unsent: number;
  /** The stages' states after the block. */
  states: StageStates;
  /** What the stages do once the block's alerts are delivered. */
  afterDelivery(): Promise<void>;
}

interface Opened {
  stage: AnyBlockStage;
  running: RunningStage<unknown>;
}

/** The state a cursor written by an earlier version carries for a stage now kept in a record (its own version only). */
function olderCursorState(cursor: CursorPosition | null, stage: AnyBlockStage): unknown {
  const carried = cursor?.stages?.[stage.name];
  return carried && carried.v === stage.version ? structuredClone(carried.state) : null;
}

export class OpenStages {
  private constructor(
    private readonly opened: readonly Opened[],
    /** Where the stages kept in records of their own are read and written; absent in a replay. */
    private readonly records: RecordStore | undefined,
  ) {}

  /** The registered stages (or `registry`) that have work under the run's rules, in order. */
  static open(run: StageRun, registry: readonly AnyBlockStage[] = BLOCK_STAGES): OpenStages {
    const opened: Opened[] = [];
    for (const stage of registry) {
      if (stage.kept === 'record' && !isRecordName(stage.name)) {
        throw new Error(`the stage ${stage.name} is kept in a record, but no record has that name (core/state-records.ts)`);
      }
      const running = stage.open(run);
      if (running) opened.push({ stage, running });
    }
    return new OpenStages(opened, run.deps.state);
  }

  private get stages(): AnyBlockStage[] {
    return this.opened.map((o) => o.stage);
  }

  /**
   * The states as of the stored cursor: those the cursor carries, then those kept in records of their own. A
   * stage that has no work now leaves its state behind (it is not written again).
   */
  async load(cursor: CursorPosition | null): Promise<StageStates> {
    const states = cursorStates(cursor, this.stages);
    for (const { stage, running } of this.opened) {
      if (!running.record) continue;
      const stored = (await this.records?.readRecord(stage.name as RecordName)) ?? null;
      // A stage an earlier version kept with the cursor: its state is still there until the record is written.
      const earlier = stored === null && this.records ? olderCursorState(cursor, stage) : null;
      const state = running.record.loaded(stored ?? earlier, cursor?.height ?? null, earlier !== null);
      if (state !== undefined) states[stage.name] = state;
    }
    return states;
  }

  /** Before a cursor write at `headHeight`: the states kept in records of their own that changed. */
  async writeRecords(states: StageStates, headHeight: number): Promise<void> {
    for (const { stage, running } of this.opened) {
      const record = running.record?.take(states[stage.name], headHeight);
      if (record) await this.records?.writeRecord(stage.name as RecordName, record as never);
    }
  }

  async apply(at: Omit<StageBlock, 'positionOf'>, matched: readonly Matched<ChainAlert>[], before: StageStates): Promise<StagedBlock> {
    const positions = new Map(matched.map((m) => [m.alert, m.at]));
    const block: StageBlock = { ...at, positionOf: (alert) => positions.get(alert) };
    let alerts = matched.map((m) => m.alert);
    const unsent = new Set<ChainAlert>();
    const after: (() => Promise<void>)[] = [];
    const states: StageStates = {};
    for (const { stage, running } of this.opened) {
      const outcome = await running.apply(block, alerts, before[stage.name]);
      alerts = outcome.alerts;
      if (outcome.state !== undefined) states[stage.name] = outcome.state;
      for (const alert of outcome.unsent ?? []) unsent.add(alert);
      if (outcome.afterDelivery) after.push(outcome.afterDelivery);
    }
    return {
      alerts,
      send: alerts.filter((alert) => !unsent.has(alert)),
      unsent: unsent.size,
      states,
      afterDelivery: async () => {
        for (const run of after) await run();
      },
    };
  }

  /** Every stage's state as it was at the end of block `forkHeight`, and what a stage could not restore exactly. */
  rollback(before: StageStates, forkHeight: number): { states: StageStates; inexact: Record<string, readonly string[]> } {
    const states: StageStates = {};
    const inexact: Record<string, readonly string[]> = {};
    for (const { stage, running } of this.opened) {
      const back = running.rollback(before[stage.name], forkHeight);
      if (back.state !== undefined) states[stage.name] = back.state;
      if (back.inexact && back.inexact.length > 0) inexact[stage.name] = back.inexact;
    }
    return { states, inexact };
  }

  /** The cursor position carrying the states of the stages kept with the cursor. */
  carrying(position: CursorPosition, states: StageStates): CursorPosition {
    return carrying(position, states, this.stages);
  }
}
