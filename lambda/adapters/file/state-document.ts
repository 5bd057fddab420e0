// The whole watcher state as one JSON-serialisable document, with the StateStore semantics implemented
// over it in memory. Every change names the entries it touched, so that the file store writes those and not
// the whole document (state-journal.ts); tests use it as a real in-memory store.
import type { PendingSmsDigest } from '../../core/alert-kinds/sms-digest';
import type { BalanceBookRecord } from '../../core/stages/balance-book';
import { smsTallyOf, storedSmsTally, type SmsTally, type StoredSmsTally } from '../../core/deliver/sms-tally';
import type {
  AlertClaim,
  AlertRecordStore,
  AlertRecordSummary,
  BlockStall,
  ChainHealthState,
  ClaimOutcome,
  ConditionalWrite,
  RecordName,
  StateRecords,
} from '../../core/ports';
import {
  CursorConflictError,
  type Cursor,
  type CursorPosition,
  type CursorWriteOptions,
  type ScannedBlock,
  type StateStore,
  type StoredContractStatus,
} from '../../core/ports';
import { REMEMBERED_BLOCKS } from '../../core/follow/reorg';
import { createAlertClaims, FREE_TO_CLAIM } from '../../core/deliver/alert-claims';
import type { HeldOrMutedState } from '../../core/stages/cooldown-mute-state';
import type { MempoolState } from '../../core/mempool/mempool-ports';
import { stored, type AlertRecord } from './document-alert-record';
import type { ChatDeliveries } from '../chat/chat-delivery';
import type { SbtcTrackerState } from '../../core/sbtc/tracker-state';
import type { TokenMetadata } from '../../core/watch-config/token-decimals';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface StateDocument {
  format: 1;
  network: string;
  cursor: Cursor | null;
  lease: { owner: string; until: number } | null;
  blocks: Record<string, ScannedBlock>;
  contracts: Record<string, StoredContractStatus>;
  alerts: Record<string, AlertRecord>;
  /** Absent in files written before it existed, and whenever no block is failing. */
  blockStall?: BlockStall;
  /** What the SMS budget held back and has not yet sent a digest for, and the loop mode's window; files written
   * before the window existed hold the bare tally (read as `held`). */
  smsTally?: StoredSmsTally | PendingSmsDigest;
  /** The tracked balances of the `balances` rules; absent before any. */
  balances?: BalanceBookRecord;
  /** What the pending rules remember of the mempool (bounded; core/mempool/mempool-ports.ts). */
  mempool?: MempoolState;
  chainHealth?: ChainHealthState; // the tip's last move and the open conditions (core/health/chain-health.ts)
  /** Each alert's delivery to each chat channel, by alert key (the local runner's; file-state-store.ts). */
  chat?: Record<string, ChatDeliveries>;
  tokenDecimals?: Record<string, TokenMetadata>; // read from token metadata, by asset id; absent before any
  /** The sBTC lifecycle tracker; absent before any (files of earlier versions keep it in the cursor's `stages`). */
  sbtcLifecycle?: SbtcTrackerState;
}

export function emptyDocument(network: string): StateDocument {
  return { format: 1, network, cursor: null, lease: null, blocks: {}, contracts: {}, alerts: {} };
}

/** One entry of the document: a top-level member (the cursor, the lease, a named record), or one block, contract or alert record. */
export type EntryPath = readonly ['cursor' | 'lease' | RecordName] | readonly ['blocks' | 'contracts' | 'alerts' | 'chat', string];

export interface DocumentStoreOptions {
  /** Called after every change with the document and the entries it touched, to persist them. */
  onChange?: (doc: StateDocument, touched: readonly EntryPath[]) => Promise<void>;
  alertRetentionMs?: number;
}

/** StateStore over an in-memory document; every mutation awaits `onChange` before it resolves. */
export class DocumentStateStore implements StateStore {
  private readonly retentionMs: number;

  constructor(
    protected doc: StateDocument,
    private readonly options: DocumentStoreOptions = {},
  ) {
    this.retentionMs = options.alertRetentionMs ?? 30 * DAY_MS;
  }

  protected async changed(...touched: EntryPath[]): Promise<void> {
    await this.options.onChange?.(this.doc, touched);
  }

  async acquireLease(owner: string, nowMs: number, ttlMs: number): Promise<boolean> {
    const lease = this.doc.lease;
    if (lease && lease.owner !== owner && lease.until > nowMs) return false;
    this.doc.lease = { owner, until: nowMs + ttlMs };
    await this.changed(['lease'], ...this.pruneAlerts(nowMs));
    return true;
  }

  async releaseLease(owner: string): Promise<void> {
    if (this.doc.lease?.owner !== owner) return;
    this.doc.lease = null;
    await this.changed(['lease']);
  }

  async readCursor(): Promise<Cursor | null> {
    return this.doc.cursor ? structuredClone(this.doc.cursor) : null;
  }

  async writeCursor(next: CursorPosition, expectedVersion: number | null, options: CursorWriteOptions = {}): Promise<Cursor> {
    const current = this.doc.cursor;
    if ((current?.version ?? null) !== expectedVersion) {
      throw new CursorConflictError(`the cursor is at version ${current?.version ?? 'none'}, not ${expectedVersion ?? 'none'}: another run moved it`);
    }
    if (options.blocks) await this.putScannedBlocks(options.blocks); // no loop runs here: no hand-over to check
    const cursor: Cursor = { ...structuredClone(next), version: (current?.version ?? 0) + 1 };
    this.doc.cursor = cursor;
    const releases = options.releaseLeaseOf !== undefined && this.doc.lease?.owner === options.releaseLeaseOf;
    if (releases) this.doc.lease = null;
    await this.changed(['cursor'], ...(releases ? [['lease'] as const] : []), ...this.pruneBlocks(cursor.height));
    return structuredClone(cursor);
  }

  async putScannedBlocks(blocks: readonly ScannedBlock[]): Promise<void> {
    if (blocks.length === 0) return;
    for (const block of blocks) this.doc.blocks[String(block.height)] = structuredClone(block);
    await this.changed(...blocks.map((b) => ['blocks', String(b.height)] as const));
  }

  async getScannedBlocks(fromHeight: number, toHeight: number): Promise<ScannedBlock[]> {
    return Object.values(this.doc.blocks)
      .filter((b) => b.height >= fromHeight && b.height <= toHeight)
      .sort((a, b) => a.height - b.height)
      .map((b) => structuredClone(b));
  }

  async readContractStatuses(contractIds: readonly string[]): Promise<Map<string, StoredContractStatus>> {
    const result = new Map<string, StoredContractStatus>();
    for (const id of contractIds) {
      const status = this.doc.contracts[id];
      if (status) result.set(id, structuredClone(status));
    }
    return result;
  }

  async writeContractStatus(status: StoredContractStatus): Promise<void> {
    this.doc.contracts[status.contractId] = structuredClone(status);
    await this.changed(['contracts', status.contractId]);
  }

  // The claim rules live in core (alert-claims.ts); this store gives them its primitive reads and writes.
  private readonly claims = createAlertClaims(this.records());

  claimAlert(key: string, nowMs: number, staleAfterMs: number): Promise<ClaimOutcome> {
    return this.claims.claimAlert(key, nowMs, staleAfterMs);
  }
  markAlertSent(key: string, nowMs: number, alert: unknown): Promise<void> {
    return this.claims.markAlertSent(key, nowMs, alert);
  }
  releaseAlertClaim(key: string): Promise<void> {
    return this.claims.releaseAlertClaim(key);
  }
  parkAlert(key: string, nowMs: number, alert: unknown, reason: string): Promise<void> {
    return this.claims.parkAlert(key, nowMs, alert, reason);
  }
  markAlertRetracted(key: string, nowMs: number): Promise<void> {
    return this.claims.markAlertRetracted(key, nowMs);
  }
  getAlertRecord(key: string): Promise<AlertRecordSummary | null> {
    return this.claims.getAlertRecord(key);
  }
  recordHeldOrMuted(key: string, nowMs: number, alert: unknown, state: HeldOrMutedState, reason: string): Promise<void> {
    return this.claims.recordHeldOrMuted(key, nowMs, alert, state, reason);
  }

  /** The document's alert records as the claim machine's primitives; each write is one change, persisted. */
  private records(): AlertRecordStore {
    const writeHeldOrMuted: AlertRecordStore['writeHeldOrMuted'] = async (key, nowMs, alert, state, reason) => {
      const live = this.liveRecord(key, nowMs);
      if (live && !FREE_TO_CLAIM.includes(live.state)) return;
      this.doc.alerts[key] = { state, reason, claimedAt: nowMs, alert: structuredClone(alert), expiresAt: nowMs + this.retentionMs };
      await this.changed(['alerts', key]);
    };
    const refused = (key: string, nowMs: number): ConditionalWrite => {
      const live = this.liveRecord(key, nowMs);
      return { written: false, found: live ? stored(live) : null };
    };
    const claimRecord = (claim: AlertClaim, nowMs: number): AlertRecord => ({
      state: 'pending',
      claimedAt: claim.claimedAt,
      claimId: claim.claimId,
      expiresAt: nowMs + this.retentionMs,
    });
    return {
      readAlertRecord: async (key) => {
        const record = this.doc.alerts[key];
        return record ? stored(record) : null;
      },
      createClaim: async (key, claim, nowMs) => {
        const live = this.liveRecord(key, nowMs);
        if (live && !FREE_TO_CLAIM.includes(live.state)) return refused(key, nowMs);
        this.doc.alerts[key] = claimRecord(claim, nowMs);
        await this.changed(['alerts', key]);
        return { written: true };
      },
      replaceClaim: async (key, seen, claim, nowMs) => {
        const live = this.liveRecord(key, nowMs);
        if (live?.state !== 'pending' || live.claimedAt !== seen.claimedAt || (live.claimId ?? '') !== seen.claimId) {
          return refused(key, nowMs);
        }
        this.doc.alerts[key] = claimRecord(claim, nowMs);
        await this.changed(['alerts', key]);
        return { written: true };
      },
      deleteClaim: async (key, claimId) => {
        const record = this.doc.alerts[key];
        if (record?.state !== 'pending' || (claimId !== undefined && record.claimId !== undefined && record.claimId !== claimId)) return;
        delete this.doc.alerts[key];
        await this.changed(['alerts', key]);
      },
      writeSent: async (key, nowMs, alert) => {
        this.doc.alerts[key] = {
          state: 'sent',
          claimedAt: this.doc.alerts[key]?.claimedAt ?? nowMs,
          sentAt: nowMs,
          alert: structuredClone(alert),
          expiresAt: nowMs + this.retentionMs,
        };
        await this.changed(['alerts', key]);
      },
      writeParked: async (key, nowMs, alert, reason) => {
        this.doc.alerts[key] = {
          state: 'parked',
          claimedAt: this.doc.alerts[key]?.claimedAt ?? nowMs,
          reason,
          alert: structuredClone(alert),
          expiresAt: nowMs + this.retentionMs,
        };
        await this.changed(['alerts', key]);
      },
      writeRetracted: async (key, nowMs) => {
        const record = this.doc.alerts[key];
        if (!record) return;
        this.doc.alerts[key] = { ...record, state: 'retracted', expiresAt: nowMs + this.retentionMs };
        await this.changed(['alerts', key]);
      },
      writeHeldOrMuted,
    };
  }

  async readRecord<N extends RecordName>(name: N): Promise<StateRecords[N] | null> {
    const stored = this.doc[name];
    if (stored === undefined) return null;
    // The SMS record is stored in its older shape (core/deliver/sms-tally.ts).
    return structuredClone((name === 'smsTally' ? smsTallyOf(stored as StoredSmsTally | PendingSmsDigest) : stored) as StateRecords[N]);
  }

  async writeRecord<N extends RecordName>(name: N, value: StateRecords[N] | null): Promise<void> {
    if (value === null) delete this.doc[name];
    else (this.doc as Record<RecordName, unknown>)[name] = structuredClone(name === 'smsTally' ? storedSmsTally(value as SmsTally) : value);
    await this.changed([name]);
  }

  /** A record past its expiry counts as absent, like a DynamoDB item past its TTL that is not yet deleted. */
  private liveRecord(key: string, nowMs: number): AlertRecord | undefined {
    const record = this.doc.alerts[key];
    return record && record.expiresAt > nowMs ? record : undefined;
  }

  /** Keep twice as many blocks as the fork search looks back over (REMEMBERED_BLOCKS), so the file stays small. */
  private pruneBlocks(cursorHeight: number): EntryPath[] {
    const floor = cursorHeight - 2 * REMEMBERED_BLOCKS;
    const dropped = Object.keys(this.doc.blocks).filter((height) => Number(height) < floor);
    for (const height of dropped) delete this.doc.blocks[height];
    return dropped.map((height) => ['blocks', height] as const);
  }

  /**
   * Drop alert records past their expiry (they already count as absent), so the file does not grow with
   * every alert ever sent. Done once a run, when the lease is taken.
   */
  protected pruneAlerts(nowMs: number): EntryPath[] {
    const dropped = Object.entries(this.doc.alerts)
      .filter(([, record]) => record.expiresAt <= nowMs)
      .map(([key]) => key);
    for (const key of dropped) delete this.doc.alerts[key];
    return dropped.map((key) => ['alerts', key] as const);
  }
}
