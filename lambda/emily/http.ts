// One Emily request to a checked answer: a timeout per attempt (never past the run's deadline), retries with
// capped full-jitter backoff for 429 / 5xx / no answer, the body read up to a bound, and a bound of its own on
// requests per run (Emily's rate limits are not documented; Hiro's budget is not spent on it). The body bound,
// JSON reading, drift messages and Retry-After parsing are the Hiro client's own.
import type * as z from '../zod-mini';
import { readBoundedBody } from '../hiro/bounded-body';
import type { HeaderReader } from '../hiro/http-get';
import { oneLine } from '../hiro/errors';
import { readRetryAfterMs } from '../hiro/rate-limit-headers';
import { describeRequest, requestUrl, type HiroRequest } from '../hiro/request';
import { checkBody, parseJson } from '../hiro/validate';
import { EmilyError } from './errors';
import type { ResolvedEmilyOptions } from './options';

export interface EmilyStats {
  /** HTTP attempts, retries included. */
  requests: number;
  /** Attempts that failed: 429, 5xx, no answer, unreadable. */
  errors: number;
  byRoute: Record<string, number>;
}

type Attempt =
  | { kind: 'answer'; status: number; headers: HeaderReader; text: string }
  | { kind: 'too-large'; status: number }
  | { kind: 'unreachable'; reason: string }
  | { kind: 'timeout' };

const BACKOFF_BASE_MS = 500;
const BACKOFF_CAP_MS = 10_000;

export class EmilyHttp {
  private readonly counters: EmilyStats = { requests: 0, errors: 0, byRoute: {} };

  constructor(private readonly options: ResolvedEmilyOptions) {}

  stats(): EmilyStats {
    return { ...this.counters, byRoute: { ...this.counters.byRoute } };
  }

  /** The checked 2xx body; `null` for a status in `request.expect` (404: no such record). */
  async get<T>(request: HiroRequest, schema: z.ZodMiniType<T>): Promise<T | null> {
    const endpoint = describeRequest(request);
    const url = requestUrl(this.options.baseUrl, request);
    for (let retry = 0; ; retry += 1) {
      const attempt = await this.attempt(url, request, endpoint);
      const failure = this.judge(attempt, request, endpoint, retry);
      if (failure === null) return null;
      if ('body' in failure) return this.read(endpoint, (attempt as { status: number }).status, failure.body, schema);
      if (retry >= this.options.maxRetries) throw failure.error;
      const waitMs = Math.min(failure.waitMs, this.options.maxWaitMs);
      if (waitMs > this.options.timeLeftMs())
        throw new EmilyError(
          'deadline',
          endpoint,
          `${failure.error.message.split(': ').slice(1).join(': ')}; the run ends before a retry could wait ${waitMs} ms`,
        );
      this.options.log('warn', 'Emily request failed; retrying', { request: endpoint, retry: retry + 1, waitMs: Math.round(waitMs) });
      await this.options.sleep(waitMs);
    }
  }

  /** The body to read, null for an expected status, or the error to throw or retry after `waitMs`. */
  private judge(attempt: Attempt, request: HiroRequest, endpoint: string, retry: number): { body: string } | { error: EmilyError; waitMs: number } | null {
    const attempts = `${retry + 1} attempt${retry === 0 ? '' : 's'}`;
    const backoff = this.options.random() * Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** retry);
    if (attempt.kind === 'timeout')
      return { error: new EmilyError('timeout', endpoint, `no answer within ${this.options.timeoutMs} ms (${attempts})`), waitMs: backoff };
    if (attempt.kind === 'unreachable')
      return { error: new EmilyError('unreachable', endpoint, `Emily could not be reached: ${attempt.reason} (${attempts})`), waitMs: backoff };
    if (attempt.kind === 'too-large') {
      throw new EmilyError(
        'too-large',
        endpoint,
        `the answer went past the ${this.options.maxBodyBytes}-byte bound on any answer; it was not read further`,
        attempt.status,
      );
    }
    const { status, headers, text } = attempt;
    if (request.expect?.includes(status)) return null;
    if (status >= 200 && status < 300) return { body: text };
    const said = serverMessage(text, status);
    if (status === 429) {
      const error = new EmilyError('rate-limited', endpoint, `Emily answered 429 Too Many Requests (${attempts})`, status);
      return { error, waitMs: readRetryAfterMs(headers, this.options.now()) ?? backoff };
    }
    if (status >= 500) return { error: new EmilyError('server', endpoint, `Emily answered ${status} (${said}) (${attempts})`, status), waitMs: backoff };
    throw new EmilyError('rejected', endpoint, `Emily refused the request with ${status} (${said})`, status);
  }

  private read<T>(endpoint: string, status: number, text: string, schema: z.ZodMiniType<T>): T {
    const json = parseJson(text);
    const checked = json.ok ? checkBody(schema, json.value) : json;
    if (checked.ok) return checked.value;
    this.counters.errors += 1;
    throw new EmilyError('malformed-answer', endpoint, `the answer is not what Emily's spec gives: ${checked.problem}`, status);
  }

  private async attempt(url: URL, request: HiroRequest, endpoint: string): Promise<Attempt> {
    if (this.counters.requests >= this.options.maxRequests) {
      throw new EmilyError('budget', endpoint, `this run has sent its ${this.options.maxRequests} requests to Emily; the rest waits for the next run`);
    }
    const timeLeftMs = this.options.timeLeftMs();
    if (timeLeftMs <= 0) throw new EmilyError('deadline', endpoint, 'the run has no time left for it');
    this.counters.requests += 1;
    this.counters.byRoute[request.route] = (this.counters.byRoute[request.route] ?? 0) + 1;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), Math.min(this.options.timeoutMs, timeLeftMs));
    let result: Attempt;
    try {
      // No redirect is followed (node:http follows none; a given fetch is asked not to).
      const response = await this.options.get(url, { headers: { accept: 'application/json' }, signal: controller.signal });
      const body = await readBoundedBody(response, this.options.maxBodyBytes);
      result = body.ok
        ? { kind: 'answer', status: response.status, headers: response.headers, text: body.text }
        : { kind: 'too-large', status: response.status };
    } catch (error) {
      result = controller.signal.aborted ? { kind: 'timeout' } : { kind: 'unreachable', reason: networkReason(error) };
    } finally {
      clearTimeout(timer);
    }
    if (result.kind !== 'answer' || result.status === 429 || result.status >= 500) this.counters.errors += 1;
    return result;
  }
}

/** Emily's own words: its `ErrorResponse.message`, an HTML page's title, or the status. */
function serverMessage(text: string, status: number): string {
  const json = parseJson(text);
  if (json.ok && json.value && typeof json.value === 'object') {
    const message = (json.value as { message?: unknown }).message;
    if (typeof message === 'string' && message.trim()) return oneLine(message.trim().slice(0, 300));
  }
  if (/^\s*</.test(text)) return 'an HTML page';
  return text.trim() ? oneLine(text.trim().slice(0, 300)) : `HTTP ${status}`;
}

/** node:http's error carries its code (ECONNREFUSED); fetch's wraps it as its cause. */
function networkReason(error: unknown): string {
  const code = (error as { code?: unknown } | undefined)?.code ?? (error instanceof Error ? (error.cause as { code?: unknown } | undefined)?.code : undefined);
  return oneLine(typeof code === 'string' ? code : error instanceof Error ? error.message : String(error));
}
