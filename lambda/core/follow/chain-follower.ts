// Following the chain: the next block with its events (read ahead), checked against the block before it, and,
// when it does not build on it, the rollback that undoes the replaced blocks (Chainhook's apply/rollback).
// The follower reads and decides; it writes nothing: the cursor keeper records where the scan is, the
// delivery stage sends what the replaced blocks' alerts become.
import { UNKNOWN_BLOCK_HASH, type Block, type TxEvents } from '../domain';
import type { DeepReorgFound } from '../alert-kinds/deep-reorg';
import type { WatchRules } from '../rules/rule-lists';
import { ChainLinks } from './chain-links';
import { ChainLinkCheck } from './chain-unlinked';
import type { ChainApi, Clock, Cursor, CursorPosition, OperatorChannel, StateStore, Telemetry } from '../ports';
import { BlockReadAhead, type ReadAheadLimits, type ReadBlock } from './read-ahead';
import type { SubjectSource } from './subject-source';
import { SubjectReadAhead } from './subject-read-ahead';
import { MissingFeedRoutes, SubjectFallback } from './subject-fallback';
import type { RunActivity } from './observed-activity';
import { findForkPoint } from './reorg';
import { mergePending } from '../scan/retractions';

export type FollowStep =
  /** The next block builds on the head: match it, deliver its alerts, move past it. */
  | { kind: 'apply'; block: Block; events: ReadonlyMap<string, TxEvents> }
  /** The next block does not build on the head: store the progress, then roll back (see rollback()). */
  | { kind: 'fork'; newChainHash: string }
  /** The API knows no block there: its tip moved back since it was read. The next cycle goes on. */
  | { kind: 'end' }
  /** The stop signal aborted the reads: the scan stops where it is. */
  | { kind: 'stopped' };

/** Where a rollback goes: the fork point, with the replaced blocks' alerts pending confirmation or retraction. */
export interface Rollback {
  to: CursorPosition;
  /** The cursor height rolled back from. */
  from: number;
  /** Alerts of the replaced blocks, each confirmed or retracted by the rescan. */
  alertsToRecheck: number;
  /** Set when the fork was deeper than the remembered blocks (its alert goes out before the rescan). */
  deep: DeepReorgFound | null;
}

export interface FollowPlan {
  rules: WatchRules;
  /** Aborted: the reads ahead are given up at once (the local runner's Ctrl-C). */
  stop?: AbortSignal;
  /** The chain tip read at the start of the cycle. */
  tip: { height: number; hash: string };
  /** Set when the fetch plan reads per subject (fetch-plan.ts): the blocks come from the feeds. */
  source?: SubjectSource | null;
  /** The per-subject routes the process found missing (subject-fallback.ts); this run's own when not given. */
  missingRoutes?: MissingFeedRoutes;
  /** Where the run notes what its blocks cost to read (observed-activity.ts), for the fetch plan of later runs. */
  activity?: RunActivity;
}

export interface FollowPorts {
  chain: ChainApi;
  state: StateStore;
  clock: Clock;
  telemetry: Telemetry;
  operator: OperatorChannel;
}

export class ChainFollower {
  private readonly readAhead: { take(height: number, limits: ReadAheadLimits): Promise<ReadBlock | null>; discard(): void };
  private readonly links: ChainLinks;
  private readonly unlinked = new ChainLinkCheck();

  constructor(
    private readonly ports: FollowPorts,
    private readonly plan: FollowPlan,
  ) {
    const blockScan = () => new BlockReadAhead(ports.chain, plan, ports.clock, plan.stop);
    this.readAhead = plan.source
      ? new SubjectFallback(new SubjectReadAhead(plan.source, plan.stop), blockScan, ports, plan.missingRoutes ?? new MissingFeedRoutes(), plan.source.answered)
      : blockScan();
    this.links = new ChainLinks(ports.chain, ports.telemetry);
  }

  /**
   * Parent checks find a reorg when the next block arrives. A reorg that replaced the cursor block without
   * making the chain longer shows only in the tip: the new chain's hash when the cursor block is gone.
   */
  async replacedCursor(cursor: Cursor | null): Promise<string | null> {
    const { tip } = this.plan;
    if (!cursor || cursor.height < tip.height || cursor.hash === UNKNOWN_BLOCK_HASH) return null;
    if (cursor.height === tip.height) return cursor.hash === tip.hash ? null : tip.hash;
    // The tip is below the cursor: the API's chain got shorter; ours is canonical only if still there.
    const header = await this.ports.chain.getBlockHeader(cursor.height);
    return header?.hash === cursor.hash ? null : tip.hash;
  }

  /** The block at `height`, which should build on `head` (the last block done). */
  async next(height: number, head: CursorPosition | null, limits: ReadAheadLimits): Promise<FollowStep> {
    const read = await this.readAhead.take(height, limits);
    if (this.plan.stop?.aborted) return { kind: 'stopped' };
    if (!read) return { kind: 'end' };
    if (head && !(await this.links.buildsOn(read.block, head))) {
      this.readAhead.discard();
      // A chain that fails to link at the same place after a rescan is a broken API: ChainUnlinkedError.
      this.unlinked.beforeRewind(read.block.header, head);
      return { kind: 'fork', newChainHash: read.block.header.hash };
    }
    return { kind: 'apply', block: read.block, events: read.events };
  }

  /**
   * The fork point below the stored cursor (its remembered blocks must be stored first), and the replaced
   * blocks' alerts to confirm or retract while the new chain is scanned. A fork deeper than the remembered
   * window is said loudly (error log, metric, the operator) and rolls back to the canonical block below it.
   */
  async rollback(cursor: Cursor, newChainHash: string): Promise<Rollback> {
    const { chain, state, telemetry } = this.ports;
    const search = await findForkPoint(cursor, chain, state);
    telemetry.metric('ReorgsDetected', 1);
    let to: CursorPosition;
    let deep: DeepReorgFound | null = null;
    if (search.forkPoint) {
      const { height, hash } = search.forkPoint;
      to = { height, hash, time: search.forkPointTime ?? cursor.time };
    } else {
      deep = { cursor, newChainHash, windowFloor: search.windowFloor };
      to = await this.belowDeepFork(deep);
    }
    const orphanedKeys = search.orphaned.flatMap((b) => b.alertKeys);
    const pending = mergePending(cursor.pendingRetractions, orphanedKeys, cursor.height);
    return {
      // The windows and what cooldowns and mutes hold are the scanner's to take back to the fork point.
      to: { ...to, ...(pending ? { pendingRetractions: pending } : {}) },
      from: cursor.height,
      alertsToRecheck: orphanedKeys.length,
      deep,
    };
  }

  /** No remembered block is canonical any more: rescan the whole window from the canonical block below it. */
  private async belowDeepFork({ cursor, newChainHash, windowFloor }: DeepReorgFound): Promise<CursorPosition> {
    const { chain, telemetry, operator } = this.ports;
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
    const floorHeight = Math.max(0, windowFloor - 1);
    const header = await chain.getBlockHeader(floorHeight);
    if (!header) throw new Error(`deep reorg: the API has no block at height ${floorHeight} to rescan from`);
    return { height: header.height, hash: header.hash, time: header.time };
  }
}
