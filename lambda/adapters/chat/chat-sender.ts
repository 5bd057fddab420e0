// Posting one chat request: retried with backoff on 429 (honouring Retry-After, up to a bound), 5xx, timeouts
// and network errors; any other answer is a refusal, reported with the service's own words. The URL is never
// logged or reported: webhook URLs and bot tokens are secrets.
import type { ChatRequest } from '../../channels/channel';
import { sanitizeUntrusted } from '../../core/render';
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
