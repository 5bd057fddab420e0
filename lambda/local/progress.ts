// Backfill progress on a terminal: blocks done of total, rate and ETA, redrawn in place on stderr.
// The rate is measured from the first block done, not from the cycle's start: the lease, the contract
// statuses and the tip come before any block (seconds that would make the first rate far too low), and the
// first block alone says nothing of the pace (read ahead, it can come in milliseconds: a rate far too high).
// Until a few blocks and seconds have passed the line says the speed is being measured, rather than guess.
// Blocks come in bursts: the scan reads a batch ahead (seconds), then does its blocks (milliseconds each). A
// rate taken at any block would swing with the burst (twice the pace at its end); so once a wait for a batch
// has been seen, the rate is taken at the first block after each such wait: over whole batches, read and done.
import type { Writable } from 'node:stream';

/** Below this many blocks a backfill is quick enough that progress would be noise. */
export const PROGRESS_MIN_BLOCKS = 50;
/** The rate is shown once this many blocks after the first are done… */
export const RATE_MIN_BLOCKS = 3;
/** …over at least this long. */
export const RATE_MIN_MS = 3_000;
/** A pause this long between two blocks is the scan waiting for its next batch of reads. */
export const BATCH_WAIT_MS = 1_000;

export function formatEta(minutes: number): string {
  if (minutes < 90) return `${Math.max(1, Math.ceil(minutes))} min`;
  const hours = Math.floor(minutes / 60);
  return `${hours} h ${Math.ceil(minutes - hours * 60)} min`;
}

export function createProgressReporter(err: Writable & { isTTY?: boolean }, now: () => number = Date.now) {
  let first: { at: number; done: number } | undefined;
  /** The last block done, and the last one done after a wait for a batch (where the rate is taken). */
  let last: { at: number; done: number } | undefined;
  let batchStart: { at: number; done: number } | undefined;
  let shown = false;
  return {
    update({ done, total }: { height: number; done: number; total: number }): void {
      if (!err.isTTY || total <= PROGRESS_MIN_BLOCKS) return;
      const at = now();
      first ??= { at, done };
      if (last && at - last.at >= BATCH_WAIT_MS) batchStart = { at, done };
      last = { at, done };
      // From the first block of the first batch to the first of the latest: whole batches; without one seen, so far.
      const upTo = batchStart ?? last;
      const blocks = upTo.done - first.done;
      const elapsedMs = upTo.at - first.at;
      let pace = 'measuring speed...';
      if (blocks >= RATE_MIN_BLOCKS && elapsedMs >= RATE_MIN_MS) {
        const rate = blocks / (elapsedMs / 60_000);
        pace = `${rate.toFixed(1)} blocks/min  ETA ${formatEta((total - done) / rate)}`;
      }
      err.write(`\r${done}/${total} blocks  ${pace}   `);
      shown = true;
    },
    /** Erases the progress line, so the next output (a log line, an alert) starts on a clean line. */
    clear(): void {
      if (shown) err.write('\r\x1b[K');
      shown = false;
    },
    end(): void {
      this.clear();
    },
  };
}
