// The doorbell's gate: a ring is an HTTPS POST to the function URL that says only "look now". It carries a
// timestamp and an HMAC-SHA256 of that timestamp under a shared secret; the body is never read (nothing a
// ring says is trusted), only its size is bounded. A replayed ring is refused once its timestamp leaves the
// window, and within it a replay can do no more than the ring did: start the same cycle under the same lease.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** The largest ring body let in; a bigger one is refused with 413 before anything else is looked at. */
export const MAX_RING_BODY_BYTES = 64 * 1024;
/** A ring's timestamp may be this far from the function's clock, either side. */
export const REPLAY_WINDOW_SECONDS = 300;
export const TIMESTAMP_HEADER = 'x-doorbell-timestamp';
export const SIGNATURE_HEADER = 'x-doorbell-signature';

/** The parts of a function URL event the gate reads. */
export interface RingRequest {
  requestContext?: { http?: { method?: string } };
  headers?: Record<string, string | undefined>;
  body?: string;
  isBase64Encoded?: boolean;
}

export type RingJudgement = { ring: true } | { ring: false; statusCode: 401 | 405 | 413; message: string };

/** The signature a ringer sends: hex HMAC-SHA256 of the timestamp text under the secret. */
export function ringSignature(secret: string, timestamp: string): string {
  return createHmac('sha256', secret).update(timestamp).digest('hex');
}

function refuse(statusCode: 401 | 405 | 413, message: string): RingJudgement {
  return { ring: false, statusCode, message };
}

function bodyBytes(request: RingRequest): number {
  const body = request.body ?? '';
  return request.isBase64Encoded ? Buffer.byteLength(body, 'base64') : Buffer.byteLength(body, 'utf8');
}

/**
 * Compared as SHA-256 digests, so the two sides are always of equal length and timingSafeEqual neither throws
 * nor leaks the expected signature's length.
 */
function sameSignature(sent: string, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(sent.toLowerCase()), digest(expected));
}

/** Whether a request may ring: its size first (cheapest, and a flood of big bodies is not hashed), then the signature. */
export function judgeRing(request: RingRequest, secret: string, nowMs: number): RingJudgement {
  const method = request.requestContext?.http?.method ?? 'POST';
  if (method !== 'POST') return refuse(405, 'ring with POST');
  if (bodyBytes(request) > MAX_RING_BODY_BYTES) return refuse(413, `a ring's body may be at most ${MAX_RING_BODY_BYTES} bytes; the doorbell does not read it`);
  const headers = request.headers ?? {};
  const timestamp = headers[TIMESTAMP_HEADER] ?? '';
  const signature = headers[SIGNATURE_HEADER] ?? '';
  // Checked whole, then the window: a wrong signature and a stale one get the same status, and either way no cycle.
  if (!signature || !/^\d{1,12}$/.test(timestamp) || !sameSignature(signature, ringSignature(secret, timestamp))) {
    return refuse(401, `a ring needs ${TIMESTAMP_HEADER} (Unix seconds) and ${SIGNATURE_HEADER} (hex HMAC-SHA256 of the timestamp under the doorbell secret)`);
  }
  if (Math.abs(nowMs / 1000 - Number(timestamp)) > REPLAY_WINDOW_SECONDS) {
    return refuse(401, `the ring's timestamp is more than ${REPLAY_WINDOW_SECONDS} s from the function's clock`);
  }
  return { ring: true };
}

/** The event the doorbell hands the watcher's handler: a look now, which is no schedule tick (no stall judged). */
export const DOORBELL_EVENT = Object.freeze({ source: 'stacks-watch.doorbell' });

export function isDoorbellRing(event: unknown): boolean {
  return (event as { source?: unknown } | null)?.source === DOORBELL_EVENT.source;
}
