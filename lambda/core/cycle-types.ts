// The watch cycle's contract with its two composition roots (lambda/handler.ts and lambda/cli.ts).
import type { FetchWay, RunPlan } from './follow/fetch-choice';
import type { MissingFeedRoutes } from './follow/subject-fallback';
import type { ObservedActivity } from './follow/observed-activity';
import type { AlertType } from './alert-kinds/alert';
import type { BlockRef } from './domain';
import type { WatchConfig } from './watch-config/watch-config-schema';
import type { ChainApi, Clock, Cursor, OperatorChannel, Publisher, StateStore, Telemetry, TurnHandover } from './ports';
import type { StatusSweep } from './match/contract-status-sweep';
import type { BalanceReadAllowance } from './stages/balance-reads';
import type { EmilyApi } from './sbtc/emily-port';
import type { MempoolReadPlan } from './mempool/mempool-plan';

/** Keys (route and UTC day, `apiDeprecationKey`) of the API deprecation notices this process has seen sent. */
export type DeprecationsNoticed = Set<string>;

export interface CycleDeps {
  chain: ChainApi;
  state: StateStore;
  publisher: Publisher;
  clock: Clock;
  telemetry: Telemetry;
  /** Where conditions that need a person go (the ops topic in AWS). */
  operator: OperatorChannel;
  /** Emily, sBTC's public API, read by the sBTC lifecycle stage; absent, only the registry's prints are followed. */
  emily?: EmilyApi;
}

export interface CycleBudget {
  /** Identifies this run in the lease and the logs. */
  runId: string;
  /** Epoch ms after which no new block is started (the cycle stops at a block boundary). */
  deadlineMs: number;
  /** Asked between blocks; true stops the cycle at the next block boundary (Ctrl-C). */
  shouldStop?: () => boolean;
  /** Aborted to stop (Ctrl-C): as shouldStop, and the reads ahead of the scan are given up at once. */
  stop?: AbortSignal;
  /** How long the lease is held; renewed between blocks once half is gone, so a dead run's lapses soon. */
  leaseTtlMs: number;
  /** The caller already holds the lease under `runId` for `leaseTtlMs` (a loop turn takes it with its token). */
  leaseTaken?: boolean;
  /**
   * A queued loop turn (scan/loop-turns.ts): it took no lease and read the cursor already; its last cursor
   * write carries the blocks it passes and the hand-over, the turn's one write. `handedOver` is set once that
   * write landed.
   */
  loopTurn?: { handover: TurnHandover; cursor: Cursor | null; handedOver: boolean };
  /** A claimed-but-unsent alert older than this is taken to belong to a dead run and is published again. */
  alertStaleAfterMs: number;
  /** false: this cycle checks no contract status (a loop turn between two due checks); absent or true: it does. */
  checkStatuses?: boolean;
  /** Spreads the contract-status checks of a long watch list over cycles; absent, every cycle checks all. */
  statusSweep?: StatusSweep;
  /**
   * The balance reads left to this run, its share of the request budget (lambda/hiro/balance-share.ts); the
   * cycles of one invocation share the one object. Absent, every due balance is read.
   */
  balanceReads?: BalanceReadAllowance;
  /**
   * Deprecated API routes whose day's notice this process has seen sent (lambda/core/follow/api-deprecations.ts): kept
   * by the caller across its runs, so that a warm container or the local runner warns once a day, not every run.
   */
  deprecationsNoticed?: DeprecationsNoticed;
  /**
   * Blocks read ahead of the scan at once at most (follow/read-ahead.ts, or per subject), below its own bound: what a
   * batch holds in memory is bounded for a small function. A catch-up reads its blocks in more, smaller batches.
   */
  readAheadBlocks?: number;
  /** How blocks are read (fetch-choice.ts): the block scan when absent. */
  fetchWay?: FetchWay;
  /**
   * The per-subject routes this process found the API lacks (follow/subject-fallback.ts): kept by the caller across
   * its runs, as `deprecationsNoticed` is, so that later runs keep the block scan and the operator hears once.
   */
  missingFeedRoutes?: MissingFeedRoutes;
  /**
   * What this process's runs saw of the subjects' feeds and the block scan's blocks (follow/observed-activity.ts):
   * kept by the caller across its runs, as `missingFeedRoutes` is, so that the fetch plan estimates with how busy
   * the watched subjects are. Absent, each run estimates at the mainnet-like pace alone.
   */
  observedActivity?: ObservedActivity;
  /** Called after each block is done (progress display). */
  onBlockDone?: (progress: { height: number; done: number; total: number }) => void;
}

export type StopReason =
  | 'caught-up'
  | 'max-blocks'
  | 'time-budget'
  | 'stop-requested'
  | 'lease-held'
  | 'api-not-synced'
  | 'cursor-conflict'
  | 'alert-in-flight'
  /** The API asked to wait longer than the run had left (see ApiBackoffError). */
  | 'api-backoff';

export interface CycleSummary {
  runId: string;
  stoppedBecause: StopReason;
  blocksScanned: number;
  alertsPublished: number;
  alertsByType: Partial<Record<AlertType, number>>;
  contractsChecked: number;
  reorgs: number;
  cursor: BlockRef | null;
  tip: BlockRef | null;
  /** tip height minus cursor height (null before the first block). */
  lagBlocks: number | null;
  /** now minus the cursor block's time, in seconds (null before the first block). */
  lagSeconds: number | null;
  durationMs: number;
  /** How the run read the chain and why, when it was asked to choose (`fetchWay`). */
  fetchPlan?: RunPlan;
  /** With pending rules: how the run read the mempool (the whole list or per principal) and why. */
  mempoolRead?: MempoolReadPlan;
}

export type RunCycle = (deps: CycleDeps, config: WatchConfig, budget: CycleBudget) => Promise<CycleSummary>;
