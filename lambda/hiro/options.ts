// The client's options, their defaults, and the checks that turn a bad option into a message at start-up
// rather than a confusing failure on the first request.
import type { OperatorChannel } from '../core/ports';
import { ApiBackoffError } from '../core/follow/api-backoff';
import { MissingRoutes } from '../core/follow/missing-routes';
import { sleepUnlessAborted } from '../core/shared-abort';
import { MAX_BODY_BYTES } from './bounded-body';
import { fetchAsGet, type HttpGet } from './http-get';
import { nodeGet } from './node-get';
import { RetiredRoutes } from './deprecations';
import { RateBudgetStops } from './throttling-notice';
import { HiroConfigError } from './errors';

export type HiroLogLevel = 'debug' | 'info' | 'warn' | 'error';

/** One HTTP attempt, reported as it ends (per-request tracing; the totals are in the client's stats()). */
export interface HiroRequestEvent {
  /** The route template, e.g. `GET /extended/v2/blocks/{height_or_hash}/transactions`. */
  endpoint: string;
  status: number | 'network-error' | 'timeout';
  durationMs: number;
  /** 0 for the first attempt, 1 for the first retry, ... */
  retry: number;
}

export interface HiroClientOptions {
  /** Default https://api.hiro.so. http:// is accepted only for loopback hosts (a local fake or proxy). */
  baseUrl?: string;
  /** Sent as X-API-Key. Never logged, never part of an error. */
  apiKey?: string;
  /** Default 50 without a key, 500 with one (Hiro's per-minute limits). */
  requestsPerMinute?: number;
  /**
   * Requests that may start at once before starts are spaced 60 000 / rpm ms apart; never more than
   * requestsPerMinute start in any 60 s, and none while a window the gateway reports is spent. Default: half
   * the minute's budget (25 without a key, 250 with one), so a scheduled run's requests go out in parallel;
   * 1 spaces every start evenly.
   */
  burst?: number;
  /** Requests in flight at once, within the per-minute budget. Default 4. */
  concurrency?: number;
  /** Per request, including reading the body, and never past `deadline`. Default 10 000. */
  timeoutMs?: number;
  /** Retries after the first attempt, for 429, 5xx, network errors and timeouts. Default 4. */
  maxRetries?: number;
  /** Longest wait honoured from retry-after or a rate-limit reset. Default 60 000. */
  maxWaitMs?: number;
  /**
   * Longest wait on the rate limit (a spent window, a retry-after, the even spacing) this run takes: a longer one
   * ends the run with an ApiBackoffError, and stats().resumeAtMs says when the budget allows requests again.
   * Default: none (waits up to maxWaitMs, within `deadline`).
   */
  maxPauseMs?: number;
  /** Largest answer body read, counted after decompression; past it the request fails naming the route. Default 16 MiB. */
  maxBodyBytes?: number;
  /** Sends the requests instead of node:http (node-get.ts), e.g. a test's stub; its redirects are not followed. */
  fetch?: typeof fetch;
  /** Sends the requests as given (the bench's node:http with a round trip's latency); before `fetch`. */
  get?: HttpGet;
  /**
   * When the caller's run must end (ms since the epoch, read at each wait). A wait that would end past it,
   * a Retry-After, a rate-limit reset or a backoff, throws ApiBackoffError at once instead of sleeping; a request
   * gets at most the time left before it (HiroDeadlineError, an ApiBackoffError, when it is cut or never sent).
   */
  deadline?: () => number;
  /** Injectable for tests; the default waits on a real timer, which a request's abort signal ends. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Injectable for tests; the default is Date.now. */
  now?: () => number;
  /** Injectable for tests; the default is Math.random (backoff jitter). */
  random?: () => number;
  onRequest?: (event: HiroRequestEvent) => void;
  log?: (level: HiroLogLevel, message: string, attributes?: Record<string, unknown>) => void;
  /** Told once per client when 429s are sustained (5 in a row, or a request that gave up on them). */
  operator?: OperatorChannel;
  /**
   * The routes the process found retired (410), kept by its runner across the clients it builds: a client given
   * them goes straight to their replacements. Default: this client's own, found anew.
   */
  retiredRoutes?: RetiredRoutes;
  /**
   * The routes the process found missing on an older API (404) or unusable (the v3 block routes in a shape this
   * client cannot read, the mempool list's type filter refused), kept by its runner across the clients it builds:
   * a client given them does not ask them again before the hourly re-check. Default: this client's own.
   */
  missingRoutes?: MissingRoutes;
  /** The runs ended on the rate limit, kept by the runner across its clients: the operator hears when they keep coming. */
  rateBudgetStops?: RateBudgetStops;
}

/** What a runner keeps of the API across the clients it builds (one a Lambda invocation): given to each. */
export type RouteMemory = Required<Pick<HiroClientOptions, 'retiredRoutes' | 'missingRoutes' | 'rateBudgetStops'>>;

export function routeMemory(): RouteMemory {
  return { retiredRoutes: new RetiredRoutes(), missingRoutes: new MissingRoutes(), rateBudgetStops: new RateBudgetStops() };
}

export interface ResolvedHiroOptions {
  baseUrl: URL;
  apiKey: string | undefined;
  requestsPerMinute: number;
  burst: number;
  concurrency: number;
  timeoutMs: number;
  /** Time left before the caller's deadline, in ms (Infinity without one): no request is given longer. */
  timeLeftMs: () => number;
  maxRetries: number;
  maxWaitMs: number;
  maxPauseMs: number | undefined;
  /** Largest answer body read, counted after decompression. */
  maxBodyBytes: number;
  /** node:http unless a fetch was given. */
  get: HttpGet;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  now: () => number;
  random: () => number;
  onRequest: (event: HiroRequestEvent) => void;
  log: (level: HiroLogLevel, message: string, attributes?: Record<string, unknown>) => void;
  operator: OperatorChannel | undefined;
  retiredRoutes: RetiredRoutes;
  missingRoutes: MissingRoutes;
  rateBudgetStops: RateBudgetStops | undefined;
}

export const DEFAULT_BASE_URL = 'https://api.hiro.so';

/** Hiro's public API for each network: a testnet watch read from mainnet would scan the wrong chain. */
export const DEFAULT_BASE_URLS = { mainnet: DEFAULT_BASE_URL, testnet: 'https://api.testnet.hiro.so' } as const;

/** Requests per minute Hiro allows without a key and with one. */
export const RATE_LIMIT_WITHOUT_KEY = 50;
export const RATE_LIMIT_WITH_KEY = 500;

/** Every wait of the client (limiter spacing, 429 pauses, retry backoff) goes through here: none outlives the run. */
function withinDeadline(sleep: (ms: number, signal?: AbortSignal) => Promise<void>, now: () => number, deadline: (() => number) | undefined) {
  if (!deadline) return sleep;
  return async (ms: number, signal?: AbortSignal): Promise<void> => {
    const timeLeftMs = deadline() - now();
    if (ms > timeLeftMs) throw new ApiBackoffError(ms, timeLeftMs);
    await sleep(ms, signal);
  };
}

function timeLeft(now: () => number, deadline: (() => number) | undefined): () => number {
  return deadline ? () => deadline() - now() : () => Number.POSITIVE_INFINITY;
}

export function resolveHiroOptions(options: HiroClientOptions): ResolvedHiroOptions {
  const apiKey = options.apiKey?.trim() || undefined;
  const requestsPerMinute = positive('requestsPerMinute', options.requestsPerMinute ?? (apiKey ? RATE_LIMIT_WITH_KEY : RATE_LIMIT_WITHOUT_KEY));
  return {
    baseUrl: parseBaseUrl(options.baseUrl ?? DEFAULT_BASE_URL),
    apiKey,
    requestsPerMinute,
    burst: positiveInteger('burst', options.burst ?? Math.max(1, Math.floor(requestsPerMinute / 2))),
    concurrency: positiveInteger('concurrency', options.concurrency ?? 4),
    timeoutMs: positive('timeoutMs', options.timeoutMs ?? 10_000),
    maxRetries: nonNegativeInteger('maxRetries', options.maxRetries ?? 4),
    maxWaitMs: positive('maxWaitMs', options.maxWaitMs ?? 60_000),
    maxPauseMs: options.maxPauseMs === undefined ? undefined : positive('maxPauseMs', options.maxPauseMs),
    maxBodyBytes: positiveInteger('maxBodyBytes', options.maxBodyBytes ?? MAX_BODY_BYTES),
    get: options.get ?? (options.fetch ? fetchAsGet(options.fetch) : nodeGet),
    sleep: withinDeadline(options.sleep ?? sleepUnlessAborted, options.now ?? Date.now, options.deadline),
    timeLeftMs: timeLeft(options.now ?? Date.now, options.deadline),
    now: options.now ?? Date.now,
    random: options.random ?? Math.random,
    onRequest: options.onRequest ?? (() => {}),
    log: options.log ?? (() => {}),
    operator: options.operator,
    retiredRoutes: options.retiredRoutes ?? new RetiredRoutes(),
    missingRoutes: options.missingRoutes ?? new MissingRoutes(),
    rateBudgetStops: options.rateBudgetStops,
  };
}

/**
 * The URL as it may be shown: whatever sits between `//` and the last `@` (a user and a password) replaced,
 * even when the rest does not parse, so that no message or log line echoes a secret. A password written
 * unencoded may hold `/`, `?`, `#` or `@`: the last `@` anywhere is taken, hiding too much rather than too little.
 */
export function withoutCredentials(raw: string): string {
  return raw.replace(/^([a-z][a-z0-9+.-]*:\/\/)?.*@/is, (_, scheme: string | undefined) => `${scheme ?? ''}***@`);
}

function parseBaseUrl(given: string): URL {
  const raw = withoutCredentials(given);
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    throw new HiroConfigError(`Hiro baseUrl "${raw}" is not a URL; use e.g. https://api.hiro.so or https://api.testnet.hiro.so.`);
  }
  if (url.username || url.password) {
    throw new HiroConfigError('Hiro baseUrl must not carry credentials; pass the key as apiKey (STACKS_API_KEY).');
  }
  if (url.search || url.hash) {
    throw new HiroConfigError(`Hiro baseUrl "${url.origin}${url.pathname}" must not have a query or fragment.`);
  }
  if (url.protocol === 'http:' && !isLoopback(url.hostname)) {
    throw new HiroConfigError(
      `Hiro baseUrl "${raw}" uses http://, which would send the API key in clear; use https:// (http:// is accepted only for localhost, 127.x.x.x and ::1).`,
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new HiroConfigError(`Hiro baseUrl "${raw}" must be an https:// URL.`);
  }
  // Paths are appended to the base, so a base with a path prefix (a proxy) keeps it.
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return url;
}

function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

function positive(name: string, value: number): number {
  if (!Number.isFinite(value) || value <= 0) {
    throw new HiroConfigError(`Hiro client option ${name} must be a positive number, got ${value}.`);
  }
  return value;
}

function positiveInteger(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) {
    throw new HiroConfigError(`Hiro client option ${name} must be a whole number of at least 1, got ${value}.`);
  }
  return value;
}

function nonNegativeInteger(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 0) {
    throw new HiroConfigError(`Hiro client option ${name} must be a whole number of at least 0, got ${value}.`);
  }
  return value;
}
