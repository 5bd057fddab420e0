// The request limiter on its own, on a virtual clock: each rule of pacing, windows and pauses, with the
// headers an answer would carry handed to it directly.
import { getEventListeners } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { PauseRefusedError, RequestLimiter, type RequestLimiterOptions } from '../../lambda/hiro/limiter';
import { VirtualClock } from '../support/fake-hiro';

function limiterOn(clock: VirtualClock, options: Partial<RequestLimiterOptions> = {}) {
  const pauses: string[] = [];
  const limiter = new RequestLimiter({
    requestsPerMinute: 600,
    burst: 100,
    concurrency: 4,
    maxWaitMs: 60_000,
    now: clock.now,
    sleep: clock.sleep,
    onPause: (_waitMs, reason) => pauses.push(reason),
    ...options,
  });
  const starts: number[] = [];
  const t0 = clock.now();
  /** One request: starts, then answers with `headers` after `latencyMs` of virtual time. */
  const request = (headers: Record<string, string> = {}, latencyMs = 0) =>
    limiter.run(async () => {
      starts.push(clock.now() - t0);
      if (latencyMs > 0) await clock.sleep(latencyMs);
      limiter.observe(new Headers(headers));
    });
  return { limiter, starts, pauses, request };
}

/** Runs `count` requests at once, all answering `headers`. */
async function together(request: (h?: Record<string, string>, l?: number) => Promise<void>, count: number, headers = {}, latencyMs = 0) {
  await Promise.all(Array.from({ length: count }, () => request(headers, latencyMs)));
}

describe('request limiter', () => {
  it('runs requests in parallel up to the burst, then spaces them evenly', async () => {
    const clock = new VirtualClock();
    const { starts, request } = limiterOn(clock, { requestsPerMinute: 50, burst: 5 });

    await together(request, 8);

    expect(starts).toEqual([0, 0, 0, 0, 0, 1_200, 2_400, 3_600]);
  });

  it('pauses until the reset of a generic window of seconds once what is left is no more than what is in flight', async () => {
    const clock = new VirtualClock();
    const { starts, request } = limiterOn(clock, { concurrency: 1 });
    const spent = { 'ratelimit-limit': '20', 'ratelimit-remaining': '0', 'ratelimit-reset': '2' };

    await request(spent);
    await request();

    expect(starts).toEqual([0, 2_000]);
  });

  it('reads a generic reset above 1e9 as epoch seconds', async () => {
    const clock = new VirtualClock();
    const { starts, request } = limiterOn(clock);
    const resetAt = clock.now() / 1000 + 3;

    await request({ 'ratelimit-limit': '20', 'ratelimit-remaining': '0', 'ratelimit-reset': String(resetAt) });
    await request();

    expect(starts).toEqual([0, 3_000]);
  });

  it('starts no more than a window has left, counting the requests in flight, before its reset', async () => {
    const clock = new VirtualClock();
    const { starts, request } = limiterOn(clock, { concurrency: 8 });
    // The first answer says 3 are left; the second request is still on its way, so two more may start.
    const first = request({ 'ratelimit-limit': '20', 'ratelimit-remaining': '3', 'ratelimit-reset': '2' });
    const second = request({}, 500);
    await first;

    await Promise.all([second, together(request, 4)]);

    expect(starts).toEqual([0, 0, 0, 0, 2_000, 2_100]);
  });

  it('respects the per-second window of the stacks headers', async () => {
    const clock = new VirtualClock();
    const { starts, request } = limiterOn(clock);

    await request({ 'x-ratelimit-limit-stacks-second': '5', 'x-ratelimit-remaining-stacks-second': '0' });
    await request();

    expect(starts).toEqual([0, 1_000]);
  });

  it('respects the per-minute window of the stacks headers when the generic window is a different one', async () => {
    const clock = new VirtualClock();
    const { starts, pauses, request } = limiterOn(clock);

    await request({
      'ratelimit-limit': '10',
      'ratelimit-remaining': '9',
      'ratelimit-reset': '1',
      'x-ratelimit-limit-stacks-minute': '50',
      'x-ratelimit-remaining-stacks-minute': '0',
    });
    await request();

    // The minute pair has no reset of its own and the generic reset is another window's: a whole minute.
    expect(starts).toEqual([0, 60_000]);
    expect(pauses[0]).toMatch(/^minute rate-limit window spent/);
  });

  it('after a pause resumes at the even spacing, not with a burst of the credit saved up', async () => {
    const clock = new VirtualClock();
    const { limiter, starts, request } = limiterOn(clock, { requestsPerMinute: 50, burst: 10 });
    await request();
    limiter.pauseUntil(clock.now() + 5_000, '429 Too Many Requests');

    await together(request, 3);

    expect(starts).toEqual([0, 5_000, 6_200, 7_400]);
  });

  it('after a spent window resets, resumes at the even spacing', async () => {
    const clock = new VirtualClock();
    const { starts, request } = limiterOn(clock, { burst: 20 });

    await request({ 'ratelimit-limit': '20', 'ratelimit-remaining': '0', 'ratelimit-reset': '2' });
    await together(request, 3);

    expect(starts).toEqual([0, 2_000, 2_100, 2_200]);
  });

  it('forgets a window once it has reset', async () => {
    const clock = new VirtualClock();
    const { starts, request } = limiterOn(clock, { burst: 1, requestsPerMinute: 60_000 });

    await request({ 'ratelimit-limit': '20', 'ratelimit-remaining': '1', 'ratelimit-reset': '2' });
    clock.advance(2_000);
    await together(request, 3);

    // One was left before the reset; after it, nothing holds the requests back but the spacing.
    expect(starts).toEqual([0, 2_000, 2_001, 2_002]);
  });

  it('with a pause budget, refuses a start that must wait for a spent window to reset, without sleeping, and says when it resets', async () => {
    const clock = new VirtualClock();
    const { limiter, starts, request } = limiterOn(clock, { maxPauseMs: 2_000 });
    const t0 = clock.now();

    await request({ 'ratelimit-limit': '20', 'ratelimit-remaining': '0', 'ratelimit-reset': '15' });
    const refused = await request().catch((error: unknown) => error);

    expect(refused).toBeInstanceOf(PauseRefusedError);
    expect(starts).toEqual([0]);
    expect(clock.sleeps).toEqual([]);
    expect(limiter.refused()).toEqual({ resumeAtMs: t0 + 15_000 });
  });

  it('with a pause budget, still keeps the even spacing below it', async () => {
    const clock = new VirtualClock();
    const { limiter, starts, request } = limiterOn(clock, { requestsPerMinute: 50, burst: 2, maxPauseMs: 2_000 });

    await together(request, 4);

    expect(starts).toEqual([0, 0, 1_200, 2_400]);
    expect(limiter.refused()).toEqual({});
  });

  it('with a pause budget, refuses a retry-after longer than it, holding back the other requests too', async () => {
    const clock = new VirtualClock();
    const { limiter } = limiterOn(clock, { maxPauseMs: 2_000 });
    const t0 = clock.now();

    expect(() => limiter.pauseUntil(t0 + 30_000, '429 Too Many Requests', { refusable: true })).toThrow(PauseRefusedError);
    expect(limiter.refused()).toEqual({ resumeAtMs: t0 + 30_000 });
    expect(() => limiter.pauseUntil(t0 + 1_000, '429 Too Many Requests', { refusable: true })).toThrow(PauseRefusedError);
  });

  it('without a pause budget, waits for a spent window as long as maxWaitMs allows', async () => {
    const clock = new VirtualClock();
    const { limiter, starts, request } = limiterOn(clock);

    await request({ 'ratelimit-limit': '20', 'ratelimit-remaining': '0', 'ratelimit-reset': '15' });
    await request();

    expect(starts).toEqual([0, 15_000]);
    expect(limiter.refused()).toEqual({});
  });

  it('caps a pause at maxWaitMs however far the reset', async () => {
    const clock = new VirtualClock();
    const { starts, request } = limiterOn(clock, { maxWaitMs: 15_000 });

    await request({ 'ratelimit-limit': '20', 'ratelimit-remaining': '0', 'ratelimit-reset': '3600' });
    await request();

    expect(starts).toEqual([0, 15_000]);
  });

  it('never sends a request whose signal aborts while it waits for a permit, and the permit goes to the next', async () => {
    const clock = new VirtualClock();
    const { limiter } = limiterOn(clock, { concurrency: 1 });
    let finishFirst!: () => void;
    const ran: string[] = [];
    const first = limiter.run(() => new Promise<void>((resolve) => (finishFirst = resolve)));
    const stop = new AbortController();
    const queued = limiter.run(async () => void ran.push('aborted one'), stop.signal);
    const third = limiter.run(async () => void ran.push('third'));
    stop.abort(new Error('stop requested'));
    await expect(queued).rejects.toThrow('stop requested');
    finishFirst();
    await Promise.all([first, third]);
    expect(ran).toEqual(['third']);
  });

  it('holds one abort listener on a signal however many requests queue on it, and none once they have run', async () => {
    const clock = new VirtualClock();
    const { limiter } = limiterOn(clock, { concurrency: 1 });
    const stop = new AbortController();
    let finishFirst!: () => void;
    const first = limiter.run(() => new Promise<void>((resolve) => (finishFirst = resolve)), stop.signal);
    const queued = Array.from({ length: 50 }, () => limiter.run(async () => {}, stop.signal));
    expect(getEventListeners(stop.signal, 'abort')).toHaveLength(1);
    await vi.waitFor(() => expect(finishFirst).toBeTypeOf('function'));
    finishFirst();
    await Promise.all([first, ...queued]);
    expect(getEventListeners(stop.signal, 'abort')).toHaveLength(0);
  });

  it('gives up every request queued on a signal when it aborts, and leaves no listener on it', async () => {
    const clock = new VirtualClock();
    const { limiter } = limiterOn(clock, { concurrency: 1 });
    const stop = new AbortController();
    let finishFirst!: () => void;
    const ran: number[] = [];
    const first = limiter.run(() => new Promise<void>((resolve) => (finishFirst = resolve)));
    const queued = Array.from({ length: 20 }, (_, i) => limiter.run(async () => void ran.push(i), stop.signal));
    stop.abort(new Error('stop requested'));
    const settled = await Promise.allSettled(queued);
    expect(settled.map((s) => s.status)).toEqual(queued.map(() => 'rejected'));
    await vi.waitFor(() => expect(finishFirst).toBeTypeOf('function'));
    finishFirst();
    await first;
    expect(ran).toEqual([]);
    expect(getEventListeners(stop.signal, 'abort')).toHaveLength(0);
  });

  it('never sends a request whose signal aborts while it waits for its start slot', async () => {
    const clock = new VirtualClock();
    const { limiter } = limiterOn(clock, { requestsPerMinute: 60, burst: 1 });
    const ran: number[] = [];
    await limiter.run(async () => void ran.push(clock.now()));
    const stop = new AbortController();
    const spaced = limiter.run(async () => void ran.push(clock.now()), stop.signal);
    spaced.catch(() => {});
    stop.abort(new Error('stop requested'));
    clock.advance(1_000);
    await expect(spaced).rejects.toThrow('stop requested');
    expect(ran).toHaveLength(1);
  });
});
