// Keeps the client inside every budget Hiro's gateway counts. Requests run in parallel (at most
// `concurrency` in flight); up to `burst` may start at once, then starts are spaced 60 000 / rpm ms apart
// (a generic cell rate algorithm), and never more than `requestsPerMinute` start in any 60 s.
//
// The gateway's own count comes with every answer, for each window it describes (per minute, per second,
// or whatever window the generic headers speak of): no request starts while a window has nothing left
// beyond the requests already on their way, until that window resets. A 429 holds everything back for its
// retry-after. After any such pause starts resume at the even spacing, not in a burst of the credit saved
// up while paused: a burst into a window that has just reset is what trips it again, and requests that were
// all refused at once would otherwise all retry at the same instant.
//
// The default burst is half the minute's budget: a scheduled run's dozen or two requests go out together
// (the tip, contract statuses and block pages in parallel), so the function is billed for a second or two of
// round trips rather than twenty seconds of spacing, and the other half stays for the next run. Another run
// or other traffic sharing the budget is seen in the first answer's count; at most `concurrency` requests
// can be on their way before it arrives.
//
// Written by hand rather than with p-throttle because p-throttle reads the real clock and sets its own
// timers (the tests need an injected clock and sleep to check spacing without waiting), cannot be paused
// from outside (a retry-after or a spent window must hold back every queued request), and does not bound
// concurrency.
//
// A run with a pause budget (`maxPauseMs`, a loop turn's) never sleeps longer than it: a request that would wait
// longer for its start (a spent window, a retry-after, the minute's count) ends the run there instead, as a wait
// past its deadline does, and the client remembers when it could have started (`resumeAtMs`): the next run is
// set for then, rather than this one being billed for the wait.
import type { HeaderReader } from './http-get';
import { ApiBackoffError } from '../core/follow/api-backoff';
import { onAbort } from '../core/shared-abort';
import { readRateWindows, type RateWindowName } from './rate-limit-headers';

export interface RequestLimiterOptions {
  requestsPerMinute: number;
  /** Requests that may start back to back before starts are spaced out. 1: always evenly spaced. */
  burst: number;
  concurrency: number;
  /** Longest pause taken on the server's word (a reset or retry-after far in the future). */
  maxWaitMs: number;
  /** Longest wait for a start before the run gives up with PauseRefusedError (none by default: waits up to maxWaitMs). */
  maxPauseMs?: number;
  now: () => number;
  /** Ends early, rejecting, when `signal` aborts. */
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  onPause?: (waitMs: number, reason: string) => void;
}

/** What the gateway last said is left of one window, less the requests started since; forgotten at its reset. */
interface WindowAllowance {
  allowance: number;
  resetAtMs: number;
}

const WINDOW_MS = 60_000;

/** A wait on the rate limit longer than the run's pause budget: the run ends here, and the next one resumes. */
export class PauseRefusedError extends ApiBackoffError {
  override name = 'PauseRefusedError';
  constructor(waitMs: number, maxPauseMs: number) {
    super(waitMs, maxPauseMs);
    this.message =
      `the API's rate limit asks to wait ${Math.ceil(waitMs / 1000)} s, more than the ${maxPauseMs / 1000} s this run waits: ` +
      'the run ends here with its finished blocks saved, and the next run is set for when the budget allows';
  }
}

export class RequestLimiter {
  readonly intervalMs: number;
  /** The rate's schedule: a start may run ahead of it by at most burst - 1 intervals. */
  private scheduledStart = Number.NEGATIVE_INFINITY;
  /** Start times of the last `windowLimit` requests, oldest first. */
  private readonly recentStarts: number[] = [];
  private readonly windowLimit: number;
  private pausedUntil = Number.NEGATIVE_INFINITY;
  private readonly windows = new Map<RateWindowName, WindowAllowance>();
  private permitsOut = 0;
  /** Requests sent and not yet answered: they spend from the server's budget before it reports them. */
  private sent = 0;
  private readonly queue: { resolve: () => void; reject: (reason: unknown) => void }[] = [];
  /** Start slots are handed out one request at a time, in arrival order. */
  private turns: Promise<void> = Promise.resolve();
  /** When a wait the pause budget refused would have ended: the earliest a next run can start requests. */
  private refusedUntil: number | null = null;

  constructor(private readonly options: RequestLimiterOptions) {
    this.intervalMs = 60_000 / options.requestsPerMinute;
    this.windowLimit = Math.max(1, Math.floor(options.requestsPerMinute));
  }

  /**
   * Runs `task` once a concurrency permit and a start slot are free. A request whose `signal` aborts while it
   * waits for either gives up its place at once, rejecting with the signal's reason: it is never sent.
   */
  async run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    await this.takePermit(signal);
    try {
      await this.takeTurn(signal);
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

  /**
   * Holds every request not yet started until `atMs` (capped at maxWaitMs from now); then even spacing. A
   * `refusable` pause (a 429's, which its own request would sleep before retrying) past the pause budget throws.
   */
  pauseUntil(atMs: number, reason: string, how: { refusable?: boolean } = {}): void {
    const now = this.options.now();
    const until = Math.min(atMs, now + this.options.maxWaitMs);
    if (until > this.pausedUntil && until > now) {
      this.pausedUntil = until;
      // The first start after the pause is at `until`, the next one interval later: no saved-up burst.
      this.scheduledStart = Math.max(this.scheduledStart, until + (this.options.burst - 1) * this.intervalMs);
      this.options.onPause?.(until - now, reason);
    }
    if (how.refusable) this.admitPause(this.pausedUntil - now);
  }

  /** When the rate limit lets requests start again, if this run refused to wait for it: `{ resumeAtMs }`, else `{}`. */
  refused(): { resumeAtMs?: number } {
    return this.refusedUntil === null ? {} : { resumeAtMs: this.refusedUntil };
  }

  /**
   * Throws PauseRefusedError when a wait of `waitMs` on the rate limit is longer than the pause budget,
   * remembering when it would have ended; every such wait is asked here before it is slept.
   */
  private admitPause(waitMs: number): void {
    const budget = this.options.maxPauseMs;
    if (budget === undefined || waitMs <= budget) return;
    const until = this.options.now() + waitMs;
    this.refusedUntil = Math.max(this.refusedUntil ?? until, until);
    throw new PauseRefusedError(waitMs, budget);
  }

  /** Reads an answer's rate-limit headers (called while its request still counts as sent). */
  observe(headers: HeaderReader): void {
    const now = this.options.now();
    const othersInFlight = Math.max(0, this.sent - 1);
    for (const window of readRateWindows(headers, now)) {
      const resetAtMs = Math.min(window.resetAtMs ?? now + window.lengthMs, now + this.options.maxWaitMs);
      if (resetAtMs <= now) {
        this.windows.delete(window.name);
        continue;
      }
      // The requests already on their way will take their share of what is left.
      const allowance = window.remaining - othersInFlight;
      this.windows.set(window.name, { allowance, resetAtMs });
      if (allowance <= 0) {
        const limit = window.limit === null ? '' : ` of ${window.limit}`;
        this.pauseUntil(resetAtMs, `${window.name} rate-limit window spent: ${window.remaining}${limit} left, ${othersInFlight} in flight`);
      }
    }
  }

  private takeTurn(signal: AbortSignal | undefined): Promise<void> {
    const turn = this.turns.then(() => this.waitForStartSlot(signal));
    this.turns = turn.catch(() => {});
    return turn;
  }

  private async waitForStartSlot(signal: AbortSignal | undefined): Promise<void> {
    for (;;) {
      signal?.throwIfAborted();
      const now = this.options.now();
      const startAt = this.earliestStart(now);
      if (startAt <= now) {
        this.recordStart(now);
        return;
      }
      this.admitPause(startAt - now);
      // A pause that begins while this request waits is seen when it wakes.
      await this.options.sleep(startAt - now, signal);
    }
  }

  private earliestStart(now: number): number {
    const byRate = this.scheduledStart - (this.options.burst - 1) * this.intervalMs;
    const byWindow = this.recentStarts.length >= this.windowLimit ? this.recentStarts[0]! + WINDOW_MS : Number.NEGATIVE_INFINITY;
    let startAt = Math.max(now, byRate, byWindow, this.pausedUntil);
    for (const [name, window] of this.windows) {
      if (window.resetAtMs <= now) this.windows.delete(name);
      else if (window.allowance <= 0) startAt = Math.max(startAt, window.resetAtMs);
    }
    return startAt;
  }

  private recordStart(now: number): void {
    this.scheduledStart = Math.max(this.scheduledStart, now) + this.intervalMs;
    this.recentStarts.push(now);
    if (this.recentStarts.length > this.windowLimit) this.recentStarts.shift();
    for (const [name, window] of this.windows) {
      window.allowance -= 1;
      if (window.allowance <= 0) this.pauseUntil(window.resetAtMs, `${name} rate-limit window spent by the requests in flight`);
    }
  }

  private takePermit(signal: AbortSignal | undefined): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.permitsOut < this.options.concurrency) {
      this.permitsOut += 1;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      let release = () => {};
      const waiter = {
        resolve: () => {
          release();
          resolve();
        },
        reject,
      };
      this.queue.push(waiter);
      // One listener on the signal however many requests queue on it (a Ctrl-C signal is shared by all).
      if (signal) {
        release = onAbort(signal, () => {
          this.queue.splice(this.queue.indexOf(waiter), 1);
          reject(signal.reason);
        });
      }
    });
  }

  private returnPermit(): void {
    const next = this.queue.shift();
    // The permit passes straight to the next waiter, so permitsOut stays as it is.
    if (next) next.resolve();
    else this.permitsOut -= 1;
  }
}
