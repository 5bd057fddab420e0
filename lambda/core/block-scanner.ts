// The block scan: every height from the cursor up to the tip (less the confirmations), one block at a time.
// A block's alerts are all delivered before the cursor moves past it, and every parent hash is checked
// against the block scanned before, so a reorg is found before anything is built on a replaced block.
import { UNKNOWN_BLOCK_HASH, type Alert, type Block, type ChainAlert, type Network } from './domain';
import { ChainLinks } from './chain-links';
import { AlertInFlightError, deliverAlerts, type DeliveryReport } from './delivery';
import { CursorConflictError, type Cursor, type CursorPosition } from './ports';
import { BlockReadAhead } from './read-ahead';
import type { RunLease } from './run-lease';
import type { CycleBudget, CycleDeps, StopReason } from './cycle-types';
import { findForkPoint } from './reorg';
import { confirmOnNewChain, mergePending, retractionsFor } from './retractions';
import { deepReorgKind } from './alert-kinds/deep-reorg';
import { blockAlerts } from './block-alerts';
import type { WatchRules } from './watch-rules';
import { defaultRuleName, WATCHER_RULE } from './rule-meta';
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

export interface ScanResult {
  stoppedBecause: StopReason;
  cursor: Cursor | null;
  blocksScanned: number;
  reorgs: number;
  published: Alert[];
}

export class BlockScanner {
  private cursor: Cursor | null;
  private readonly published: Alert[] = [];
  private blocksScanned = 0;
  private reorgs = 0;
  private readonly readAhead: BlockReadAhead;
  private readonly links: ChainLinks;

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
      if (!clean) throw error;
      this.deps.telemetry.log('warn', (error as Error).message, { runId: this.budget.runId });
      stoppedBecause = clean;
    }
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
      if (this.cursor && !(await this.links.buildsOn(block, this.cursor))) {
        this.readAhead.discard();
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

  private nextHeight(): number {
    return this.cursor ? this.cursor.height + 1 : this.plan.firstHeight;
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
      this.cursor?.pendingRetractions,
      alerts.map((a) => a.key),
    );
    if (pending && block.header.height >= pending.untilHeight) {
      const retractions = await retractionsFor(pending.keys, state, this.plan.network, telemetry);
      await this.deliver(retractions);
      for (const r of retractions) await state.markAlertRetracted(r.retracts, this.deps.clock.now());
      pending = undefined;
    }

    await state.putScannedBlock({
      height: block.header.height,
      hash: block.header.hash,
      parentHash: block.header.parentHash ?? UNKNOWN_BLOCK_HASH,
      alertKeys: alerts.map((a) => a.key),
    });
    await this.moveCursor({
      height: block.header.height,
      hash: block.header.hash,
      time: block.header.time,
      ...(pending ? { pendingRetractions: pending } : {}),
    });
    this.blocksScanned += 1;
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
   * (Before a first run's first block there is no cursor to keep it with: that block's tally rides with its
   * cursor write.)
   */
  private async routeSms(alerts: readonly Alert[]): Promise<ReadonlyMap<string, SmsRoute> | undefined> {
    const sms = this.plan.sms;
    if (!sms || alerts.length === 0) return undefined;
    const before = sms.held();
    const routes = sms.routeAll(alerts);
    const after = sms.held();
    if (this.cursor && after && JSON.stringify(after) !== JSON.stringify(before)) {
      const { version: _version, ...position } = this.cursor;
      await this.moveCursor(position);
    }
    return routes;
  }

  /** Every cursor write carries the run's SMS tally, until the digest for it is sent. */
  private async moveCursor(next: CursorPosition): Promise<void> {
    const held = this.plan.sms?.held();
    const { smsDigest: _previous, ...position } = next;
    this.cursor = await this.deps.state.writeCursor(held ? { ...position, smsDigest: held } : position, this.cursor?.version ?? null);
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
    const { chain, telemetry } = this.deps;
    telemetry.metric('DeepReorgs', 1);
    telemetry.log('error', 'deep reorg: no remembered block is canonical; events below the window cannot be checked', {
      cursorHeight: cursor.height,
      cursorHash: cursor.hash,
      windowFloor,
    });
    await this.deliver([
      {
        type: 'deep_reorg',
        key: deepReorgKind.key(cursor.hash, newChainHash),
        network: this.plan.network,
        cursor_height: cursor.height,
        cursor_hash: cursor.hash,
        window: cursor.height - windowFloor + 1,
        rule: defaultRuleName(WATCHER_RULE, 'deep_reorg'),
        severity: 'critical',
      },
    ]);
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
