// Keeps the client inside Hiro's per-minute budget. Up to `burst` requests may start at once, then starts
// are spaced 60 000 / rpm ms apart (a generic cell rate algorithm), and never more than `requestsPerMinute`
// start in any 60 s; at most `concurrency` are in flight; everything holds off when the server says the
// budget is spent or answers 429.
//
// By default at most one second's worth of requests start at once (none early without a key: 1.2 s apart;
// up to 8 with one), as Hiro's gateway limits per second as well as per minute and a burst that trips it
// costs retries; the allowance lets a run that paused (processing, writing state) catch up on idle slots.
// A larger burst shortens a scheduled run (a cycle's dozen requests in a second rather than one every 1.2 s
// without a key: less billed time, alerts sooner) for deployments that know their gateway allows it. Over any minute the client still sends no more than the
// limit, and the server's own count, read from every answer, stops it when other traffic shares the budget.
//
// Written by hand rather than with p-throttle because p-throttle reads the real clock and sets its own
// timers (the tests need an injected clock and sleep to check spacing without waiting), cannot be paused
// from outside (a retry-after or a spent budget must hold back every queued request), and does not bound
// concurrency.
import { readRateBudget, readSecondBudget } from './rate-limit-headers';

export interface RequestLimiterOptions {
  requestsPerMinute: number;
  /** Requests that may start back to back before starts are spaced out. 1: always evenly spaced. */
  burst: number;
  concurrency: number;
  /** Longest pause taken on the server's word (a reset or retry-after far in the future). */
  maxWaitMs: number;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  onPause?: (waitMs: number, reason: string) => void;
}

/** Without a reset time, below this share of the limit left, spread the rest over the minute. */
const LOW_BUDGET_SHARE = 0.1;
const WINDOW_MS = 60_000;
const SECOND_MS = 1_000;

export class RequestLimiter {
  readonly intervalMs: number;
  /** The rate's schedule: a start may run ahead of it by at most burst - 1 intervals. */
  private scheduledStart = Number.NEGATIVE_INFINITY;
  /** Start times of the last `windowLimit` requests, oldest first. */
  private readonly recentStarts: number[] = [];
  private readonly windowLimit: number;
  private pausedUntil = Number.NEGATIVE_INFINITY;
  private permitsOut = 0;
  /** Requests sent and not yet answered: they spend from the server's budget before it reports them. */
  private sent = 0;
  private readonly queue: (() => void)[] = [];
  /** Start slots are handed out one request at a time, in arrival order. */
  private turns: Promise<void> = Promise.resolve();

  constructor(private readonly options: RequestLimiterOptions) {
    this.intervalMs = 60_000 / options.requestsPerMinute;
    this.windowLimit = Math.max(1, Math.floor(options.requestsPerMinute));
  }

  /** Runs `task` once a concurrency permit and a start slot are free. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    await this.takePermit();
    try {
      await this.takeTurn();
      this.sent += 1;
      try {
        return await task();
      } finally {
        this.sent -= 1;
      }
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

  /** Reads an answer's rate-limit headers (called while its request still counts as sent). */
  observe(headers: Headers): void {
    const now = this.options.now();
    const othersSent = Math.max(0, this.sent - 1);
    const second = readSecondBudget(headers);
    if (second !== null && second <= othersSent) this.pauseUntil(now + SECOND_MS, 'per-second budget spent');
    const budget = readRateBudget(headers, now);
    if (!budget) return;
    const limit = budget.limit ?? this.options.requestsPerMinute;
    if (budget.resetAtMs !== null) {
      // The requests already sent will take what is left; nothing more until the window resets.
      if (budget.remaining <= othersSent) {
        this.pauseUntil(budget.resetAtMs, `rate-limit budget spent: ${budget.remaining} of ${limit} left`);
      }
      return;
    }
    if (budget.remaining >= limit * LOW_BUDGET_SHARE) return;
    this.pauseUntil(now + WINDOW_MS / Math.max(budget.remaining, 1), `rate-limit budget low: ${budget.remaining} of ${limit} left`);
  }

  private takeTurn(): Promise<void> {
    const turn = this.turns.then(() => this.waitForStartSlot());
    this.turns = turn.catch(() => {});
    return turn;
  }

  private async waitForStartSlot(): Promise<void> {
    for (;;) {
      const now = this.options.now();
      const startAt = this.earliestStart(now);
      if (startAt <= now) {
        this.recordStart(now);
        return;
      }
      // A pause that begins while this request waits is seen when it wakes.
      await this.options.sleep(startAt - now);
    }
  }

  private earliestStart(now: number): number {
    const byRate = this.scheduledStart - (this.options.burst - 1) * this.intervalMs;
    const byWindow = this.recentStarts.length >= this.windowLimit ? this.recentStarts[0]! + WINDOW_MS : Number.NEGATIVE_INFINITY;
    return Math.max(now, byRate, byWindow, this.pausedUntil);
  }

  private recordStart(now: number): void {
    this.scheduledStart = Math.max(this.scheduledStart, now) + this.intervalMs;
    this.recentStarts.push(now);
    if (this.recentStarts.length > this.windowLimit) this.recentStarts.shift();
  }

  private takePermit(): Promise<void> {
    if (this.permitsOut < this.options.concurrency) {
      this.permitsOut += 1;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.queue.push(resolve));
  }

  private returnPermit(): void {
    const next = this.queue.shift();
    // The permit passes straight to the next waiter, so permitsOut stays as it is.
    if (next) next();
    else this.permitsOut -= 1;
  }
}
