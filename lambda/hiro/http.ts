// One Hiro request from start to a typed answer: through the limiter, a GET (node-get.ts) with a timeout, retries with
// capped full-jitter backoff for 429 / 5xx / no answer, and every other failure mapped to a typed error.
import type * as z from '../zod-mini';
import {
  HiroApiKeyInvalidError,
  HiroApiKeyMissingError,
  HiroBadRequestError,
  HiroDeadlineError,
  HiroGoneError,
  HiroNetworkError,
  HiroNotFoundError,
  HiroRateLimitedError,
  HiroRequestRejectedError,
  HiroResponseError,
  HiroServerError,
  HiroTimeoutError,
  oneLine,
  redact,
  type RequestIdentity,
} from './errors';
import { linkedSignal, onAbort } from '../core/shared-abort';
import { readBoundedBody } from './bounded-body';
import type { HeaderReader } from './http-get';
import { RouteDeprecations } from './deprecations';
import { RequestLimiter } from './limiter';
import type { ResolvedHiroOptions } from './options';
import { readRetryAfterMs } from './rate-limit-headers';
import { describeRequest, requestUrl, type HiroRequest } from './request';
import { ThrottlingWatch } from './throttling-notice';
import { checkBody, isMalformedRequest, parseJson } from './validate';

export interface ApiStats {
  /** HTTP attempts, retries included. */
  requests: number;
  /** Attempts answered 429. */
  throttled: number;
  /** Attempts that failed otherwise: 5xx, network, timeout, unexpected status, unreadable body. */
  errors: number;
  /** Attempts per route template. */
  byEndpoint: Record<string, number>;
  resumeAtMs?: number; // when the rate limit allows requests again, if the run refused to wait for it (its pause budget)
}

export type HiroAnswer<T> = { ok: true; body: T; headers: HeaderReader } | { ok: false; status: number; headers: HeaderReader };

type Attempt =
  | { kind: 'answer'; status: number; headers: HeaderReader; text: string; throttledForMs?: number }
  | { kind: 'too-large'; status: number; bytes: number; declared: boolean }
  | { kind: 'network-error'; reason: string }
  | { kind: 'timeout' }
  /** Cut (or never sent) because the run's deadline came first. */
  | { kind: 'deadline'; waitedMs: number };

const BACKOFF_BASE_MS = 500;
const BACKOFF_CAP_MS = 20_000;

export class HiroHttp {
  private readonly limiter: RequestLimiter;
  private readonly counters: ApiStats = { requests: 0, throttled: 0, errors: 0, byEndpoint: {} };
  /** Deprecation warnings seen for as long as this client lives, and routes found retired in the process. */
  readonly deprecations: RouteDeprecations;
  private readonly throttling: ThrottlingWatch;

  constructor(private readonly options: ResolvedHiroOptions) {
    this.deprecations = new RouteDeprecations(options.retiredRoutes.of(options.baseUrl.href), options.retiredRoutes.servedOf(options.baseUrl.href));
    this.throttling = new ThrottlingWatch(options.operator, options.requestsPerMinute, options.rateBudgetStops);
    this.limiter = new RequestLimiter({
      requestsPerMinute: options.requestsPerMinute,
      burst: options.burst,
      concurrency: options.concurrency,
      maxWaitMs: options.maxWaitMs,
      maxPauseMs: options.maxPauseMs,
      now: options.now,
      sleep: options.sleep,
      onPause: (waitMs, reason) => options.log('info', 'Hiro requests paused', { waitMs: Math.round(waitMs), reason }),
    });
  }

  /**
   * This client with `signal` added to every request made through it: the reads of one caller that must all
   * give up together (the scan's reads ahead on Ctrl-C). Same limiter, counters and deprecations.
   */
  withSignal(signal: AbortSignal | undefined): HiroHttp {
    if (!signal) return this;
    const scoped: HiroHttp = Object.create(this);
    // Not AbortSignal.any: the scope's signal (a Ctrl-C's) would keep a link to every request made through it.
    scoped.get = (request, schema) => {
      const both = linkedSignal(request.signal, signal);
      return this.get({ ...request, signal: both.signal }, schema).finally(both.release);
    };
    return scoped;
  }

  stats(): ApiStats {
    return { ...this.counters, byEndpoint: { ...this.counters.byEndpoint }, ...this.limiter.refused() };
  }

  /** Requests the client sends at once: a read's parallel work needs no more in hand. */
  get concurrency(): number {
    return this.options.concurrency;
  }

  /** Sends `request` and returns its validated 2xx body; for requests that expect no other status. */
  async getBody<T>(request: HiroRequest, schema: z.ZodMiniType<T>): Promise<T> {
    const answer = await this.get({ ...request, expect: [] }, schema);
    if (!answer.ok) throw new Error(`${request.route} answered ${answer.status} although no status was expected`);
    return answer.body;
  }

  /** Sends `request` and validates a 2xx body with `schema`; statuses in `request.expect` come back as `ok: false`. */
  async get<T>(request: HiroRequest, schema: z.ZodMiniType<T>): Promise<HiroAnswer<T>> {
    const id: RequestIdentity = { endpoint: describeRequest(request), route: request.route };
    const url = requestUrl(this.options.baseUrl, request);
    for (let retry = 0; ; retry += 1) {
      const sent = this.limiter.run(() => this.attempt(url, request, retry), request.signal);
      const attempt = await sent.catch((error: unknown) => this.throttling.endedOnBudget(error, this.options.now()));
      if (attempt.kind === 'answer') await this.throttling.answered(attempt.status, id.endpoint);
      const verdict = this.judge(attempt, request, id, schema, retry);
      if ('answer' in verdict) return verdict.answer;
      if (retry >= Math.min(request.retries ?? Infinity, this.options.maxRetries)) {
        // A request that asked for fewer retries (read again next run) gave up by choice: no throttling notice.
        if (attempt.kind === 'answer' && attempt.status === 429 && retry >= this.options.maxRetries) await this.throttling.gaveUp(id.endpoint, retry + 1);
        throw verdict.giveUp();
      }
      this.options.log('warn', 'Hiro request failed; retrying', {
        endpoint: request.route,
        request: id.endpoint,
        status: attempt.kind === 'answer' ? attempt.status : attempt.kind,
        retry: retry + 1,
        waitMs: Math.round(verdict.waitMs),
      });
      await this.options.sleep(verdict.waitMs, request.signal);
    }
  }

  /** An answer to return, a failure worth retrying (after how long, and the error if it is the last), or a throw. */
  private judge<T>(
    attempt: Attempt,
    request: HiroRequest,
    id: RequestIdentity,
    schema: z.ZodMiniType<T>,
    retry: number,
  ): { answer: HiroAnswer<T> } | { waitMs: number; giveUp: () => Error } {
    const attempts = retry + 1;
    if (attempt.kind === 'deadline') throw new HiroDeadlineError(id, attempt.waitedMs);
    if (attempt.kind === 'timeout') {
      return { waitMs: this.backoffMs(retry), giveUp: () => new HiroTimeoutError(id, this.options.timeoutMs, attempts) };
    }
    if (attempt.kind === 'network-error') {
      return { waitMs: this.backoffMs(retry), giveUp: () => new HiroNetworkError(id, attempt.reason, attempts) };
    }
    if (attempt.kind === 'too-large') {
      // The same request would get the same answer: not retried here; a block it stops stalls with this cause.
      this.counters.errors += 1;
      const size = attempt.declared ? `declares ${attempt.bytes} bytes` : `went past ${this.options.maxBodyBytes} bytes (after decompression)`;
      throw new HiroResponseError(
        id,
        attempt.status,
        `the answer ${size}, over the ${this.options.maxBodyBytes}-byte bound on any answer; it was not read further.`,
      );
    }
    const { status, headers, text } = attempt;
    if (request.expect?.includes(status)) return { answer: { ok: false, status, headers } };
    if (status >= 200 && status < 300) return { answer: { ok: true, body: this.readBody(id, status, text, schema), headers } };
    if (status !== 429 && status < 500) throw this.clientError(id, status, text, headers);
    const retryAfterMs = readRetryAfterMs(headers, this.options.now());
    if (status === 429) {
      return { waitMs: attempt.throttledForMs!, giveUp: () => new HiroRateLimitedError(id, retryAfterMs, attempts) };
    }
    const waitMs = Math.min(retryAfterMs ?? this.backoffMs(retry), this.options.maxWaitMs);
    return { waitMs, giveUp: () => new HiroServerError(id, status, this.serverMessage(text, status), attempts) };
  }

  private async attempt(url: URL, request: HiroRequest, retry: number): Promise<Attempt> {
    const started = this.options.now();
    // Never longer than the run has left: a hanging API must not hold the run past its deadline.
    const timeLeftMs = this.options.timeLeftMs();
    if (timeLeftMs <= 0) return { kind: 'deadline', waitedMs: 0 };
    const cutByDeadline = timeLeftMs < this.options.timeoutMs;
    const headers: Record<string, string> = { accept: 'application/json', ...request.headers };
    if (this.options.apiKey) headers['x-api-key'] = this.options.apiKey;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), Math.min(this.options.timeoutMs, timeLeftMs));
    // The caller's signal aborts this attempt's controller, and lets go of it once the attempt is over.
    const stopFollowing = request.signal ? onAbort(request.signal, () => controller.abort(request.signal!.reason)) : () => {};
    let result: Attempt;
    try {
      // No redirects (node:http follows none; a given fetch is asked not to): one to another host would carry the X-API-Key.
      const response = await this.options.get(url, { headers, signal: controller.signal });
      const body = await readBoundedBody(response, this.options.maxBodyBytes);
      result = body.ok
        ? { kind: 'answer', status: response.status, headers: response.headers, text: body.text }
        : { kind: 'too-large', status: response.status, bytes: body.bytes, declared: body.declared };
    } catch (error) {
      // Given up by the caller: no answer to judge, nothing to retry.
      if (request.signal?.aborted) throw request.signal.reason;
      if (!controller.signal.aborted) result = { kind: 'network-error', reason: this.networkReason(error) };
      else result = cutByDeadline ? { kind: 'deadline', waitedMs: this.options.now() - started } : { kind: 'timeout' };
    } finally {
      clearTimeout(timer);
      stopFollowing();
    }
    const status = result.kind === 'answer' || result.kind === 'too-large' ? result.status : result.kind === 'deadline' ? 'timeout' : result.kind;
    this.count(request.route, status);
    this.options.onRequest({ endpoint: request.route, status, durationMs: this.options.now() - started, retry });
    if (result.kind === 'answer') {
      this.limiter.observe(result.headers);
      this.deprecations.observe(request.route, result.headers);
      if (result.status >= 200 && result.status < 300) this.deprecations.answered(request.route);
      if (result.status === 429) {
        // Every queued request holds off too, not just this one: paused here, before this request gives
        // its concurrency permit to the next, so none can start in between.
        const retryAfterMs = readRetryAfterMs(result.headers, this.options.now());
        result.throttledForMs = Math.min(retryAfterMs ?? this.backoffMs(retry), this.options.maxWaitMs);
        this.limiter.pauseUntil(this.options.now() + result.throttledForMs, '429 Too Many Requests', { refusable: true });
      }
    }
    return result;
  }

  private count(route: string, status: number | 'timeout' | 'network-error'): void {
    this.counters.requests += 1;
    this.counters.byEndpoint[route] = (this.counters.byEndpoint[route] ?? 0) + 1;
    if (status === 429) this.counters.throttled += 1;
    else if (typeof status !== 'number' || status >= 500) this.counters.errors += 1;
  }

  private readBody<T>(id: RequestIdentity, status: number, text: string, schema: z.ZodMiniType<T>): T {
    const json = parseJson(text);
    const checked = json.ok ? checkBody(schema, json.value) : json;
    if (checked.ok) return checked.value;
    this.counters.errors += 1;
    throw new HiroResponseError(id, status, oneLine(redact(checked.problem, this.options.apiKey)));
  }

  private clientError(id: RequestIdentity, status: number, text: string, headers: HeaderReader): Error {
    this.counters.errors += 1;
    const message = this.serverMessage(text, status);
    switch (status) {
      case 400:
        return new HiroBadRequestError(id, message, isMalformedRequest(text));
      case 401:
        return new HiroApiKeyMissingError(id, message);
      case 403:
        return new HiroApiKeyInvalidError(id, message);
      case 404:
        return new HiroNotFoundError(id, message);
      case 410:
        return new HiroGoneError(id, message);
      default: {
        const location = headers.get('location');
        const hint = status >= 300 && status < 400 && location ? `redirected to ${location}; set the base URL to it` : message;
        return new HiroRequestRejectedError(id, status, redact(hint, this.options.apiKey));
      }
    }
  }

  /** The server's own words: Fastify's `message ?? error`, an HTML page's title, or the status. */
  private serverMessage(text: string, status: number): string {
    let message: string | undefined;
    const json = parseJson(text);
    if (json.ok && json.value && typeof json.value === 'object') {
      const body = json.value as { message?: unknown; error?: unknown };
      const found = body.message ?? body.error;
      if (typeof found === 'string' && found.trim()) message = found.trim();
    } else if (/^\s*</.test(text)) {
      const title = /<title[^>]*>([^<]*)<\/title>/i.exec(text)?.[1]?.trim();
      message = title ? `HTML page "${title}"` : 'an HTML page';
    } else if (text.trim()) {
      message = text.trim();
    }
    // The server's words reach terminals, logs and ops notices: escape codes and line breaks in them are shown, not obeyed.
    return oneLine(redact((message ?? `HTTP ${status}`).slice(0, 300), this.options.apiKey));
  }

  /** node:http's error carries its code (ECONNREFUSED); fetch's wraps it as its cause. */
  private networkReason(error: unknown): string {
    const own = error as { code?: unknown } | undefined;
    const cause = error instanceof Error ? (error.cause as { code?: unknown; message?: unknown } | undefined) : undefined;
    const reason =
      typeof own?.code === 'string'
        ? own.code
        : typeof cause?.code === 'string'
          ? cause.code
          : typeof cause?.message === 'string'
            ? cause.message
            : error instanceof Error
              ? error.message
              : String(error);
    return oneLine(redact(reason, this.options.apiKey));
  }

  private backoffMs(retry: number): number {
    return this.options.random() * Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** retry);
  }
}
