// Every way a Hiro call can fail, as typed errors the watch cycle can tell apart. Each names the request it
// failed on (`endpoint`: method, path and query, never headers) and says what to do about it. None ever
// carries the API key: messages read from the server are scrubbed of it before they get here.
import { ApiBackoffError } from '../core/follow/api-backoff';
import { showControlCharacters } from '../core/render/untrusted-text';

const BREAKS: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\u2028': '\\u2028', '\u2029': '\\u2029' };

/**
 * Text from the API on one line: a line break in a server's message or in a value it sent (a cursor, an id)
 * would start a line of its own in a log and could pass for one the watcher wrote, so breaks are shown as their
 * escapes (`\n`), as every other control or format character is (showControlCharacters keeps breaks, for
 * multi-line text of our own).
 */
export function oneLine(text: string): string {
  return showControlCharacters(text.replace(/[\n\r\t\u2028\u2029]/g, (ch) => BREAKS[ch]!));
}

/** The answer's HTTP status, or null when no answer arrived (network error, timeout). */
export type HiroStatus = number | null;

export class HiroApiError extends Error {
  override name = 'HiroApiError';
  /** The HTTP status of the answer that failed, null when there was none. */
  readonly status: HiroStatus;
  /** The request: method, path and query (shortened when long). */
  readonly endpoint: string;
  /** The route template, e.g. `GET /extended/v2/blocks/{height_or_hash}` (stable across requests). */
  readonly route: string;
  /** Whether the same request may succeed later (the cycle retries it on its next run). */
  readonly retryable: boolean;

  constructor(message: string, details: { status: HiroStatus; endpoint: string; route: string; retryable: boolean }) {
    // Every message, whatever API text it quotes, is one line.
    super(oneLine(`${details.endpoint}: ${message}`));
    this.status = details.status;
    this.endpoint = details.endpoint;
    this.route = details.route;
    this.retryable = details.retryable;
  }
}

export interface RequestIdentity {
  endpoint: string;
  route: string;
}

/**
 * 400: the API refused the request; retrying the same request cannot help. `malformed` when its schema
 * validation refused the request's shape (a query parameter out of range): stacks-watch built it, so that is a
 * bug (or an API that changed what it accepts). Any other 400 is about a value the request carried (an id it
 * does not know, a transaction it calls not found): the message says what, on which route.
 */
export class HiroBadRequestError extends HiroApiError {
  override name = 'HiroBadRequestError';
  readonly malformed: boolean;
  constructor(id: RequestIdentity, serverMessage: string, malformed: boolean) {
    const message = malformed
      ? `the API refused the request to ${id.route} as malformed (400 Bad Request: ${serverMessage}). This is a bug in stacks-watch, or the API changed what it accepts; please report it with this message.`
      : `the API refused the request to ${id.route} (400 Bad Request: ${serverMessage}).`;
    super(message, { ...id, status: 400, retryable: false });
    this.malformed = malformed;
  }
}

/** 401: this route needs an API key and none was sent. */
export class HiroApiKeyMissingError extends HiroApiError {
  override name = 'HiroApiKeyMissingError';
  constructor(id: RequestIdentity, serverMessage: string) {
    super(`the API requires an API key (401 Unauthorized: ${serverMessage}). Set STACKS_API_KEY to a Hiro API key (https://platform.hiro.so).`, {
      ...id,
      status: 401,
      retryable: false,
    });
  }
}

/** 403: the API key sent was refused. */
export class HiroApiKeyInvalidError extends HiroApiError {
  override name = 'HiroApiKeyInvalidError';
  constructor(id: RequestIdentity, serverMessage: string) {
    super(`the API refused the API key (403 Forbidden: ${serverMessage}). Check STACKS_API_KEY: it must be a current, unrevoked Hiro API key.`, {
      ...id,
      status: 403,
      retryable: false,
    });
  }
}

/** 404 where the client expected the resource to exist. */
export class HiroNotFoundError extends HiroApiError {
  override name = 'HiroNotFoundError';
  constructor(id: RequestIdentity, serverMessage: string) {
    super(`not found (404: ${serverMessage}). Check that the base URL points at a Hiro Stacks API.`, {
      ...id,
      status: 404,
      retryable: false,
    });
  }
}

/** 410: the API retired the route. Nothing but a new version of the watcher fixes this. */
export class HiroGoneError extends HiroApiError {
  override name = 'HiroGoneError';
  constructor(id: RequestIdentity, serverMessage: string) {
    super(`the API has retired the route ${id.route} (410 Gone: ${serverMessage}). stacks-watch needs an update to a version that uses its replacement.`, {
      ...id,
      status: 410,
      retryable: false,
    });
  }
}

/** 429 that outlasted every retry. */
export class HiroRateLimitedError extends HiroApiError {
  override name = 'HiroRateLimitedError';
  /** What the server's retry-after asked for, in ms, when it said. */
  readonly retryAfterMs: number | null;
  constructor(id: RequestIdentity, retryAfterMs: number | null, attempts: number) {
    super(
      `the API is rate limiting this client (429 Too Many Requests) after ${attempts} attempt(s). Lower requestsPerMinute, run less often, or set STACKS_API_KEY for a higher limit.`,
      { ...id, status: 429, retryable: true },
    );
    this.retryAfterMs = retryAfterMs;
  }
}

/** 5xx that outlasted every retry. */
export class HiroServerError extends HiroApiError {
  override name = 'HiroServerError';
  constructor(id: RequestIdentity, status: number, serverMessage: string, attempts: number) {
    super(`the API failed (${status}: ${serverMessage}) after ${attempts} attempt(s). It is usually temporary; the next run retries.`, {
      ...id,
      status,
      retryable: true,
    });
  }
}

/** Any other 4xx (e.g. 431 for an over-long URL): not retried. */
export class HiroRequestRejectedError extends HiroApiError {
  override name = 'HiroRequestRejectedError';
  constructor(id: RequestIdentity, status: number, serverMessage: string) {
    super(`the API refused the request to ${id.route} (${status}: ${serverMessage}).`, { ...id, status, retryable: false });
  }
}

/** No answer: connection refused or reset, DNS failure. */
export class HiroNetworkError extends HiroApiError {
  override name = 'HiroNetworkError';
  constructor(id: RequestIdentity, reason: string, attempts: number) {
    super(`no answer from the API (${reason}) after ${attempts} attempt(s). Check the network and the base URL.`, {
      ...id,
      status: null,
      retryable: true,
    });
  }
}

/** No complete answer within the per-request timeout. */
export class HiroTimeoutError extends HiroNetworkError {
  override name = 'HiroTimeoutError';
  constructor(id: RequestIdentity, timeoutMs: number, attempts: number) {
    super(id, `timed out after ${timeoutMs} ms`, attempts);
  }
}

/**
 * No answer before the run's deadline: a request is never given longer than the run has left (however long its
 * own timeout), so a hanging API ends the run cleanly, as a wait past the deadline does, instead of holding it
 * past the deadline (or the Lambda's timeout, which kills the run mid-block).
 */
export class HiroDeadlineError extends ApiBackoffError {
  override name = 'HiroDeadlineError';
  readonly endpoint: string;
  constructor(id: RequestIdentity, waitedMs: number) {
    super(0, 0);
    this.endpoint = id.endpoint;
    this.message =
      `${id.endpoint}: no answer before the run deadline (${waitedMs > 0 ? `cut after ${Math.round(waitedMs)} ms` : 'not sent: no time left'}): ` +
      'the run ends here with its finished blocks saved, and the next run resumes';
  }
}

/** An answer that is not what the API documents: HTML instead of JSON, truncated JSON, drifted fields. */
export class HiroResponseError extends HiroApiError {
  override name = 'HiroResponseError';
  constructor(id: RequestIdentity, status: number, problem: string) {
    super(problem, { ...id, status, retryable: true });
  }
}

/**
 * Answers that are each well formed but disagree (a block's `total` changing between pages, a transaction
 * from another block). Usually the API indexing a block while we read it: retry the block later.
 */
export class HiroInconsistentDataError extends HiroApiError {
  override name = 'HiroInconsistentDataError';
  constructor(id: RequestIdentity, problem: string) {
    super(
      `${problem} The API described the block inconsistently (or changed it while it was read); the next run reads the block again, and a block that keeps failing stalls the watcher with this cause sent to the operator.`,
      {
        ...id,
        status: 200,
        retryable: true,
      },
    );
  }
}

/** A client option that cannot work; thrown at construction, before any request. */
export class HiroConfigError extends Error {
  override name = 'HiroConfigError';
}

/** Removes a secret from text that came from outside (a server may echo the key it refused). */
export function redact(text: string, secret: string | undefined): string {
  if (!secret) return text;
  return text.split(secret).join('[redacted]');
}
