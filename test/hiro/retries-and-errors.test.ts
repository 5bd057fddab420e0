import { describe, expect, it } from 'vitest';
import {
  HiroBadRequestError,
  HiroGoneError,
  HiroNetworkError,
  HiroNotFoundError,
  HiroRateLimitedError,
  HiroServerError,
  HiroTimeoutError,
} from '../../lambda/hiro';
import { coinbase, fakeContractId, ROUTES } from '../support/fake-hiro';
import { rejectionOf, startHarness } from './harness';

// A budget so large that the limiter's own spacing (1 ms) never shows among the recorded sleeps.
const unthrottled = { requestsPerMinute: 60_000 };

async function harnessWithTip() {
  const h = await startHarness();
  h.fake.chain.mine([coinbase()]);
  return h;
}

describe('retries', () => {
  it('waits as long as a 429 retry-after in seconds says, then succeeds', async () => {
    const h = await harnessWithTip();
    h.fake.faults.once({ status: 429, headers: { 'retry-after': '3' } });

    const tip = await h.client(unthrottled).getTip();

    expect(tip).not.toBeNull();
    expect(h.fake.count(ROUTES.tip)).toBe(2);
    expect(h.clock.sleeps).toContain(3_000);
  });

  it('reads a 429 retry-after given as an HTTP date', async () => {
    const h = await harnessWithTip();
    h.fake.faults.once({ status: 429, headers: { 'retry-after': new Date(h.clock.now() + 5_000).toUTCString() } });

    await h.client(unthrottled).getTip();

    expect(h.clock.sleeps).toContain(5_000);
  });

  it('caps a retry-after far in the future at maxWaitMs', async () => {
    const h = await harnessWithTip();
    h.fake.faults.once({ status: 429, headers: { 'retry-after': '3600' } });

    await h.client({ ...unthrottled, maxWaitMs: 30_000 }).getTip();

    expect(Math.max(...h.clock.sleeps)).toBe(30_000);
  });

  it('retries a 503 with full-jitter exponential backoff, then succeeds', async () => {
    const h = await harnessWithTip();
    h.fake.faults.times(2, { status: 503 });

    const tip = await h.client(unthrottled).getTip();

    expect(tip).not.toBeNull();
    // random() is 0.5: half of 500 ms, then half of 1 000 ms.
    expect(h.clock.sleeps.filter((ms) => ms > 1)).toEqual([250, 500]);
  });

  it('caps the backoff at 20 s and gives up after maxRetries with a server error', async () => {
    const h = await harnessWithTip();
    h.fake.faults.use(() => ({ status: 502, body: '<html><head><title>502 Bad Gateway</title></head></html>' }));

    const error = await rejectionOf(h.client({ ...unthrottled, maxRetries: 7, random: () => 1 }).getTip());

    expect(h.clock.sleeps.filter((ms) => ms > 1)).toEqual([500, 1_000, 2_000, 4_000, 8_000, 16_000, 20_000]);
    expect(h.fake.count()).toBe(8);
    expect(error).toBeInstanceOf(HiroServerError);
    expect(error.message).toBe(
      'GET /extended: the API failed (502: HTML page "502 Bad Gateway") after 8 attempt(s). It is usually temporary; the next run retries.',
    );
  });

  it('gives up on a 429 storm with a rate-limited error after maxRetries', async () => {
    const h = await harnessWithTip();
    h.fake.faults.use(() => ({ status: 429, headers: { 'retry-after': '1' } }));
    const client = h.client({ ...unthrottled, maxRetries: 2 });

    const error = await rejectionOf(client.getTip());

    expect(error).toBeInstanceOf(HiroRateLimitedError);
    expect(error.message).toMatch(/set STACKS_API_KEY for a higher limit/);
    expect(client.stats()).toMatchObject({ requests: 3, throttled: 3 });
  });

  it('does not retry a 400 and reports the server message', async () => {
    const h = await startHarness();
    h.fake.faults.once({
      status: 400,
      body: { statusCode: 400, code: 'FST_ERR_VALIDATION', error: 'Bad Request', message: 'querystring/limit must be <= 50' },
    });

    const error = await rejectionOf(h.client().getContractStatuses([fakeContractId('a')]));

    expect(h.fake.count()).toBe(1);
    expect(error).toBeInstanceOf(HiroBadRequestError);
    expect(error.message).toContain('querystring/limit must be <= 50');
  });

  it('does not retry an unexpected 404', async () => {
    const h = await startHarness();
    h.fake.faults.once({ status: 404 });

    const error = await rejectionOf(h.client().getContractStatuses([fakeContractId('a')]));

    expect(h.fake.count()).toBe(1);
    expect(error).toBeInstanceOf(HiroNotFoundError);
  });

  it('times out a request that does not answer in time, and retries it', async () => {
    const h = await harnessWithTip();
    h.fake.faults.once({ delayMs: 1_000 });

    const tip = await h.client({ ...unthrottled, timeoutMs: 50 }).getTip();

    expect(tip).not.toBeNull();
    expect(h.events.map((e) => e.status)).toEqual(['timeout', 200]);
  });

  it('reports a timeout that outlasts every retry as HiroTimeoutError', async () => {
    const h = await harnessWithTip();
    h.fake.faults.use(() => ({ delayMs: 1_000 }));

    const error = await rejectionOf(h.client({ ...unthrottled, timeoutMs: 30, maxRetries: 1 }).getTip());

    expect(error).toBeInstanceOf(HiroTimeoutError);
    expect(error.message).toContain('timed out after 30 ms');
  });

  it('retries a dropped connection', async () => {
    const h = await harnessWithTip();
    h.fake.faults.once({ hangUp: true });

    const tip = await h.client(unthrottled).getTip();

    expect(tip).not.toBeNull();
    expect(h.events.map((e) => e.status)).toEqual(['network-error', 200]);
  });

  it('reports a refused connection as a network error', async () => {
    const h = await startHarness();
    const closedPort = 'http://127.0.0.1:9';

    const error = await rejectionOf(h.client({ ...unthrottled, baseUrl: closedPort, maxRetries: 0 }).getTip());

    expect(error).toBeInstanceOf(HiroNetworkError);
    expect((error as HiroNetworkError).status).toBeNull();
  });

  it('names a refused connection by its code', async () => {
    const h = await startHarness();

    const error = await rejectionOf(h.client({ ...unthrottled, baseUrl: 'http://127.0.0.1:9', maxRetries: 0 }).getTip());

    expect(error.message).toContain('no answer from the API (ECONNREFUSED) after 1 attempt(s)');
  });

  it('reports a 410 from a route with no replacement naming the route and the need for an update', async () => {
    const h = await startHarness();
    h.fake.chain.mine([coinbase()]);
    h.fake.faults.use((r) => (r.route === ROUTES.contractStatus ? { status: 410, body: { error: 'Gone' } } : undefined));

    const error = await rejectionOf(h.client().getContractStatuses(['SP000000000000000000002Q6VF78.pox-4']));

    expect(error).toBeInstanceOf(HiroGoneError);
    expect(error.message).toContain('retired the route GET /extended/v2/smart-contracts/status');
    expect(error.message).toContain('needs an update');
    expect(h.fake.count(ROUTES.contractStatus)).toBe(1);
  });

  it('reports every attempt to onRequest with its retry number', async () => {
    const h = await harnessWithTip();
    h.fake.faults.once({ status: 500 });

    await h.client(unthrottled).getTip();

    expect(h.events.map(({ endpoint, status, retry }) => ({ endpoint, status, retry }))).toEqual([
      { endpoint: ROUTES.tip, status: 500, retry: 0 },
      { endpoint: ROUTES.tip, status: 200, retry: 1 },
    ]);
  });
});
