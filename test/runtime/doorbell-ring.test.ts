// The doorbell's gate: what a ring must carry to start a cycle, and the answer to every ring it refuses.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { judgeRing, MAX_RING_BODY_BYTES, REPLAY_WINDOW_SECONDS, ringSignature } from '../../lambda/runtime/doorbell-ring';

const SECRET = 'doorbell-secret-4c1f9a';
const NOW_MS = Date.UTC(2026, 10, 26, 17, 40, 0);
const nowSeconds = String(NOW_MS / 1000);

function ring(headers: Record<string, string>, body = '') {
  return { requestContext: { http: { method: 'POST' } }, headers, body, isBase64Encoded: false };
}
const signed = (timestamp = nowSeconds, secret = SECRET) => ({
  'x-doorbell-timestamp': timestamp,
  'x-doorbell-signature': createHmac('sha256', secret).update(timestamp).digest('hex'),
});

describe('the doorbell ring gate', () => {
  it('lets in a ring signed with the shared secret over a fresh timestamp', () => {
    expect(judgeRing(ring(signed()), SECRET, NOW_MS)).toEqual({ ring: true });
  });

  it('signs the way the documented openssl command does: HMAC-SHA256 of the timestamp, hex', () => {
    expect(ringSignature(SECRET, '1800000000')).toBe(createHmac('sha256', SECRET).update('1800000000').digest('hex'));
  });

  it('refuses a ring without a signature or timestamp with 401', () => {
    expect(judgeRing(ring({}), SECRET, NOW_MS)).toMatchObject({ ring: false, statusCode: 401 });
    expect(judgeRing(ring({ 'x-doorbell-signature': signed()['x-doorbell-signature'] }), SECRET, NOW_MS)).toMatchObject({ statusCode: 401 });
  });

  it('refuses a ring signed with another secret with 401', () => {
    expect(judgeRing(ring(signed(nowSeconds, 'not-the-secret')), SECRET, NOW_MS)).toMatchObject({ ring: false, statusCode: 401 });
  });

  it('refuses a signature of the wrong length or not hex with 401, without throwing', () => {
    const bad = { 'x-doorbell-timestamp': nowSeconds };
    expect(judgeRing(ring({ ...bad, 'x-doorbell-signature': 'abc' }), SECRET, NOW_MS)).toMatchObject({ statusCode: 401 });
    expect(judgeRing(ring({ ...bad, 'x-doorbell-signature': 'z'.repeat(64) }), SECRET, NOW_MS)).toMatchObject({ statusCode: 401 });
  });

  it('refuses a timestamp outside the replay window, either side, with 401 naming the window', () => {
    const stale = String(NOW_MS / 1000 - REPLAY_WINDOW_SECONDS - 1);
    const future = String(NOW_MS / 1000 + REPLAY_WINDOW_SECONDS + 1);
    const refused = judgeRing(ring(signed(stale)), SECRET, NOW_MS);
    expect(refused).toMatchObject({ ring: false, statusCode: 401 });
    expect(JSON.stringify(refused)).toContain(`${REPLAY_WINDOW_SECONDS} s`);
    expect(judgeRing(ring(signed(future)), SECRET, NOW_MS)).toMatchObject({ statusCode: 401 });
    expect(judgeRing(ring(signed(String(NOW_MS / 1000 - REPLAY_WINDOW_SECONDS))), SECRET, NOW_MS)).toEqual({ ring: true });
  });

  it('refuses a timestamp that is not whole seconds with 401', () => {
    expect(judgeRing(ring(signed('1.8e9')), SECRET, NOW_MS)).toMatchObject({ statusCode: 401 });
    expect(judgeRing(ring(signed('')), SECRET, NOW_MS)).toMatchObject({ statusCode: 401 });
  });

  it('refuses a body over the ceiling with 413 before looking at the signature', () => {
    const big = 'x'.repeat(MAX_RING_BODY_BYTES + 1);
    expect(judgeRing(ring(signed(), big), SECRET, NOW_MS)).toMatchObject({ ring: false, statusCode: 413 });
    expect(judgeRing(ring({}, big), SECRET, NOW_MS)).toMatchObject({ statusCode: 413 });
    expect(judgeRing(ring(signed(), 'x'.repeat(MAX_RING_BODY_BYTES)), SECRET, NOW_MS)).toEqual({ ring: true });
  });

  it('measures a base64 body by its decoded size', () => {
    const body = Buffer.alloc(MAX_RING_BODY_BYTES + 1).toString('base64');
    expect(judgeRing({ ...ring(signed(), body), isBase64Encoded: true }, SECRET, NOW_MS)).toMatchObject({ statusCode: 413 });
  });

  it('refuses any method but POST with 405', () => {
    const get = { ...ring(signed()), requestContext: { http: { method: 'GET' } } };
    expect(judgeRing(get, SECRET, NOW_MS)).toMatchObject({ ring: false, statusCode: 405 });
  });
});
