// How a continuous runner rides out an outage once it has worked: it keeps trying, pausing longer after
// each failed cycle (up to a cap), and says so once when the outage starts and once when it ends, rather
// than one error line per cycle for as long as the network is down.

/** The longest pause between two failed cycles. */
export const OUTAGE_MAX_PAUSE_MS = 10 * 60_000;

export interface OutageLog {
  (level: 'info' | 'warn' | 'debug', message: string): void;
}

export class OutageTracker {
  private failures = 0;
  private startedAt = 0;

  constructor(
    private readonly intervalMs: number,
    private readonly log: OutageLog,
    private readonly now: () => number = Date.now,
    private readonly maxPauseMs = Math.max(OUTAGE_MAX_PAUSE_MS, intervalMs),
  ) {}

  /** A cycle failed: returns how long to pause before the next one. */
  failed(error: Error): number {
    this.failures += 1;
    const pauseMs = Math.min(this.maxPauseMs, this.intervalMs * 2 ** (this.failures - 1));
    if (this.failures === 1) {
      this.startedAt = this.now();
      this.log(
        'warn',
        `cycle failed: ${error.message}; trying again in ${seconds(pauseMs)}, then with growing pauses up to ` +
          `${seconds(this.maxPauseMs)} (the cursor is safe; a line follows when it works again)`,
      );
    } else {
      this.log('debug', `cycle failed again (${this.failures} in a row): ${error.message}; next try in ${seconds(pauseMs)}`);
    }
    return pauseMs;
  }

  /** A cycle worked: ends the outage, if there was one. */
  succeeded(): void {
    if (this.failures === 0) return;
    this.log('info', `working again after ${this.failures} failed cycle(s) over ${seconds(this.now() - this.startedAt)}`);
    this.failures = 0;
  }
}

function seconds(ms: number): string {
  const s = Math.round(ms / 1000);
  return s >= 120 ? `${Math.round(s / 60)} min` : `${s} s`;
}
