// Hiro's gateway budget, simulated: a fixed window of `limit` requests, reported in Hiro's headers on
// every answer and, when enforced, a 429 with retry-after past it. The generic `ratelimit-*` headers describe
// the window whatever its length; the `x-ratelimit-*-stacks-minute` (or `-second`) pair comes only with a
// window of exactly that length, as the real gateway names its windows. `timeScale` shrinks real time so a
// benchmark can run a "60 s" window in 0.6 s; headers still speak in API seconds, so a client must be
// given a sleep and clock scaled the same way.

export interface FakeRateLimitOptions {
  /** Requests per window. */
  limit: number;
  /** Window length in API seconds. Default 60. */
  windowSeconds?: number;
  /** Real ms per API ms. Default 1; 0.01 runs a 60 s window in 600 ms. */
  timeScale?: number;
  /** False only reports the budget in headers, never answers 429. Default true. */
  enforce?: boolean;
  /**
   * The real clock windows are timed on, in ms: performance.now() unless given. A test whose requests must land in
   * one window, however slow a loaded machine runs them, moves its own clock from window to window.
   */
  clock?: () => number;
}

export interface RateDecision {
  allowed: boolean;
  headers: Record<string, string>;
}

/** Reported when no rate limit is configured: a budget that never runs down. */
const UNMETERED_LIMIT = 500;

export class FakeRateLimit {
  private windowStart = Number.NEGATIVE_INFINITY;
  private used = 0;
  private readonly windowRealMs: number;

  constructor(private readonly options: FakeRateLimitOptions | undefined) {
    this.windowRealMs = (options?.windowSeconds ?? 60) * 1000 * (options?.timeScale ?? 1);
  }

  /** Counts one request arriving now (on the window's clock) and says whether it may be served. */
  consume(): RateDecision {
    const nowMs = this.options?.clock?.() ?? performance.now();
    if (!this.options) return { allowed: true, headers: headersFor(UNMETERED_LIMIT, UNMETERED_LIMIT, 60, 60) };
    if (nowMs >= this.windowStart + this.windowRealMs) {
      this.windowStart = nowMs;
      this.used = 0;
    }
    const { limit } = this.options;
    const windowSeconds = this.options.windowSeconds ?? 60;
    const scale = this.options.timeScale ?? 1;
    const resetSeconds = Math.max(1, Math.ceil((this.windowStart + this.windowRealMs - nowMs) / scale / 1000));
    const enforce = this.options.enforce ?? true;
    if (enforce && this.used >= limit) {
      return { allowed: false, headers: { ...headersFor(limit, 0, resetSeconds, windowSeconds), 'retry-after': String(resetSeconds) } };
    }
    this.used += 1;
    return { allowed: true, headers: headersFor(limit, Math.max(0, limit - this.used), resetSeconds, windowSeconds) };
  }
}

function headersFor(limit: number, remaining: number, resetSeconds: number, windowSeconds: number): Record<string, string> {
  const headers: Record<string, string> = {
    'ratelimit-limit': String(limit),
    'ratelimit-remaining': String(remaining),
    'ratelimit-reset': String(resetSeconds),
    'ratelimit-policy': `${limit};w=${windowSeconds}`,
    'x-ratelimit-cost-stacks': '1',
  };
  const named = windowSeconds === 60 ? 'minute' : windowSeconds === 1 ? 'second' : null;
  if (named) {
    headers[`x-ratelimit-limit-stacks-${named}`] = String(limit);
    headers[`x-ratelimit-remaining-stacks-${named}`] = String(remaining);
  }
  return headers;
}
