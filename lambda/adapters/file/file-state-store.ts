// The local runner's state: a JSON snapshot and a journal of the changes since (state-journal.ts), each
// change on disk before the store answers, so a crash at any point leaves the state as of the last change
// made, never half of one. A lock file beside it is the lease (the document's own lease field is unused
// here), so two local runners on one state file cannot both scan.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import type { ClaimOutcome, Cursor, CursorPosition, CursorWriteOptions } from '../../core/ports';
import { DocumentStateStore, emptyDocument, type StateDocument } from './state-document';
import { StateFileError, StateJournal } from './state-journal';
import type { ChatDelivery, ChatDeliveryLog } from '../chat/chat-delivery';

export { StateFileError } from './state-journal';

export class FileStateStore extends DocumentStateStore implements ChatDeliveryLog {
  /** When this runner took the lock (epoch ms); undefined until it has. */
  private lockTakenAt: number | undefined;
  /** The journal's writes, one after another: the chat queues record beside the cycle, and a compaction must not race an append. */
  private writes: Promise<void> = Promise.resolve();

  private constructor(
    private readonly path: string,
    private readonly journal: StateJournal,
    doc: StateDocument,
  ) {
    super(doc, { onChange: (d, touched) => this.inTurn(() => journal.record(d, touched)) });
  }

  private inTurn(write: () => Promise<void>): Promise<void> {
    const next = this.writes.then(write);
    this.writes = next.catch(() => {});
    return next;
  }

  /** One chat channel's delivery of one alert (the local runner's chat queues; `history` shows it). */
  async record(alertKey: string, channel: string, delivery: ChatDelivery): Promise<void> {
    const chat = (this.doc.chat ??= {});
    chat[alertKey] = { ...chat[alertKey], [channel]: delivery };
    await this.changed(['chat', alertKey]);
  }

  async unfinished(): Promise<Array<{ alertKey: string; channel: string; delivery: ChatDelivery }>> {
    return Object.entries(this.doc.chat ?? {}).flatMap(([alertKey, channels]) =>
      Object.entries(channels)
        .filter(([, delivery]) => delivery.state === 'queued' || delivery.state === 'retrying')
        .map(([channel, delivery]) => ({ alertKey, channel, delivery })),
    );
  }

  /** Opens the state file, or starts an empty state when there is none (nothing is written until a change). */
  static async open(path: string, network: string): Promise<FileStateStore> {
    const journal = new StateJournal(path);
    return new FileStateStore(path, journal, await readDocument(journal, path, network));
  }

  private get lockPath(): string {
    return `${this.path}.lock`;
  }

  override async acquireLease(owner: string, nowMs: number, ttlMs: number): Promise<boolean> {
    await mkdir(dirname(this.path), { recursive: true });
    const lease = JSON.stringify({ owner, until: nowMs + ttlMs, pid: process.pid, host: hostname() });
    if (!(await createExclusive(this.lockPath, lease))) {
      const held = await readLock(this.lockPath);
      if (held && held.owner !== owner && held.until > nowMs && holderAlive(held)) return false;
      // An expired lock (its runner died) or our own: take it over.
      await writeFile(this.lockPath, lease);
    }
    // Another runner may have written the file since we opened it: start from what is on disk.
    // In turn with the writes, keeping the chat deliveries recorded since (the queues post between cycles too).
    const chat = this.doc.chat;
    await this.inTurn(async () => {
      this.doc = await readDocument(this.journal, this.path, this.doc.network);
    });
    if (chat !== undefined) this.doc.chat = { ...this.doc.chat, ...chat };
    const pruned = this.pruneAlerts(nowMs);
    // A chat delivery goes with its alert's record.
    const chatPruned = Object.keys(this.doc.chat ?? {}).filter((key) => !(key in this.doc.alerts));
    for (const key of chatPruned) delete this.doc.chat![key];
    const touched = [...pruned, ...chatPruned.map((key) => ['chat', key] as const)];
    if (touched.length > 0) await this.inTurn(() => this.journal.record(this.doc, touched));
    this.lockTakenAt = nowMs;
    return true;
  }

  /**
   * Only the lock holder writes this file, so a claim made before this runner took the lock was left by a
   * runner killed between publishing and marking it sent. It is stale now, not after `staleAfterMs`: waiting
   * would stall every run (the CLI's limit is an hour) behind an alert nobody is publishing.
   */
  override async claimAlert(key: string, nowMs: number, staleAfterMs: number): Promise<ClaimOutcome> {
    const sinceLock = this.lockTakenAt === undefined ? staleAfterMs : nowMs - this.lockTakenAt + 1;
    return super.claimAlert(key, nowMs, Math.min(staleAfterMs, sinceLock));
  }

  /** The lock file is the lease here: giving it back with the cursor write is the lock's removal after it. */
  override async writeCursor(next: CursorPosition, expectedVersion: number | null, options: CursorWriteOptions = {}): Promise<Cursor> {
    const written = await super.writeCursor(next, expectedVersion, options.blocks ? { blocks: options.blocks } : {});
    if (options.releaseLeaseOf !== undefined) await this.releaseLease(options.releaseLeaseOf);
    return written;
  }

  override async releaseLease(owner: string): Promise<void> {
    const held = await readLock(this.lockPath);
    if (held?.owner === owner) await rm(this.lockPath, { force: true });
  }
}

async function readDocument(journal: StateJournal, path: string, network: string): Promise<StateDocument> {
  const doc = await journal.read();
  if (doc === null) return emptyDocument(network);
  if (doc.network !== network) {
    throw new StateFileError(`the state file ${path} belongs to ${doc.network}, but the watch config is for ${network}; use --state to pick another file`);
  }
  return doc;
}

async function createExclusive(path: string, content: string): Promise<boolean> {
  try {
    await writeFile(path, content, { flag: 'wx' });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/**
 * A lock written by a process on this machine that no longer exists is stale at once (a killed runner),
 * rather than blocking every run until its lease expires.
 */
function holderAlive(lock: { owner: string; pid?: number; host?: string }): boolean {
  if (lock.pid === undefined || lock.host !== hostname()) return true;
  try {
    process.kill(lock.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function readLock(path: string): Promise<{ owner: string; until: number; pid?: number; host?: string } | null> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as { owner: string; until: number; pid?: number; host?: string };
  } catch {
    return null; // gone, or half-written by a dying runner: treat as free
  }
}
