// The block scan: every height from the cursor up to the tip (less the confirmations), one block at a time,
// in one direction: the chain follower gives the next block (or a rollback when it does not build on the
// last one), the kinds match it, the delivery stage sends its alerts, and only then the cursor keeper moves
// past it. A reorg is found before anything is built on a replaced block.
import type { SubjectSource } from '../follow/subject-source';
import type { Block, Network, TxEvents } from '../domain';
import type { ChainAlert } from '../alert-kinds/alert';
import { deepReorgKind } from '../alert-kinds/deep-reorg';
import type { WatchRules } from '../rules/rule-lists';
import { blockMatches } from '../match/block-alerts';
import { clearBlockStall, recordBlockFailure } from '../health/block-stalls';
import { ChainFollower } from '../follow/chain-follower';
import { ChainUnlinkedError } from '../follow/chain-unlinked';
import type { CursorKeeper } from './cursor-keeper';
import type { CycleBudget, CycleDeps, StopReason } from '../cycle-types';
import { AlertInFlightError } from '../deliver/delivery';
import { ApiBackoffError } from '../follow/api-backoff';
import type { DeliveryStage } from '../deliver/delivery-stage';
import { CursorConflictError } from '../ports';
import { confirmOnNewChain, retractionsFor } from './retractions';
import type { RunLease } from './run-lease';
import { OpenStages } from '../stages/open-stages';
import { bare } from '../stages/stage-states';

export interface ScanPlan {
  network: Network;
  rules: WatchRules;
  /** The first height to scan when there is no cursor yet. */
  firstHeight: number;
  /** The last height to scan in this cycle (tip less confirmations). */
  lastHeight: number;
  /** The chain tip read at the start of the cycle (its Bitcoin height when the API gave it). */
  tip: { height: number; hash: string; burnHeight?: number };
  maxBlocks: number;
  /** Set when the run reads per subject (fetch-choice.ts). */
  source?: SubjectSource | null;
}

export interface ScanResult {
  stoppedBecause: StopReason;
  blocksScanned: number;
  reorgs: number;
}

/** Where a scan writes and sends: the run's cursor keeper and delivery stage, and its lease to keep. */
export interface ScanStages {
  keeper: CursorKeeper;
  delivery: DeliveryStage;
  lease?: RunLease;
  /** false: the last cursor write keeps the lease (a stage after the scan still works under it). Default true. */
  releaseLeaseAtEnd?: boolean;
  /** Marks mined alerts that raised a pending alert first (mempool/mempool-watch.ts). */
  markMined?: (alerts: ChainAlert[]) => Promise<ChainAlert[]>;
}

export class BlockScanner {
  private blocksScanned = 0;
  private reorgs = 0;
  private readonly follower: ChainFollower;
  private readonly keeper: CursorKeeper;
  private readonly delivery: DeliveryStage;
  /** What remembers across blocks (stages/registry.ts), opened for the run's rules. */
  private readonly blockStages: OpenStages;

  constructor(
    private readonly deps: CycleDeps,
    private readonly plan: ScanPlan,
    private readonly budget: CycleBudget,
    private readonly stages: ScanStages,
  ) {
    this.follower = new ChainFollower(deps, { ...plan, ...(budget.stop ? { stop: budget.stop } : {}) });
    this.keeper = stages.keeper;
    this.delivery = stages.delivery;
    this.blockStages = OpenStages.open({
      deps,
      rules: plan.rules,
      network: plan.network,
      budget,
      tip: plan.tip,
      ...(stages.markMined ? { mempool: { markMined: stages.markMined } } : {}),
    });
  }

  async run(): Promise<ScanResult> {
    let stoppedBecause: StopReason;
    try {
      this.keeper.carry(this.blockStages, await this.blockStages.load(this.keeper.cursor));
      stoppedBecause = await this.scan();
    } catch (error) {
      const clean = cleanStopReason(error);
      if (!clean) {
        await this.keeper.saveBeforeFailing(this.budget.runId);
        await this.failedAtBlock(error);
        throw error;
      }
      this.deps.telemetry.log('warn', (error as Error).message, { runId: this.budget.runId });
      // Another run's fresh claim passes within the staleness limit; one that never does is a stuck block.
      // So is an API that asks every run to wait before the same block.
      if (clean === 'alert-in-flight' || (clean === 'api-backoff' && this.blocksScanned === 0)) await this.failedAtBlock(error);
      stoppedBecause = clean;
    }
    // Another run moved the cursor: what this run scanned since is not its to record.
    if (stoppedBecause !== 'cursor-conflict') stoppedBecause = await this.saveAtEnd(stoppedBecause);
    const cursor = this.keeper.cursor;
    if (this.blocksScanned > 0 && cursor) await this.pastFailingBlock(cursor.height);
    return { stoppedBecause, blocksScanned: this.blocksScanned, reorgs: this.reorgs };
  }

  private async scan(): Promise<StopReason> {
    const replaced = await this.follower.replacedCursor(this.keeper.cursor);
    if (replaced) await this.rollBack(replaced);
    const total = Math.max(0, this.plan.lastHeight - this.nextHeight() + 1);
    while (this.nextHeight() <= this.plan.lastHeight) {
      const stop = this.stopReason();
      if (stop) return stop;
      if (this.stages.lease && !(await this.stages.lease.keep())) return 'lease-held';
      const height = this.nextHeight();
      const step = await this.follower.next(height, this.keeper.head(), {
        lastHeight: this.plan.lastHeight,
        blocksLeft: this.plan.maxBlocks - this.blocksScanned,
        deadlineMs: this.budget.deadlineMs,
        ...(this.budget.readAheadBlocks === undefined ? {} : { maxBatch: this.budget.readAheadBlocks }),
      });
      if (step.kind === 'end') return 'caught-up';
      if (step.kind === 'stopped') return 'stop-requested';
      if (step.kind === 'fork') {
        // The fork search starts from the stored cursor and its remembered blocks: store them first.
        await this.keeper.save();
        await this.rollBack(step.newChainHash);
        continue;
      }
      await this.apply(step.block, step.events);
      this.budget.onBlockDone?.({ height, done: this.blocksScanned, total });
    }
    return 'caught-up';
  }

  /**
   * match → stages → deliver → advance: the kinds' matches in chain order, then every stage in turn (the
   * mempool's marks, the windows' crossings, the cooldowns and mutes: stages/registry.ts), each from its state
   * after the block before; then the alerts the stages pass on are delivered, what the stages do after
   * delivery is done, the retractions its height makes due go out, and the cursor, carrying every stage's
   * state, moves past the block.
   */
  private async apply(block: Block, events: ReadonlyMap<string, TxEvents>): Promise<void> {
    const { state, telemetry } = this.deps;
    const { network, rules } = this.plan;
    const matched = blockMatches(block, events, rules, network);
    const staged = await this.blockStages.apply({ block, events, network }, matched, this.keeper.states);
    const report = await this.delivery.deliver(staged.send);
    await staged.afterDelivery();

    // The block's keys: its alerts, sent, held or muted (a held or muted one's record is never retracted). Those of a
    // replaced block that the new chain carries again are confirmed, not retracted.
    const keys = staged.alerts.map((a) => a.key);
    let pending = confirmOnNewChain(this.keeper.head()?.pendingRetractions, keys);
    if (pending && block.header.height >= pending.untilHeight) {
      const retractions = await retractionsFor(pending.keys, state, this.plan.network, telemetry);
      await this.delivery.deliver(retractions);
      for (const r of retractions) await state.markAlertRetracted(r.retracts, this.deps.clock.now());
      pending = undefined;
    }
    await this.keeper.blockDone(block.header, keys, pending, staged.states);
    this.blocksScanned += 1;
    telemetry.log('debug', 'block scanned', {
      blockHeight: block.header.height,
      transactions: block.transactions.length,
      alerts: staged.alerts.length - staged.unsent,
      published: report.published.length,
      heldOrMuted: staged.unsent,
    });
  }

  /** Back to the fork point, remembering the replaced blocks' alerts until the rescan confirms or retracts each. */
  private async rollBack(newChainHash: string): Promise<void> {
    const rollback = await this.follower.rollback(this.keeper.cursor!, newChainHash);
    this.reorgs += 1;
    if (rollback.deep) await this.delivery.deliver([deepReorgKind.build(rollback.deep, this.plan.network)]);
    this.deps.telemetry.log('warn', 'reorg: rescanning from the fork point', {
      cursorHeight: rollback.from,
      forkHeight: rollback.to.height,
      depth: rollback.from - rollback.to.height,
      alertsToRecheck: rollback.alertsToRecheck,
    });
    // Every stage goes back to the fork point too: the replaced blocks' matches leave the windows, a cooldown
    // a replaced block started goes (cooldown-mute-rollback.ts).
    const height = rollback.to.height;
    const back = this.blockStages.rollback(this.keeper.states, height);
    if (Object.keys(back.inexact).length > 0) {
      this.deps.telemetry.log('warn', 'a reorg deeper than the stages keep (windows, cooldowns): their counts may miss matches below the fork', {
        stages: back.inexact,
        forkHeight: height,
      });
    }
    await this.keeper.rewind(bare(rollback.to), back.states);
  }

  private nextHeight(): number {
    return this.keeper.nextHeight(this.plan.firstHeight);
  }

  private stopReason(): StopReason | null {
    if (this.budget.shouldStop?.() || this.budget.stop?.aborted) return 'stop-requested';
    if (this.blocksScanned >= this.plan.maxBlocks) return 'max-blocks';
    if (this.deps.clock.now() >= this.budget.deadlineMs) return 'time-budget';
    return null;
  }

  /** The cycle's last cursor write; another run having moved the cursor meanwhile ends it as a conflict. */
  private async saveAtEnd(stoppedBecause: StopReason): Promise<StopReason> {
    try {
      const giveBack = stoppedBecause !== 'lease-held' && this.stages.releaseLeaseAtEnd !== false;
      await this.keeper.saveAtEnd(giveBack ? this.stages.lease : undefined);
      return stoppedBecause;
    } catch (error) {
      if (!(error instanceof CursorConflictError)) throw error;
      this.deps.telemetry.log('warn', error.message, { runId: this.budget.runId });
      return 'cursor-conflict';
    }
  }

  /**
   * The run ends without getting past the next height: count it, so that the same block failing run after
   * run reaches the operator. A chain that does not link is told at once, since no retry of ours can fix it.
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
}

/** Conditions that end a scan cleanly rather than as a failure: another run is doing the work. */
function cleanStopReason(error: unknown): StopReason | null {
  if (error instanceof CursorConflictError) return 'cursor-conflict';
  if (error instanceof AlertInFlightError) return 'alert-in-flight';
  if (error instanceof ApiBackoffError) return 'api-backoff';
  return null;
}
