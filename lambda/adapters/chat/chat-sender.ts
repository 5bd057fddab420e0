// Posting one chat request: retried with backoff on 429 (honouring Retry-After, up to a bound), 5xx, timeouts
// and network errors; any other answer is a refusal, reported with the service's own words. The URL is never
// logged or reported: webhook URLs and bot tokens are secrets.
import type { ChatRequest } from '../../channels/channel';
import { sanitizeUntrusted } from '../../core/render';
import { linkedSignal } from '../../core/shared-abort';
import { realSleep, type Sleep } from '../aws/retry';

export interface ChatSendOptions {
  fetch?: typeof fetch;
  sleep?: Sleep;
  /** Attempts, the first included. */
  maxAttempts?: number;
  timeoutMs?: number;
  /** The longest Retry-After honoured; a longer one gives the alert up for this channel. */
  maxRetryAfterMs?: number;
}

export type ChatSendResult = { ok: true; attempts: number } | { ok: false; attempts: number; reason: string };

const retryAfterMs = (header: string | null): number | null => {
  if (header === null) return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? null : Math.max(0, date - Date.now());
};

export async function sendChat(request: ChatRequest, options: ChatSendOptions = {}): Promise<ChatSendResult> {
  const doFetch = options.fetch ?? fetch;
  const sleep = options.sleep ?? realSleep;
  const maxAttempts = options.maxAttempts ?? 3;
  const maxRetryAfterMs = options.maxRetryAfterMs ?? 30_000;
  let reason = '';
  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    let waitMs = Math.min(8_000, 500 * 2 ** (attempt - 1));
    try {
      const response = await doFetch(request.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(request.body),
        redirect: 'error',
        signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
      });
      const text = sanitizeUntrusted(await response.text(), 300);
      if (response.ok) return { ok: true, attempts: attempt };
      reason = `HTTP ${response.status}${text ? `: ${text}` : ''}`;
      if (response.status !== 429 && response.status < 500) return { ok: false, attempts: attempt, reason };
      const asked = response.status === 429 ? retryAfterMs(response.headers.get('retry-after')) : null;
      if (asked !== null) {
        if (asked > maxRetryAfterMs) return { ok: false, attempts: attempt, reason: `${reason} (asked to wait ${Math.ceil(asked / 1000)} s)` };
        waitMs = asked;
      }
    } catch (error) {
      reason = (error as Error).name === 'TimeoutError' ? 'no answer in time' : `could not connect (${(error as Error).message})`;
    }
    if (attempt < maxAttempts) await sleep(waitMs);
  }
  return { ok: false, attempts: maxAttempts, reason };
}

/**
 * One post and what its answer means for posting again:
 * - `sent`; `refused`: the service said no (a 4xx other than 429), final;
 * - `not-taken`: surely not posted (a 429, a 502 or 503, a connection never made): safe to post again;
 * - `unanswered`: the request may have reached the service and been posted (no answer in time, a dropped
 *   connection, a 500 or 504): posting again could post twice, unless the service de-duplicates.
 */
export type ChatPostOutcome =
  | { kind: 'sent' }
  | { kind: 'refused'; reason: string }
  | { kind: 'not-taken'; reason: string; waitMs: number | null }
  | { kind: 'unanswered'; reason: string };

/** Network failures that show the request never left this machine. */
const NEVER_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

type PostOptions = { fetch?: typeof fetch; timeoutMs: number; stop?: AbortSignal };

export async function postChat(request: ChatRequest, options: PostOptions): Promise<ChatPostOutcome> {
  // Not AbortSignal.any: the queue's stop signal lives as long as the runner and would keep a link to every post.
  const cut = linkedSignal(AbortSignal.timeout(options.timeoutMs), options.stop);
  try {
    return await postOnce(request, options, cut.signal);
  } finally {
    cut.release();
  }
}

async function postOnce(request: ChatRequest, options: PostOptions, signal: AbortSignal): Promise<ChatPostOutcome> {
  let response: Response;
  try {
    response = await (options.fetch ?? fetch)(request.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(request.body),
      redirect: 'error',
      signal,
    });
  } catch (error) {
    const code = ((error as { cause?: { code?: unknown } }).cause?.code ?? '') as string;
    if (NEVER_SENT.has(code)) return { kind: 'not-taken', reason: `could not connect (${code})`, waitMs: null };
    if (options.stop?.aborted) return { kind: 'unanswered', reason: 'the runner stopped while it was being posted' };
    if ((error as Error).name === 'TimeoutError') return { kind: 'unanswered', reason: `no answer in ${options.timeoutMs / 1000} s` };
    return { kind: 'unanswered', reason: `the connection failed (${(error as Error).message})` };
  }
  let text = '';
  try {
    text = sanitizeUntrusted(await response.text(), 300);
  } catch {
    // The answer's status is what counts; a body cut short by the timeout adds nothing.
  }
  if (response.ok) return { kind: 'sent' };
  const reason = `HTTP ${response.status}${text ? `: ${text}` : ''}`;
  if (response.status === 429) return { kind: 'not-taken', reason, waitMs: retryAfterMs(response.headers.get('retry-after')) };
  if (response.status === 502 || response.status === 503) return { kind: 'not-taken', reason, waitMs: null };
  if (response.status >= 500) return { kind: 'unanswered', reason };
  return { kind: 'refused', reason };
}
