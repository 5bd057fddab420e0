// Backfill progress on a terminal: blocks done of total, rate and ETA, redrawn in place on stderr.
// The rate is measured from the first block done, not from the cycle's start: the lease, the contract
// statuses and the tip come before any block (seconds that would make the first rate far too low), and the
// first block alone says nothing of the pace (read ahead, it can come in milliseconds: a rate far too high).
// Until a few blocks and seconds have passed the line says the speed is being measured, rather than guess.
import type { Writable } from 'node:stream';

/** Below this many blocks a backfill is quick enough that progress would be noise. */
export const PROGRESS_MIN_BLOCKS = 50;
/** The rate is shown once this many blocks after the first are done… */
export const RATE_MIN_BLOCKS = 3;
/** …over at least this long. */
export const RATE_MIN_MS = 3_000;

export function formatEta(minutes: number): string {
  if (minutes < 90) return `${Math.max(1, Math.ceil(minutes))} min`;
  const hours = Math.floor(minutes / 60);
  return `${hours} h ${Math.ceil(minutes - hours * 60)} min`;
}

export function createProgressReporter(err: Writable & { isTTY?: boolean }, now: () => number = Date.now) {
  let first: { at: number; done: number } | undefined;
  let shown = false;
  return {
    update({ done, total }: { height: number; done: number; total: number }): void {
      if (!err.isTTY || total <= PROGRESS_MIN_BLOCKS) return;
      first ??= { at: now(), done };
      const blocks = done - first.done;
      const elapsedMs = now() - first.at;
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
