// The core's ports: the only ways the watch cycle reaches the outside world. Each has one adapter per
// outside system (Hiro HTTP, DynamoDB or a JSON file, SNS or stdout) and an in-memory fake for tests.
import type { ApiDeprecation, Block, BlockHeader, ChainTip, NodeTip, ContractStatus, PrincipalBalances, TxEvents } from './domain';
import type { WindowStates } from './stages/window-state';
import type { AlertRecordState, QuietCursorPart, HeldOrMutedRecords, HeldOrMutedWrites } from './stages/cooldown-mute-state';
import type { MempoolApi } from './mempool/mempool-ports';
import type { RecordStore } from './state-records';
export type { ChainHealthState } from './health/chain-health';
export type { BlockStall, RecordName, RecordPort, RecordStore, StateRecords } from './state-records';
import type { TokenMetadata } from './watch-config/token-decimals';
import type { SubjectFeedApi } from './follow/subject-feeds';

/** What to read of one transaction beyond the block's list: its events, its call's arguments and result, or both. */
export interface TxReadRequest {
  txId: string;
  /** From the block's list; null when it did not say. 0 lets the adapter skip the events. */
  eventCount: number | null;
  /** false when only the call details are wanted (default true). */
  events?: boolean;
  /** true to fill TxEvents.call: the list gave the call without its arguments or result. */
  call?: boolean;
}

export interface ChainApi {
  /** The current tip, or null when the API has not synced yet (no chain_tip). */
  getTip(): Promise<ChainTip | null>;
  /** Statuses keyed by contract id; the adapter batches the ids as the API needs. */
  getContractStatuses(contractIds: readonly string[]): Promise<Map<string, ContractStatus>>;
  /**
   * The canonical block at `height` with all its transactions, or null when the API knows no block
   * there (above its tip). An empty block (the API's 404 on an empty page) comes back with no
   * transactions and its header. `signal` aborted: the read gives up, its requests not yet sent never are.
   */
  getBlock(height: number, signal?: AbortSignal): Promise<Block | null>;
  /** A canonical block header by height or hash; null when unknown. */
  getBlockHeader(heightOrHash: number | string): Promise<BlockHeader | null>;
  /**
   * All events of the given transactions that the core can use (logs, asset movements, STX locks), every page
   * of them, batched into as few calls as URLs allow; `eventCount` lets it skip those with none and plan paging.
   */
  getTransactionEvents(txs: readonly TxReadRequest[], signal?: AbortSignal): Promise<Map<string, TxEvents>>;
  /**
   * What `principal` holds after block `atHeight`: read to start a balance rule, after a gap, to reconcile
   * (balance-reads.ts). `assets` (`stx`, token ids) are those its rules watch: an adapter that rebuilds a past
   * balance from its changes reads only those; it throws BalanceUnavailableError when it cannot.
   */
  getBalances?(principal: string, atHeight: number, assets?: readonly string[]): Promise<PrincipalBalances>;
  /** A token's decimals and symbol from its metadata (`contractId.token`), null when the API has none it can read. */
  getTokenMetadata?(assetId: string): Promise<TokenMetadata | null>;
  /**
   * Deprecated routes used or found retired since the last call (each route once), so that the cycle can
   * tell the operator before a retirement stops the watcher. Adapters with no such notion leave it out.
   */
  takeApiDeprecations?(): ApiDeprecation[];
  /**
   * The Stacks node's own Stacks and Bitcoin tips (the node behind the API, apart from its database), asked
   * only when chain health suspects a stall (chain-health.ts). Adapters without a node leave it out.
   */
  getNodeTip?(): Promise<NodeTip>;
  /** The mempool, for pending rules (mempool/); adapters and fakes without one leave it out: no pending alerts. */
  mempool?: MempoolApi;
  /** The per-subject feeds (subject-feeds.ts); adapters without them leave it out: the block scan. */
  subjects?: SubjectFeedApi;
}

// ---- state ----
/**
 * Alerts of blocks that a reorg replaced, waiting to be confirmed on the new chain or retracted once the
 * rescan reaches `untilHeight` (the old chain's height plus a grace of a few blocks). Kept with the cursor so that a crash mid-rescan loses none.
 */
export interface PendingRetractions {
  untilHeight: number;
  keys: string[];
}

/** What a cursor write sets. */
export interface CursorPosition extends QuietCursorPart {
  height: number;
  hash: string;
  /** Unix seconds of the block (for ChainLagSeconds between blocks). */
  time: number;
  pendingRetractions?: PendingRetractions;
  /** The windows' counts as of this block (window-state.ts): written with the cursor, so a crash counts nothing twice. */
  windows?: WindowStates;
  /** The states of the other stages kept with the cursor, by stage name (stages/stage-states.ts). */
  stages?: Record<string, { v: number; state: unknown }>;
}

/** The scan cursor: the last block whose alerts are all delivered. */
export interface Cursor extends CursorPosition {
  /** Incremented by every write; writes are conditional on it, so overlapping runs cannot both advance. */
  version: number;
}

/** What the state remembers of a scanned block: enough to find a fork point and retract its alerts. */
export interface ScannedBlock {
  height: number;
  hash: string;
  parentHash: string;
  /** Keys of the chain alerts this block produced (for retractions after a reorg). */
  alertKeys: string[];
}

/** The last known deployment status of a watched contract. */
export interface StoredContractStatus {
  contractId: string;
  found: boolean;
  status: string | null;
  txId: string | null;
  blockHeight: number | null;
  /** How many status alerts this contract has had; part of the next alert's key. */
  changes: number;
}

/**
 * The result of claiming an alert key before publishing it:
 * - `claimed`: nobody had it (or it had been retracted); publish it, then mark it sent.
 * - `stale`: a claim older than the staleness limit (its run died mid-publish); publish it again.
 * - `sent`: already delivered; skip it.
 * - `in-flight`: another run claimed it moments ago; do not publish, do not advance past it.
 * - `parked`: the channel refused it for good (or may have taken it without answering); it is kept with its
 *   reason for the operator and never published again; skip it.
 */
export type ClaimOutcome = 'claimed' | 'stale' | 'sent' | 'in-flight' | 'parked';

export interface AlertRecordSummary {
  key: string;
  state: AlertRecordState;
  /** The alert JSON as published (or as refused, when parked), kept so that a retraction can name what it retracts. */
  alert?: unknown;
  /** Why a parked alert could not be delivered; why a held or muted one was not sent. */
  reason?: string;
}

/** A claim on an alert key: when it was made, and a random id that tells one run's claim from another's. */
export interface AlertClaim {
  claimedAt: number;
  claimId: string;
}

/** An alert's delivery record as a store keeps it. */
export interface StoredAlertRecord {
  state: AlertRecordState;
  /** The claim, while pending (records written before claim ids existed may lack the id). */
  claim?: { claimedAt: number; claimId?: string };
  alert?: unknown;
  reason?: string;
}

/** A conditional write: done, or refused, with the record that made it fail (null: gone or expired since). */
export type ConditionalWrite = { written: true } | { written: false; found: StoredAlertRecord | null };

/**
 * The primitive reads and conditional writes of alert records that each store implements; the claim rules
 * over them (claimed, stale, in flight, sent, parked) live once, in core/deliver/alert-claims.ts. A record past its
 * expiry counts as absent everywhere.
 */
export interface AlertRecordStore extends HeldOrMutedWrites {
  readAlertRecord(key: string): Promise<StoredAlertRecord | null>;
  /** Writes the claim only if there is no live record or it is retracted. */
  createClaim(key: string, claim: AlertClaim, nowMs: number): Promise<ConditionalWrite>;
  /** Replaces the pending claim `seen` by `claim`, only if the record is still exactly that claim. */
  replaceClaim(key: string, seen: AlertClaim, claim: AlertClaim, nowMs: number): Promise<ConditionalWrite>;
  /** Deletes the record only while it is pending (and, given a claim id, that claim). */
  deleteClaim(key: string, claimId: string | undefined): Promise<void>;
  writeSent(key: string, nowMs: number, alert: unknown): Promise<void>;
  writeParked(key: string, nowMs: number, alert: unknown, reason: string): Promise<void>;
  /** Marks an existing record retracted; no record, nothing to do. */
  writeRetracted(key: string, nowMs: number): Promise<void>;
}

/**
 * A loop turn's hand-over (lambda/core/scan/loop-turns.ts), riding on its cursor write: the write lands only
 * while the loop's token is still `expected`, and moves it to `next` with the heartbeat, so that one
 * conditional write moves the cursor, stands for the lease and says the loop is alive.
 */
export interface TurnHandover {
  expected: string;
  next: string;
  /** Epoch ms, the heartbeat written. */
  beatAt: number;
}

/** What a cursor write may carry besides the cursor. */
export interface CursorWriteOptions {
  /** Give back this owner's lease in the same write (a lease another owner holds by then is left alone). */
  releaseLeaseOf?: string;
  /** The blocks the write passes, remembered by the same write (as putScannedBlocks would, before it). */
  blocks?: readonly ScannedBlock[];
  /** A loop turn's hand-over: the write is refused (CursorConflictError) once the token is not `expected`. */
  handover?: TurnHandover;
}

export class CursorConflictError extends Error {
  constructor(message = 'the cursor was changed by another run') {
    super(message);
    this.name = 'CursorConflictError';
  }
}

/** The state: the lease and the cursor, scanned blocks, contract statuses, alert records, and the small named records. */
export interface StateStore extends RecordStore, HeldOrMutedRecords {
  /** Take the run lease for `ttlMs`; false when another owner holds an unexpired lease. */
  acquireLease(owner: string, nowMs: number, ttlMs: number): Promise<boolean>;
  /** Give the lease back (only if `owner` still holds it). */
  releaseLease(owner: string): Promise<void>;

  readCursor(): Promise<Cursor | null>;
  /**
   * Move the cursor to `next`, only if its version is still `expectedVersion` (null: no cursor yet).
   * Throws CursorConflictError otherwise. Returns the cursor as written. With `releaseLeaseOf`, the same
   * write also gives back that owner's lease (the end of a cycle costs one write, not two); a lease
   * another owner holds by then is left alone. With `blocks`, the blocks it passes are remembered by the same
   * write (a store may keep the newest on the cursor's own record, so that a loop turn costs one write).
   */
  writeCursor(next: CursorPosition, expectedVersion: number | null, options?: CursorWriteOptions): Promise<Cursor>;

  /**
   * Remember blocks scanned in one stretch, in height order (a height already remembered is replaced).
   * Called before the cursor write that passes them, so a crash between the two leaves only blocks nobody
   * relies on yet. Stores may keep a stretch as one record: a quiet cycle's blocks cost one write.
   */
  putScannedBlocks(blocks: readonly ScannedBlock[]): Promise<void>;
  /** Remembered blocks with fromHeight <= height <= toHeight, ascending, the latest written at each height. */
  getScannedBlocks(fromHeight: number, toHeight: number): Promise<ScannedBlock[]>;

  readContractStatuses(contractIds: readonly string[]): Promise<Map<string, StoredContractStatus>>;
  writeContractStatus(status: StoredContractStatus): Promise<void>;

  /** Claim an alert key before publishing (a conditional write in stores that have them). */
  claimAlert(key: string, nowMs: number, staleAfterMs: number): Promise<ClaimOutcome>;
  /** Record that the alert was published; `alert` is kept for a later retraction. */
  markAlertSent(key: string, nowMs: number, alert: unknown): Promise<void>;
  /** Drop a claim whose publish failed, so the next run publishes it at once. */
  releaseAlertClaim(key: string): Promise<void>;
  /**
   * Keep an alert the channel will never take (or may have taken without answering), with the reason, so
   * that it is neither published again nor lost, and the cursor can go on past its block.
   */
  parkAlert(key: string, nowMs: number, alert: unknown, reason: string): Promise<void>;
  /** Mark a sent alert retracted, so that the event alerts again if it comes back on chain. */
  markAlertRetracted(key: string, nowMs: number): Promise<void>;
  getAlertRecord(key: string): Promise<AlertRecordSummary | null>;
}

export * from './deliver/delivery-ports';
