// The only writer of the cursor. It holds the cursor as stored, the progress past it whose alerts are all
// delivered but not yet written, and the blocks scanned since (remembered with the next write, in one
// stretch); it writes at a checkpoint, before a fork search, at the end of the run (giving the lease back in
// the same write), and before failing.
//
// The cursor is written once per cycle (and every CHECKPOINT_BLOCKS blocks of a catch-up), not after every
// block: a write per block was most of what a quiet cycle cost. A crash in between loses no alert and
// doubles none: the next run rescans from the stored cursor, and the alert claims say `sent` for every
// alert already delivered.
import { UNKNOWN_BLOCK_HASH, type BlockHeader } from './domain';
import type { Cursor, CursorPosition, ScannedBlock, StateStore, Telemetry } from './ports';
import type { RunLease } from './run-lease';

/** A catch-up writes the cursor at least this often, so a run killed mid-way rescans at most this many blocks. */
export const CHECKPOINT_BLOCKS = 50;

export class CursorKeeper {
  /** Where the scan has got to past the stored cursor: every alert up to it delivered, not yet written. */
  private progress: CursorPosition | null = null;
  /** The blocks done since the stored cursor, written with the next cursor write. */
  private unsaved: ScannedBlock[] = [];
  /** What must be stored before a cursor write passes the blocks done (the balances at the head). */
  private beforeSave: ((headHeight: number) => Promise<void>) | null = null;

  constructor(
    private readonly state: StateStore,
    private readonly telemetry: Telemetry,
    /** The cursor as stored (read once per cycle: under the lease only this run moves it). */
    private stored: Cursor | null,
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

  /**
   * A block's alerts are all delivered: the scan is past it. Written at the next checkpoint, with what the
   * cursor carries past it (retractions still pending, the windows' counts, what rules' cooldowns and mutes
   * hold: rule-quiet.ts).
   */
  async blockDone(header: BlockHeader, alertKeys: string[], carried: Pick<CursorPosition, 'pendingRetractions' | 'windows' | 'quiet'>): Promise<void> {
    this.unsaved.push({ height: header.height, hash: header.hash, parentHash: header.parentHash ?? UNKNOWN_BLOCK_HASH, alertKeys });
    const { pendingRetractions, windows, quiet } = carried;
    this.progress = {
      height: header.height,
      hash: header.hash,
      time: header.time,
      ...(pendingRetractions ? { pendingRetractions } : {}),
      ...(windows ? { windows } : {}),
      ...(quiet ? { quiet } : {}),
    };
    if (this.unsaved.length >= CHECKPOINT_BLOCKS) await this.save();
  }

  /** Store something kept per block (the tracked balances) before each cursor write that passes new blocks. */
  saveWith(hook: (headHeight: number) => Promise<void>): void {
    this.beforeSave = hook;
  }

  /** Writes the progress: the blocks done since the stored cursor, then the cursor past them. */
  async save(options?: { releaseLeaseOf?: string }): Promise<boolean> {
    if (!this.progress) return false;
    await this.beforeSave?.(this.progress.height);
    await this.state.putScannedBlocks(this.unsaved);
    await this.write(this.progress, options);
    this.progress = null;
    this.unsaved = [];
    return true;
  }

  /** Back to the fork point after a reorg, with the replaced blocks' alerts to confirm or retract. */
  async rewind(forkPoint: CursorPosition): Promise<void> {
    await this.write(forkPoint);
  }

  /** The cycle's last write; it gives the lease back too, unless another run has taken it. */
  async saveAtEnd(lease: RunLease | undefined): Promise<void> {
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

  private async write(next: CursorPosition, options?: { releaseLeaseOf?: string }): Promise<void> {
    this.stored = await this.state.writeCursor(next, this.stored?.version ?? null, options);
  }
}
