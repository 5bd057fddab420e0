// No wait of the client outlives the run: a Retry-After (or a rate-limit reset, or a backoff) that would end
// past the caller's deadline fails the request at once with ApiBackoffError, which ends the run cleanly,
// instead of sleeping past the deadline or the Lambda's timeout.
import { describe, expect, it } from 'vitest';
import { ApiBackoffError } from '../../lambda/core/follow/api-backoff';
import { coinbase, ROUTES } from '../support/fake-hiro';
import { rejectionOf, startHarness } from './harness';

describe('a wait past the run deadline', () => {
  it('fails at once with how long the API asked and how long the run had, sleeping not at all', async () => {
    const h = await startHarness();
    h.fake.chain.mine([coinbase()]);
    h.fake.faults.once({ status: 429, headers: { 'retry-after': '120' } }, ROUTES.tip);
    const deadline = h.clock.now() + 30_000;

    const error = await rejectionOf(h.client({ deadline: () => deadline }).getTip());

    expect(error).toBeInstanceOf(ApiBackoffError);
    expect(error.message).toContain('the API asked to wait 60 s, more than the 30 s this run has left');
    expect(h.clock.now()).toBeLessThan(deadline);
    expect(h.clock.sleeps.every((ms) => ms <= 30_000)).toBe(true);
  });

  it('waits and retries as before when the wait fits in the run', async () => {
    const h = await startHarness();
    h.fake.chain.mine([coinbase()]);
    h.fake.faults.once({ status: 503, headers: { 'retry-after': '5' } }, ROUTES.tip);
    const deadline = h.clock.now() + 30_000;

    const tip = await h.client({ deadline: () => deadline }).getTip();

    expect(tip?.height).toBe(1);
    expect(h.clock.sleeps).toContain(5_000);
  });
});

describe('a request that hangs near the run deadline', () => {
  const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

  it('is cut at the deadline, not at its own longer timeout, and ends the run as an API backoff', async () => {
    const h = await startHarness();
    h.fake.chain.mine([coinbase()]);
    h.fake.faults.use((request) => (request.route === ROUTES.tip ? { delayMs: 4_000 } : undefined));
    const started = Date.now();
    const deadline = started + 300;

    const error = await rejectionOf(h.client({ now: Date.now, sleep: realSleep, timeoutMs: 3_000, deadline: () => deadline }).getTip());

    expect(error).toBeInstanceOf(ApiBackoffError);
    expect(error.message).toContain('no answer before the run deadline');
    expect(Date.now() - deadline).toBeLessThan(500);
    expect(h.fake.requestsTo(ROUTES.tip)).toHaveLength(1);
  });

  it('is not sent at all once the deadline has passed', async () => {
    const h = await startHarness();
    h.fake.chain.mine([coinbase()]);
    const deadline = Date.now() - 1;

    const error = await rejectionOf(h.client({ now: Date.now, sleep: realSleep, deadline: () => deadline }).getTip());

    expect(error).toBeInstanceOf(ApiBackoffError);
    expect(h.fake.requestsTo(ROUTES.tip)).toHaveLength(0);
  });
});

describe("a run's pause budget on the rate limit (a loop turn's)", () => {
  it('ends the run at a 429 whose retry-after is longer, sleeping not at all, and its stats say when to come back', async () => {
    const h = await startHarness();
    h.fake.chain.mine([coinbase()]);
    h.fake.faults.once({ status: 429, headers: { 'retry-after': '20' } }, ROUTES.tip);
    const t0 = h.clock.now();
    const client = h.client({ maxPauseMs: 2_000, deadline: () => t0 + 30_000 });

    const error = await rejectionOf(client.getTip());

    expect(error).toBeInstanceOf(ApiBackoffError);
    expect(error.message).toContain('rate limit asks to wait 20 s, more than the 2 s this run waits');
    expect(h.clock.sleeps).toEqual([]);
    expect(client.stats()).toMatchObject({ throttled: 1, resumeAtMs: t0 + 20_000 });
  });

  it('without one, waits for the same retry-after and reads the tip', async () => {
    const h = await startHarness();
    h.fake.chain.mine([coinbase()]);
    h.fake.faults.once({ status: 429, headers: { 'retry-after': '20' } }, ROUTES.tip);
    const t0 = h.clock.now();
    const client = h.client({ deadline: () => t0 + 30_000 });

    expect((await client.getTip())?.height).toBe(1);
    expect(h.clock.sleeps).toContain(20_000);
    expect(client.stats().resumeAtMs).toBeUndefined();
  });
});
