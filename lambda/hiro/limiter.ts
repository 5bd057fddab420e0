// Keeps the client inside Hiro's per-minute budget: request starts are spaced evenly (60 000 / rpm ms
// apart, never a burst), at most `concurrency` requests are in flight, and everything holds off when the
// server says the budget is nearly spent or answers 429.
//
// Written by hand rather than with p-throttle because p-throttle reads the real clock and sets its own
// timers (the tests need an injected clock and sleep to check spacing without waiting), cannot be paused
// from outside (a retry-after or a low remaining budget must hold back every queued request), and does not
// bound concurrency.
import { readRateBudget } from './rate-limit-headers';

export interface RequestLimiterOptions {
  requestsPerMinute: number;
  concurrency: number;
  /** Longest pause taken on the server's word (a reset or retry-after far in the future). */
  maxWaitMs: number;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  onPause?: (waitMs: number, reason: string) => void;
}

/** Below this share of the limit left, wait for the reset instead of spending the rest. */
const LOW_BUDGET_SHARE = 0.1;

export class RequestLimiter {
  readonly intervalMs: number;
  private nextStartAt = Number.NEGATIVE_INFINITY;
  private pausedUntil = Number.NEGATIVE_INFINITY;
  private inFlight = 0;
  private readonly queue: (() => void)[] = [];

  constructor(private readonly options: RequestLimiterOptions) {
    this.intervalMs = 60_000 / options.requestsPerMinute;
  }

  /** Runs `task` once a concurrency permit and a start slot are free. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    await this.takePermit();
    try {
      await this.waitForStartSlot();
      return await task();
    } finally {
      this.returnPermit();
    }
  }

  /** Holds every request not yet started until `atMs` (capped at maxWaitMs from now). */
  pauseUntil(atMs: number, reason: string): void {
    const now = this.options.now();
    const until = Math.min(atMs, now + this.options.maxWaitMs);
    if (until <= this.pausedUntil || until <= now) return;
    this.pausedUntil = until;
    this.options.onPause?.(until - now, reason);
  }

  /** Reads an answer's rate-limit headers and pauses when the budget is nearly spent. */
  observe(headers: Headers): void {
    const now = this.options.now();
    const budget = readRateBudget(headers, now);
    if (!budget) return;
    const limit = budget.limit ?? this.options.requestsPerMinute;
    if (budget.remaining >= limit * LOW_BUDGET_SHARE) return;
    // Without a reset time, spread what is left over the minute rather than stopping outright.
    const resumeAt = budget.resetAtMs ?? now + 60_000 / Math.max(budget.remaining, 1);
    this.pauseUntil(resumeAt, `rate-limit budget low: ${budget.remaining} of ${limit} left`);
  }

  private async waitForStartSlot(): Promise<void> {
    for (;;) {
      const now = this.options.now();
      const startAt = Math.max(now, this.nextStartAt, this.pausedUntil);
      // Reserve the slot before sleeping so concurrent callers line up one interval apart.
      this.nextStartAt = startAt + this.intervalMs;
      if (startAt <= now) return;
      await this.options.sleep(startAt - now);
      // A pause that began while this request waited holds it too.
      if (this.pausedUntil <= this.options.now()) return;
    }
  }

  private takePermit(): Promise<void> {
    if (this.inFlight < this.options.concurrency) {
      this.inFlight += 1;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.queue.push(resolve));
  }

  private returnPermit(): void {
    const next = this.queue.shift();
    // The permit passes straight to the next waiter, so inFlight stays as it is.
    if (next) next();
    else this.inFlight -= 1;
  }
}
