// Backfill progress on a terminal: blocks done of total, rate and ETA, redrawn in place on stderr.
import type { Writable } from 'node:stream';

/** Below this many blocks a backfill is quick enough that progress would be noise. */
export const PROGRESS_MIN_BLOCKS = 50;

export function createProgressReporter(err: Writable & { isTTY?: boolean }, now: () => number = Date.now) {
  const startedAt = now();
  let shown = false;
  return {
    update({ done, total }: { height: number; done: number; total: number }): void {
      if (!err.isTTY || total <= PROGRESS_MIN_BLOCKS) return;
      const elapsedMin = Math.max(1e-9, (now() - startedAt) / 60_000);
      const rate = done / elapsedMin;
      const etaMin = rate > 0 ? (total - done) / rate : Infinity;
      const eta = Number.isFinite(etaMin) ? `${Math.ceil(etaMin)} min` : '?';
      err.write(`\r${done}/${total} blocks  ${rate.toFixed(1)} blocks/min  ETA ${eta}   `);
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
