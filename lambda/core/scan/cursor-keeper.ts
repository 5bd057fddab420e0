// The only writer of the cursor. It holds the cursor as stored, the progress past it whose alerts are all
// delivered but not yet written, and the blocks scanned since (remembered with the next write, in one
// stretch); it writes at a checkpoint, before a fork search, at the end of the run (giving the lease back in
// the same write), and before failing.
//
// The cursor is written once per cycle (and every CHECKPOINT_BLOCKS blocks of a catch-up), not after every
// block: a write per block was most of what a quiet cycle cost. A crash in between loses no alert and
// doubles none: the next run rescans from the stored cursor, and the alert claims say `sent` for every
// alert already delivered.
import { UNKNOWN_BLOCK_HASH, type BlockHeader } from '../domain';
import type { Cursor, CursorPosition, CursorWriteOptions, PendingRetractions, ScannedBlock, StateStore, Telemetry } from '../ports';
import type { CycleBudget } from '../cycle-types';
import type { RunLease } from './run-lease';
import type { OpenStages } from '../stages/open-stages';
import type { StageStates } from '../stages/stage-states';

/** A catch-up writes the cursor at least this often, so a run killed mid-way rescans at most this many blocks. */
export const CHECKPOINT_BLOCKS = 50;

export class CursorKeeper {
  /** Where the scan has got to past the stored cursor: every alert up to it delivered, not yet written. */
  private progress: CursorPosition | null = null;
  /** The blocks done since the stored cursor, written with the next cursor write. */
  private unsaved: ScannedBlock[] = [];
  /** The run's stages, whose states every cursor write carries (stages/open-stages.ts). */
  private stages: OpenStages | null = null;
  /** Their states after the last block done. */
  private headStates: StageStates = {};

  constructor(
    private readonly state: StateStore,
    private readonly telemetry: Telemetry,
    /** The cursor as stored (read once per cycle: under the lease only this run moves it). */
    private stored: Cursor | null,
    /** A queued loop turn's: its blocks ride on each cursor write, and its last write hands the token over. */
    private readonly loopTurn?: CycleBudget['loopTurn'],
  ) {}

  /** The cursor as last written. */
  get cursor(): Cursor | null {
    return this.stored;
  }

  /** The last block done: the unsaved progress, else the stored cursor. */
  head(): CursorPosition | null {
    return this.progress ?? this.stored;
  }

  nextHeight(firstHeight: number): number {
    const head = this.head();
    return head ? head.height + 1 : firstHeight;
  }

  /** The run's stages: from now on every cursor write carries their states, from `states` (as of the stored cursor) on. */
  carry(stages: OpenStages, states: StageStates): void {
    this.stages = stages;
    this.headStates = states;
  }

  /** The stages' states after the last block done (or as of the stored cursor). */
  get states(): StageStates {
    return this.headStates;
  }

  /**
   * A block's alerts are all delivered: the scan is past it. Written at the next checkpoint, with what the
   * cursor carries past it: retractions still pending and every stage's state.
   */
  async blockDone(header: BlockHeader, alertKeys: string[], pendingRetractions: PendingRetractions | undefined, states: StageStates): Promise<void> {
    this.unsaved.push({ height: header.height, hash: header.hash, parentHash: header.parentHash ?? UNKNOWN_BLOCK_HASH, alertKeys });
    const position: CursorPosition = { height: header.height, hash: header.hash, time: header.time, ...(pendingRetractions ? { pendingRetractions } : {}) };
    this.progress = this.stages ? this.stages.carrying(position, states) : position;
    this.headStates = states;
    if (this.unsaved.length >= CHECKPOINT_BLOCKS) await this.save();
  }

  /** Writes the progress: the blocks done since the stored cursor, then the cursor past them. */
  async save(options?: CursorWriteOptions): Promise<boolean> {
    if (!this.progress) return false;
    await this.stages?.writeRecords(this.headStates, this.progress.height);
    // A loop turn's blocks ride on the cursor write itself (one write a turn); a cycle's go first.
    if (this.loopTurn) await this.write(this.progress, { ...options, blocks: this.unsaved });
    else {
      await this.state.putScannedBlocks(this.unsaved);
      await this.write(this.progress, options);
    }
    this.progress = null;
    this.unsaved = [];
    return true;
  }

  /** Back to the fork point after a reorg, with the replaced blocks' alerts to confirm or retract, and the stages' states there. */
  async rewind(forkPoint: CursorPosition, states: StageStates): Promise<void> {
    this.headStates = states;
    await this.write(this.stages ? this.stages.carrying(forkPoint, states) : forkPoint);
  }

  /** The cycle's last write; it gives the lease back too, unless another run has taken it. */
  async saveAtEnd(lease: RunLease | undefined): Promise<void> {
    const turn = this.loopTurn;
    if (turn) {
      // The turn's one write: its blocks, the cursor and the token handed over with the heartbeat.
      if (await this.save({ handover: turn.handover })) turn.handedOver = true;
      return;
    }
    if (await this.save(lease ? { releaseLeaseOf: lease.owner } : undefined)) lease?.releasedWithCursor();
  }

  /**
   * A run that fails (the API gave up, a store error) still records the blocks it finished, so the next run
   * does not redo them; if that write fails too, the next run rescans them, which the claims make harmless.
   */
  async saveBeforeFailing(runId: string): Promise<void> {
    try {
      await this.save();
    } catch (error) {
      this.telemetry.log('warn', 'could not save the progress before failing; the next run rescans those blocks', { runId, error: String(error) });
    }
  }

  private async write(next: CursorPosition, options?: CursorWriteOptions): Promise<void> {
    this.stored = await this.state.writeCursor(next, this.stored?.version ?? null, options);
  }
}
