// The state on disk: a snapshot (the state file itself, the whole document) and a journal beside it
// (`<state file>.journal`), one JSON line per change holding the entries it touched. A change costs what it
// touched, not the whole history: rewriting the document after every change slowed a busy catch-up from
// 67 to 3 blocks a second within 3,000 alerts.
//
// Crash safety: each change is one line, appended and flushed to disk (fdatasync) before the store answers,
// so a crash leaves whole lines plus at most one torn last line, which is ignored (and cut off before the
// next append). When the journal outgrows the snapshot, the document is written as a new snapshot (temp
// file, fsync, rename) and the journal emptied; a crash between the two replays the old journal over the new
// snapshot, which changes nothing, since each line sets its entries to whole values, last write winning.
//
// Half a state is refused, never read as a whole one: a snapshot says it is followed by a journal (the journal
// file is made before the snapshot is renamed into place), so a snapshot whose journal is gone, or a journal
// whose snapshot is gone, stops the runner with the file named, rather than starting over from startHeight and
// sending every alert again.
import { mkdir, open, readdir, readFile, rename, stat } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { RECORD_NAMES } from '../../core/state-records';
import type { EntryPath, StateDocument } from './state-document';

export class StateFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StateFileError';
  }
}

/** A journal smaller than this is never compacted: a small state is cheap to replay. */
const COMPACT_MIN_BYTES = 1024 * 1024;

/** The snapshot's mark that a journal follows it: absent in snapshots written before the check existed. */
const JOURNALED = 'journaled';

/** How to start over on purpose, named in every refusal of half a state. */
const START_OVER = 'to start over from startHeight on purpose (every alert since is sent again)';

/** One entry set to a value, or (no value) removed. */
type Op = [EntryPath] | [EntryPath, unknown];

const TOP_LEVEL = new Set(['cursor', 'lease', ...RECORD_NAMES]);
const KEYED = new Set(['blocks', 'contracts', 'alerts', 'chat']);

function isPath(path: unknown): path is EntryPath {
  if (!Array.isArray(path)) return false;
  if (path.length === 1) return TOP_LEVEL.has(path[0]);
  return path.length === 2 && KEYED.has(path[0]) && typeof path[1] === 'string';
}

function valueAt(doc: StateDocument, path: EntryPath): unknown {
  const entries = doc as unknown as Record<string, Record<string, unknown> | unknown>;
  return path.length === 1 ? entries[path[0]] : (entries[path[0]] as Record<string, unknown> | undefined)?.[path[1]];
}

function apply(doc: StateDocument, [path, ...value]: Op): void {
  const entries = doc as unknown as Record<string, unknown>;
  // A keyed member absent from files written before it existed (`chat`) is made by its first entry.
  const target = path.length === 1 ? entries : ((entries[path[0]] ??= {}) as Record<string, unknown>);
  const key = path.length === 1 ? path[0] : path[1];
  if (value.length === 0) delete target[key];
  else target[key] = value[0];
}

async function sizeOf(path: string): Promise<number | null> {
  try {
    return (await stat(path)).size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** Makes a rename or a new file in `dir` survive a power cut; not every platform lets a directory be synced. */
async function syncDirectory(dir: string): Promise<void> {
  try {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Windows cannot open a directory: its rename is as durable as it gets there.
  }
}

export class StateJournal {
  private snapshotBytes: number | null = null;
  private journalBytes = 0;
  /** Where the journal's whole lines end, when a torn line follows them that the next append must cut off. */
  private tornAt: number | null = null;

  constructor(private readonly path: string) {}

  get journalPath(): string {
    return `${this.path}.journal`;
  }

  /** The document on disk: the snapshot with the journal's whole lines applied; null when there is none. */
  async read(): Promise<StateDocument | null> {
    const snapshot = await this.readText(this.path);
    this.snapshotBytes = snapshot === null ? null : Buffer.byteLength(snapshot);
    const journal = await this.readText(this.journalPath);
    if (snapshot === null) {
      if (journal === null || (journal === '' && (await this.firstSnapshotCut()))) return null;
      throw new StateFileError(
        `the state file ${this.path} is missing, but its journal ${this.journalPath} is there: half of the local state is gone. ` +
          `Restore ${this.path}, or, ${START_OVER}, move ${this.journalPath} away`,
      );
    }
    let doc: StateDocument;
    try {
      doc = JSON.parse(snapshot) as StateDocument;
    } catch (error) {
      throw new StateFileError(`the state file ${this.path} is not valid JSON (${(error as Error).message}); move it away to start over`);
    }
    if (doc?.format !== 1 || typeof doc.blocks !== 'object' || typeof doc.alerts !== 'object' || typeof doc.contracts !== 'object') {
      throw new StateFileError(`the state file ${this.path} is not a stacks-watch state file (format 1)`);
    }
    const marks = doc as unknown as Record<string, unknown>;
    if (marks[JOURNALED] === true && journal === null) {
      throw new StateFileError(
        `the state journal ${this.journalPath} is missing, but the state file ${this.path} was written with one: the changes since it ` +
          `(the cursor, the alerts sent) are gone. Restore ${this.journalPath}, or, ${START_OVER}, move ${this.path} away`,
      );
    }
    delete marks[JOURNALED];
    this.replay(doc, journal ?? '');
    return doc;
  }

  /**
   * A first snapshot cut short: its journal made, the snapshot still a temp file when the runner died. The
   * one case where a journal without its snapshot is not half a state: an empty journal, nothing yet watched.
   */
  private async firstSnapshotCut(): Promise<boolean> {
    const prefix = `${basename(this.path)}.`;
    const names = await readdir(dirname(this.path)).catch(() => [] as string[]);
    return names.some((name) => name.startsWith(prefix) && /^\d+\.tmp$/.test(name.slice(prefix.length)));
  }

  /** Writes what a change touched: one journal line, or a new snapshot when the journal has outgrown the last. */
  async record(doc: StateDocument, touched: readonly EntryPath[]): Promise<void> {
    if (this.snapshotBytes === null || this.journalBytes > Math.max(COMPACT_MIN_BYTES, this.snapshotBytes)) {
      await this.compact(doc);
      return;
    }
    if (touched.length === 0) return;
    const ops = touched.map((path): Op => {
      const value = valueAt(doc, path);
      return value === undefined ? [path] : [path, value];
    });
    const line = `${JSON.stringify(ops)}\n`;
    const created = this.journalBytes === 0 && this.tornAt === null;
    const handle = await open(this.journalPath, 'a');
    try {
      if (this.tornAt !== null) {
        await handle.truncate(this.tornAt);
        this.tornAt = null;
      }
      await handle.write(line);
      await handle.datasync();
    } finally {
      await handle.close();
    }
    if (created) await syncDirectory(dirname(this.path));
    this.journalBytes += Buffer.byteLength(line);
  }

  /** The whole document as the new snapshot, then an empty journal. */
  async compact(doc: StateDocument): Promise<void> {
    await mkdir(dirname(this.path), { recursive: true });
    const text = JSON.stringify({ ...doc, [JOURNALED]: true });
    const temp = `${this.path}.${process.pid}.tmp`;
    const handle = await open(temp, 'w');
    try {
      await handle.writeFile(text);
      await handle.sync();
    } finally {
      await handle.close();
    }
    // The journal exists before the snapshot that says it does: no crash leaves a marked snapshot without one.
    await (await open(this.journalPath, 'a')).close();
    await rename(temp, this.path);
    await syncDirectory(dirname(this.path));
    if ((await sizeOf(this.journalPath)) !== null) {
      const journal = await open(this.journalPath, 'r+');
      try {
        await journal.truncate(0);
        await journal.sync();
      } finally {
        await journal.close();
      }
    }
    this.snapshotBytes = Buffer.byteLength(text);
    this.journalBytes = 0;
    this.tornAt = null;
  }

  private replay(doc: StateDocument, journal: string): void {
    const lines = journal.split('\n');
    // Whatever follows the last newline is a line whose append was cut short: it never took effect.
    const torn = lines.pop() ?? '';
    this.tornAt = torn === '' ? null : Buffer.byteLength(journal) - Buffer.byteLength(torn);
    this.journalBytes = Buffer.byteLength(journal) - Buffer.byteLength(torn);
    lines.forEach((line, index) => {
      let ops: unknown;
      try {
        ops = JSON.parse(line);
      } catch {
        ops = null;
      }
      if (!Array.isArray(ops) || !ops.every((op) => Array.isArray(op) && (op.length === 1 || op.length === 2) && isPath(op[0]))) {
        throw new StateFileError(
          `line ${index + 1} of the state journal ${this.journalPath} is not a change the watcher wrote; move it and ${this.path} away to start over`,
        );
      }
      for (const op of ops as Op[]) apply(doc, op);
    });
  }

  private async readText(path: string): Promise<string | null> {
    try {
      return await readFile(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw new StateFileError(`cannot read the state file ${path}: ${(error as Error).message}`);
    }
  }
}
