import { describe, expect, it } from 'vitest';
import { coinbase, fakeAddress, ROUTES, transfer } from '../support/fake-hiro';
import { startHarness, type Harness } from './harness';

/** A fetch that records, on the virtual clock, when each request starts and how many are in flight. */
function recordingFetch(h: Harness) {
  const starts: { at: number; url: string }[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const fetchFn: typeof fetch = async (input, init) => {
    starts.push({ at: h.clock.now(), url: String(input) });
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    try {
      return await fetch(input, init);
    } finally {
      inFlight -= 1;
    }
  };
  return { fetch: fetchFn, starts, maxInFlight: () => maxInFlight };
}

function gaps(times: number[]): number[] {
  return times.slice(1).map((t, i) => t - times[i]!);
}

async function blockWith(h: Harness, txCount: number) {
  return h.fake.chain.mine(Array.from({ length: txCount }, () => transfer({ to: fakeAddress('a'), amount: 1 })));
}

describe('rate limiting', () => {
  it('with a burst of 1, spaces request starts evenly, 1.2 s apart without an API key (50 a minute), parallel pages included', async () => {
    const h = await startHarness();
    const block = await blockWith(h, 300);
    const recorder = recordingFetch(h);

    await h.client({ fetch: recorder.fetch, burst: 1 }).getBlock(block.height);

    const times = recorder.starts.map((s) => s.at);
    expect(times).toHaveLength(6);
    expect(gaps(times).every((gap) => gap === 1_200)).toBe(true);
  });

  it('with a burst of 1, spaces request starts 120 ms apart with an API key (500 a minute)', async () => {
    const h = await startHarness();
    const block = await blockWith(h, 200);
    const recorder = recordingFetch(h);

    await h.client({ fetch: recorder.fetch, apiKey: 'k', burst: 1 }).getBlock(block.height);

    expect(gaps(recorder.starts.map((s) => s.at))).toEqual([120, 120, 120]);
  });

  it("by default starts half the minute's budget at once (25 without a key), then one every 1.2 s", async () => {
    const h = await startHarness();
    const block = await blockWith(h, 1_500);
    const recorder = recordingFetch(h);

    await h.client({ fetch: recorder.fetch }).getBlock(block.height);

    const times = recorder.starts.map((s) => s.at - recorder.starts[0]!.at);
    expect(times).toHaveLength(30);
    expect(times.slice(0, 25).every((t) => t === 0)).toBe(true);
    expect(times.slice(25)).toEqual([1_200, 2_400, 3_600, 4_800, 6_000]);
  });

  it('starts no more than the per-minute limit in any 60 s, however large the burst', async () => {
    const h = await startHarness();
    const block = await blockWith(h, 1_000);
    const recorder = recordingFetch(h);

    await h.client({ fetch: recorder.fetch, requestsPerMinute: 10, burst: 10 }).getBlock(block.height);

    const times = recorder.starts.map((s) => s.at - recorder.starts[0]!.at);
    expect(times).toHaveLength(20);
    expect(times.slice(10, 11)).toEqual([60_000]);
    const worstWindow = Math.max(...times.map((t) => times.filter((u) => u >= t && u < t + 60_000).length));
    expect(worstWindow).toBe(10);
  });

  it('keeps at most `concurrency` requests in flight', async () => {
    const h = await startHarness();
    const block = await blockWith(h, 400);
    const recorder = recordingFetch(h);
    h.fake.faults.use(() => ({ delayMs: 20 }));

    await h.client({ fetch: recorder.fetch, requestsPerMinute: 60_000, concurrency: 2 }).getBlock(block.height);

    expect(recorder.starts).toHaveLength(8);
    expect(recorder.maxInFlight()).toBe(2);
  });

  it('pauses until the reset once the server says the budget is spent', async () => {
    const h = await startHarness();
    h.fake.chain.mine([coinbase()]);
    const recorder = recordingFetch(h);
    const client = h.client({ fetch: recorder.fetch, requestsPerMinute: 60_000 });
    h.fake.faults.once({
      headers: {
        'ratelimit-limit': '50',
        'ratelimit-remaining': '0',
        'ratelimit-reset': '7',
        'x-ratelimit-limit-stacks-minute': '50',
        'x-ratelimit-remaining-stacks-minute': '0',
      },
    });

    await client.getTip();
    await client.getTip();

    expect(gaps(recorder.starts.map((s) => s.at))).toEqual([7_000]);
  });

  it('spends the last of the budget before the reset rather than pausing early', async () => {
    const h = await startHarness();
    h.fake.chain.mine([coinbase()]);
    const recorder = recordingFetch(h);
    const client = h.client({ fetch: recorder.fetch, requestsPerMinute: 60_000, burst: 1 });
    h.fake.faults.once({
      headers: { 'x-ratelimit-limit-stacks-minute': '50', 'x-ratelimit-remaining-stacks-minute': '3', 'ratelimit-reset': '7' },
    });

    await client.getTip();
    await client.getTip();

    expect(gaps(recorder.starts.map((s) => s.at))).toEqual([1]);
  });

  it('counts the requests still in flight against what the server says is left', async () => {
    const h = await startHarness();
    h.fake.chain.mine([coinbase()]);
    const recorder = recordingFetch(h);
    const client = h.client({ fetch: recorder.fetch, requestsPerMinute: 60_000, concurrency: 2, burst: 2 });
    // The first answer says one request is left, while the second request is still on its way.
    h.fake.faults.once(
      {
        headers: {
          'ratelimit-limit': '50',
          'ratelimit-remaining': '1',
          'ratelimit-reset': '5',
          'x-ratelimit-limit-stacks-minute': '50',
          'x-ratelimit-remaining-stacks-minute': '1',
        },
      },
      (r) => r.seq === 1,
    );
    h.fake.faults.once({ delayMs: 50 }, (r) => r.seq === 2);

    await Promise.all([client.getBlockHeader(1), client.getBlockHeader(1)]);
    await client.getBlockHeader(1);

    const times = recorder.starts.map((s) => s.at);
    expect(times[2]! - times[0]!).toBe(5_000);
  });

  it('waits a second when the per-second budget is spent', async () => {
    const h = await startHarness();
    h.fake.chain.mine([coinbase()]);
    const recorder = recordingFetch(h);
    const client = h.client({ fetch: recorder.fetch, requestsPerMinute: 60_000 });
    h.fake.faults.once({ headers: { 'x-ratelimit-remaining-stacks-second': '0' } });

    await client.getTip();
    await client.getTip();

    expect(gaps(recorder.starts.map((s) => s.at))).toEqual([1_000]);
  });

  it('reads a reset above 1e9 as epoch seconds', async () => {
    const h = await startHarness();
    h.fake.chain.mine([coinbase()]);
    const recorder = recordingFetch(h);
    const client = h.client({ fetch: recorder.fetch, requestsPerMinute: 60_000 });
    const resetEpochSeconds = h.clock.now() / 1000 + 9;
    h.fake.faults.once({
      headers: {
        'ratelimit-limit': '50',
        'ratelimit-remaining': '0',
        'ratelimit-reset': String(resetEpochSeconds),
        // A gateway that sends only the generic family.
        'x-ratelimit-limit-stacks-minute': null,
        'x-ratelimit-remaining-stacks-minute': null,
      },
    });

    await client.getTip();
    await client.getTip();

    expect(gaps(recorder.starts.map((s) => s.at))).toEqual([9_000]);
  });

  it('does not slow down while the budget is comfortable', async () => {
    const h = await startHarness();
    h.fake.chain.mine([coinbase()]);
    const recorder = recordingFetch(h);
    const client = h.client({ fetch: recorder.fetch, requestsPerMinute: 60_000, burst: 1 });
    h.fake.faults.once({
      headers: { 'x-ratelimit-limit-stacks-minute': '50', 'x-ratelimit-remaining-stacks-minute': '30', 'ratelimit-reset': '50' },
    });

    await client.getTip();
    await client.getTip();

    expect(gaps(recorder.starts.map((s) => s.at))).toEqual([1]);
  });

  it('caps the pause asked for by a far reset at maxWaitMs', async () => {
    const h = await startHarness();
    h.fake.chain.mine([coinbase()]);
    const recorder = recordingFetch(h);
    const client = h.client({ fetch: recorder.fetch, requestsPerMinute: 60_000, maxWaitMs: 15_000 });
    h.fake.faults.once({
      headers: { 'x-ratelimit-limit-stacks-minute': '50', 'x-ratelimit-remaining-stacks-minute': '0', 'ratelimit-reset': '3600' },
    });

    await client.getTip();
    await client.getTip();

    expect(gaps(recorder.starts.map((s) => s.at))).toEqual([15_000]);
  });

  it('holds the other queued requests back after a 429, not just the one retried', async () => {
    const h = await startHarness();
    const block = await blockWith(h, 150);
    const recorder = recordingFetch(h);
    h.fake.faults.once({ status: 429, headers: { 'retry-after': '4' } }, (r) => r.route === ROUTES.blockTransactions && r.query.get('offset') === '50');

    await h.client({ fetch: recorder.fetch, requestsPerMinute: 60_000, concurrency: 1 }).getBlock(block.height);

    const throttledAt = recorder.starts.find((s) => s.url.includes('offset=50'))!.at;
    const others = recorder.starts.filter((s) => s.url.includes('offset=100') || s.at > throttledAt);
    expect(others.length).toBeGreaterThanOrEqual(2);
    expect(Math.min(...others.map((s) => s.at)) - throttledAt).toBeGreaterThanOrEqual(4_000);
  });

  it('retries the requests a 429 refused together one interval apart, not all at the same instant', async () => {
    const h = await startHarness();
    h.fake.chain.mine([coinbase()]);
    const recorder = recordingFetch(h);
    // The four refusals are answered without network I/O, so all four arrive before the virtual clock moves,
    // but a turn of the event loop after they were sent, so all four are on their way together.
    let refusals = 4;
    const refusingFetch: typeof fetch = async (input, init) => {
      if (refusals-- <= 0) return recorder.fetch(input, init);
      await new Promise((resolve) => setImmediate(resolve));
      return new Response('', { status: 429, headers: { 'retry-after': '2' } });
    };
    const client = h.client({ fetch: refusingFetch, requestsPerMinute: 600, concurrency: 4 });
    const refusedAt = h.clock.now();

    await Promise.all([1, 2, 3, 4].map(() => client.getBlockHeader(1)));

    expect(recorder.starts.map((s) => s.at - refusedAt)).toEqual([2_000, 2_100, 2_200, 2_300]);
  });

  it('never goes over the per-minute budget in any 60 s window', async () => {
    const h = await startHarness();
    const block = await blockWith(h, 1_200);
    const recorder = recordingFetch(h);

    await h.client({ fetch: recorder.fetch, requestsPerMinute: 10 }).getBlock(block.height);

    const times = recorder.starts.map((s) => s.at);
    expect(times).toHaveLength(24);
    const worstWindow = Math.max(...times.map((t) => times.filter((u) => u >= t && u < t + 60_000).length));
    expect(worstWindow).toBe(10);
  });
});
