// The block scan: every height from the cursor up to the tip (less the confirmations), one block at a time.
// A block's alerts are all delivered before the cursor moves past it, and every parent hash is checked
// against the block scanned before, so a reorg is found before anything is built on a replaced block.
//
// The cursor is written once per cycle (and every CHECKPOINT_BLOCKS blocks of a catch-up), not after every
// block: a write per block was most of what a quiet cycle cost. A crash in between loses no alert and
// doubles none: the next run rescans from the stored cursor, and the alert claims say `sent` for every
// alert already delivered. The blocks scanned since the last write are remembered with it, in one stretch.
import { UNKNOWN_BLOCK_HASH, type Block, type Network } from './domain';
import { type Alert, type ChainAlert } from './alert-kinds/alert';
import { ChainLinks } from './chain-links';
import { AlertInFlightError, deliverAlerts, type DeliveryReport } from './delivery';
import { CursorConflictError, type Cursor, type CursorPosition, type ScannedBlock } from './ports';
import { BlockReadAhead } from './read-ahead';
import type { RunLease } from './run-lease';
import type { CycleBudget, CycleDeps, StopReason } from './cycle-types';
import { findForkPoint } from './reorg';
import { confirmOnNewChain, mergePending, retractionsFor } from './retractions';
import { deepReorgKind } from './alert-kinds/deep-reorg';
import { blockAlerts } from './block-alerts';
import { clearBlockStall, recordBlockFailure } from './block-stalls';
import { ChainLinkCheck, ChainUnlinkedError } from './chain-unlinked';
import type { WatchRules } from './alert-kinds/rule-lists';
import type { SmsBudget, SmsRoute } from './sms-budget';

export interface ScanPlan {
  network: Network;
  rules: WatchRules;
  /** The first height to scan when there is no cursor yet. */
  firstHeight: number;
  /** The last height to scan in this cycle (tip less confirmations). */
  lastHeight: number;
  /** The chain tip read at the start of the cycle. */
  tip: { height: number; hash: string };
  maxBlocks: number;
  /** The run's SMS slots, when its alerts reach SMS subscribers (SNS); absent: no SMS routing. */
  sms?: SmsBudget;
}

/** A catch-up writes the cursor at least this often, so a run killed mid-way rescans at most this many blocks. */
export const CHECKPOINT_BLOCKS = 50;

export interface ScanResult {
  stoppedBecause: StopReason;
  cursor: Cursor | null;
  blocksScanned: number;
  reorgs: number;
  published: Alert[];
}

export class BlockScanner {
  /** The cursor as stored. */
  private cursor: Cursor | null;
  /** Where the scan has got to past the stored cursor: every alert up to it delivered, not yet written. */
  private progress: CursorPosition | null = null;
  /** The blocks scanned since the stored cursor, written with the next cursor write. */
  private unsaved: ScannedBlock[] = [];
  private readonly published: Alert[] = [];
  private blocksScanned = 0;
  private reorgs = 0;
  private readonly readAhead: BlockReadAhead;
  private readonly links: ChainLinks;
  private readonly unlinked = new ChainLinkCheck();

  constructor(
    private readonly deps: CycleDeps,
    private readonly plan: ScanPlan,
    private readonly budget: CycleBudget,
    cursor: Cursor | null,
    private readonly lease?: RunLease,
  ) {
    this.cursor = cursor;
    this.readAhead = new BlockReadAhead(deps.chain, plan, deps.clock);
    this.links = new ChainLinks(deps.chain, deps.telemetry);
  }

  async run(): Promise<ScanResult> {
    let stoppedBecause: StopReason;
    try {
      stoppedBecause = await this.scan();
    } catch (error) {
      const clean = cleanStopReason(error);
      if (!clean) {
        await this.saveBeforeFailing();
        await this.failedAtBlock(error);
        throw error;
      }
      this.deps.telemetry.log('warn', (error as Error).message, { runId: this.budget.runId });
      // Another run's fresh claim passes within the staleness limit; one that never does is a stuck block.
      if (clean === 'alert-in-flight') await this.failedAtBlock(error);
      stoppedBecause = clean;
    }
    // Another run moved the cursor: what this run scanned since is not its to record.
    if (stoppedBecause !== 'cursor-conflict') {
      try {
        await this.saveAtEnd(stoppedBecause);
      } catch (error) {
        if (!(error instanceof CursorConflictError)) throw error;
        this.deps.telemetry.log('warn', error.message, { runId: this.budget.runId });
        stoppedBecause = 'cursor-conflict';
      }
    }
    if (this.blocksScanned > 0 && this.cursor) await this.pastFailingBlock(this.cursor.height);
    return {
      stoppedBecause,
      cursor: this.cursor,
      blocksScanned: this.blocksScanned,
      reorgs: this.reorgs,
      published: this.published,
    };
  }

  private async scan(): Promise<StopReason> {
    await this.checkCursorStillCanonical();
    const total = Math.max(0, this.plan.lastHeight - this.nextHeight() + 1);
    while (this.nextHeight() <= this.plan.lastHeight) {
      const stop = this.stopReason();
      if (stop) return stop;
      if (this.lease && !(await this.lease.keep())) return 'lease-held';
      const height = this.nextHeight();
      const read = await this.readAhead.take(height, {
        lastHeight: this.plan.lastHeight,
        blocksLeft: this.plan.maxBlocks - this.blocksScanned,
        deadlineMs: this.budget.deadlineMs,
      });
      // The API knows no block there: its tip moved back since we read it. Next cycle goes on from here.
      if (!read) return 'caught-up';
      const { block, events } = read;
      const head = this.head();
      if (head && !(await this.links.buildsOn(block, head))) {
        this.readAhead.discard();
        this.unlinked.beforeRewind(block.header, head);
        // The fork search starts from the stored cursor and its remembered blocks: store them first.
        await this.save();
        await this.rewindToForkPoint(block.header.hash);
        continue;
      }
      await this.processBlock(block, blockAlerts(block, events, this.plan.rules, this.plan.network));
      this.budget.onBlockDone?.({ height, done: this.blocksScanned, total });
    }
    return 'caught-up';
  }

  /**
   * Parent checks find a reorg when the next block arrives. A reorg that replaced the cursor block without
   * making the chain longer shows only in the tip: catch it now rather than at the next block.
   */
  private async checkCursorStillCanonical(): Promise<void> {
    const cursor = this.cursor;
    if (!cursor || cursor.height < this.plan.tip.height || cursor.hash === UNKNOWN_BLOCK_HASH) return;
    if (cursor.height === this.plan.tip.height) {
      if (cursor.hash !== this.plan.tip.hash) await this.rewindToForkPoint(this.plan.tip.hash);
      return;
    }
    // The tip is below the cursor: the API's chain got shorter; ours is canonical only if still there.
    const header = await this.deps.chain.getBlockHeader(cursor.height);
    if (header?.hash !== cursor.hash) await this.rewindToForkPoint(this.plan.tip.hash);
  }

  /**
   * The run ends without getting past `nextHeight()`: count it, so that the same block failing run after run
   * reaches the operator. A chain that does not link is told at once, since no retry of ours can fix it.
   */
  private async failedAtBlock(error: unknown): Promise<void> {
    const { telemetry, operator } = this.deps;
    const stall = await recordBlockFailure(this.deps, this.nextHeight(), error);
    if (error instanceof ChainUnlinkedError) {
      telemetry.log('error', error.message, { runId: this.budget.runId, unlinked: error.block });
      // Told on the first run it happens; if it goes on, the stuck-block notices follow with the same cause.
      if (stall && stall.failures > 1) return;
      await operator.notify({
        kind: 'chain-unlinked',
        subject: `stacks-watch: the API's chain does not link at block ${error.block.height}`,
        message: `${error.message}\n\nCheck the API (STACKS_API_URL) or point the watcher at another one.`,
      });
    }
  }

  private async pastFailingBlock(cursorHeight: number): Promise<void> {
    try {
      await clearBlockStall(this.deps, cursorHeight);
    } catch (error) {
      // The blocks are done and their cursor is saved; a stale failure count only makes a later notice early.
      this.deps.telemetry.log('warn', 'could not clear the record of a block that had been failing', {
        reason: (error as Error).message,
      });
    }
  }

  /** The last block done: the unsaved progress, else the stored cursor. */
  private head(): CursorPosition | null {
    return this.progress ?? this.cursor;
  }

  private nextHeight(): number {
    const head = this.head();
    return head ? head.height + 1 : this.plan.firstHeight;
  }

  private stopReason(): StopReason | null {
    if (this.budget.shouldStop?.()) return 'stop-requested';
    if (this.blocksScanned >= this.plan.maxBlocks) return 'max-blocks';
    if (this.deps.clock.now() >= this.budget.deadlineMs) return 'time-budget';
    return null;
  }

  private async processBlock(block: Block, alerts: ChainAlert[]): Promise<void> {
    const { state, telemetry } = this.deps;
    const report = await this.deliver(alerts);

    // Alerts of a replaced block that the new chain carries again are confirmed, not retracted.
    let pending = confirmOnNewChain(
      this.head()?.pendingRetractions,
      alerts.map((a) => a.key),
    );
    if (pending && block.header.height >= pending.untilHeight) {
      const retractions = await retractionsFor(pending.keys, state, this.plan.network, telemetry);
      await this.deliver(retractions);
      for (const r of retractions) await state.markAlertRetracted(r.retracts, this.deps.clock.now());
      pending = undefined;
    }

    this.unsaved.push({
      height: block.header.height,
      hash: block.header.hash,
      parentHash: block.header.parentHash ?? UNKNOWN_BLOCK_HASH,
      alertKeys: alerts.map((a) => a.key),
    });
    this.progress = {
      height: block.header.height,
      hash: block.header.hash,
      time: block.header.time,
      ...(pending ? { pendingRetractions: pending } : {}),
    };
    this.blocksScanned += 1;
    if (this.unsaved.length >= CHECKPOINT_BLOCKS) await this.save();
    telemetry.log('debug', 'block scanned', {
      blockHeight: block.header.height,
      transactions: block.transactions.length,
      alerts: alerts.length,
      published: report.published.length,
    });
  }

  private async deliver(alerts: readonly Alert[]): Promise<DeliveryReport> {
    const routes = await this.routeSms(alerts);
    const report = await deliverAlerts(alerts, this.deps, this.budget.alertStaleAfterMs, routes);
    this.published.push(...report.published);
    return report;
  }

  /**
   * Decides which alerts are texted and which held for the digest, and keeps a grown tally with the cursor
   * *before* the held alerts go out, so that a crash after publishing them cannot lose them from the digest.
   * One cursor write, only when the tally grows (past the run's SMS budget). A first run with no stored
   * cursor yet saves its progress to have one; before its first block there is nothing to keep it with, and
   * that block's tally rides with its cursor write.
   */
  private async routeSms(alerts: readonly Alert[]): Promise<ReadonlyMap<string, SmsRoute> | undefined> {
    const sms = this.plan.sms;
    if (!sms || alerts.length === 0) return undefined;
    const before = sms.held();
    const routes = sms.routeAll(alerts);
    const after = sms.held();
    if (after && JSON.stringify(after) !== JSON.stringify(before)) {
      if (this.cursor) {
        const { version: _version, ...position } = this.cursor;
        await this.moveCursor(position);
      } else {
        await this.save();
      }
    }
    return routes;
  }

  /** Every cursor write carries the run's SMS tally, until the digest for it is sent. */
  private async moveCursor(next: CursorPosition, options?: { releaseLeaseOf?: string }): Promise<void> {
    const held = this.plan.sms?.held();
    const { smsDigest: _previous, ...position } = next;
    this.cursor = await this.deps.state.writeCursor(held ? { ...position, smsDigest: held } : position, this.cursor?.version ?? null, options);
  }

  /** Writes the progress: the blocks scanned since the stored cursor, then the cursor past them. */
  private async save(options?: { releaseLeaseOf?: string }): Promise<boolean> {
    if (!this.progress) return false;
    await this.deps.state.putScannedBlocks(this.unsaved);
    await this.moveCursor(this.progress, options);
    this.progress = null;
    this.unsaved = [];
    return true;
  }

  /** The cycle's cursor write; it gives the lease back too, unless another run has taken it. */
  private async saveAtEnd(stoppedBecause: StopReason): Promise<void> {
    const releasing = this.lease && stoppedBecause !== 'lease-held' ? this.lease : undefined;
    if (await this.save(releasing ? { releaseLeaseOf: releasing.owner } : undefined)) releasing?.releasedWithCursor();
  }

  /**
   * A run that fails (the API gave up, a store error) still records the blocks it finished, so the next run
   * does not redo them; if that write fails too, the next run rescans them, which the claims make harmless.
   */
  private async saveBeforeFailing(): Promise<void> {
    try {
      await this.save();
    } catch (error) {
      this.deps.telemetry.log('warn', 'could not save the progress before failing; the next run rescans those blocks', {
        runId: this.budget.runId,
        error: String(error),
      });
    }
  }

  /**
   * The block at cursor + 1 does not build on the cursor block: find the fork point, move the cursor back to
   * it and remember the replaced blocks' alerts until the rescan has confirmed or retracted each.
   */
  private async rewindToForkPoint(newChainHash: string): Promise<void> {
    const cursor = this.cursor!;
    const { chain, state, telemetry } = this.deps;
    const search = await findForkPoint(cursor, chain, state);
    this.reorgs += 1;
    telemetry.metric('ReorgsDetected', 1);

    let forkPoint: CursorPosition;
    if (search.forkPoint) {
      const { height, hash } = search.forkPoint;
      forkPoint = { height, hash, time: search.forkPointTime ?? cursor.time };
    } else {
      forkPoint = await this.deepReorgFallback(cursor, newChainHash, search.windowFloor);
    }
    const orphanedKeys = search.orphaned.flatMap((b) => b.alertKeys);
    const pending = mergePending(cursor.pendingRetractions, orphanedKeys, cursor.height);
    telemetry.log('warn', 'reorg: rescanning from the fork point', {
      cursorHeight: cursor.height,
      forkHeight: forkPoint.height,
      depth: cursor.height - forkPoint.height,
      alertsToRecheck: orphanedKeys.length,
    });
    await this.moveCursor({ ...forkPoint, ...(pending ? { pendingRetractions: pending } : {}) });
  }

  /**
   * No remembered block is canonical any more: the fork is deeper than the window. Say so loudly (error log,
   * metric, an alert to the operator), then rescan the whole window from the canonical block below it, so
   * that at least every remembered alert is confirmed or retracted.
   */
  private async deepReorgFallback(cursor: Cursor, newChainHash: string, windowFloor: number): Promise<CursorPosition> {
    const { chain, telemetry, operator } = this.deps;
    telemetry.metric('DeepReorgs', 1);
    telemetry.log('error', 'deep reorg: no remembered block is canonical; events below the window cannot be checked', {
      cursorHeight: cursor.height,
      cursorHash: cursor.hash,
      windowFloor,
    });
    await operator.notify({
      kind: 'deep-reorg',
      subject: `stacks-watch: a fork deeper than the ${cursor.height - windowFloor + 1} remembered blocks`,
      message:
        `None of the remembered blocks ${windowFloor} to ${cursor.height} is canonical any more: the scan had reached ` +
        `block ${cursor.height} (${cursor.hash}), and the new chain's block above it is ${newChainHash}. The watcher ` +
        `rescans from block ${Math.max(0, windowFloor - 1)}, confirming or retracting every alert it remembers; ` +
        'events below that height cannot be checked. Look at the chain (an explorer) to see what the fork replaced.',
    });
    await this.deliver([deepReorgKind.build({ cursor, newChainHash, windowFloor }, this.plan.network)]);
    const floorHeight = Math.max(0, windowFloor - 1);
    const header = await chain.getBlockHeader(floorHeight);
    if (!header) throw new Error(`deep reorg: the API has no block at height ${floorHeight} to rescan from`);
    return { height: header.height, hash: header.hash, time: header.time };
  }
}

/** Conditions that end a scan cleanly rather than as a failure: another run is doing the work. */
function cleanStopReason(error: unknown): StopReason | null {
  if (error instanceof CursorConflictError) return 'cursor-conflict';
  if (error instanceof AlertInFlightError) return 'alert-in-flight';
  return null;
}
