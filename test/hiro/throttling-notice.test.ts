// Sustained 429s reach the operator from the client itself, once per client.
import { describe, expect, it } from 'vitest';
import type { OperatorNotice } from '../../lambda/core/ports';
import { BUDGET_STOPS_SPAN_MS, BUDGET_STOPS_TO_TELL, RateBudgetStops } from '../../lambda/hiro/throttling-notice';
import { coinbase } from '../support/fake-hiro';
import { rejectionOf, startHarness } from './harness';

function recordingOperator() {
  const notices: OperatorNotice[] = [];
  return { notices, notify: async (notice: OperatorNotice) => void notices.push(notice) };
}

describe('sustained 429s', () => {
  it('tell the operator once, on the fifth 429 in a row, however many follow', async () => {
    const h = await startHarness();
    h.fake.chain.mine([coinbase()]);
    const operator = recordingOperator();
    const client = h.client({ operator, maxRetries: 20, concurrency: 1 });
    h.fake.faults.times(4, { status: 429, headers: { 'retry-after': '1' } });

    await client.getTip();
    expect(operator.notices).toHaveLength(0);

    h.fake.faults.times(12, { status: 429, headers: { 'retry-after': '1' } });
    await client.getTip();

    expect(operator.notices).toHaveLength(1);
    const [notice] = operator.notices;
    expect(notice!.kind).toBe('rate-limited');
    expect(notice!.subject).toMatch(/^[\x20-\x7e]{1,99}$/);
    expect(notice!.message).toContain('5 requests in a row');
    expect(notice!.message).toContain('GET /extended');
    expect(notice!.message).toMatch(/API key/);
  });

  it('stay quiet while 429s come between answers that get through', async () => {
    const h = await startHarness();
    h.fake.chain.mine([coinbase()]);
    const operator = recordingOperator();
    const client = h.client({ operator, concurrency: 1 });

    for (let i = 0; i < 6; i += 1) {
      h.fake.faults.times(3, { status: 429, headers: { 'retry-after': '1' } });
      await client.getTip();
    }

    expect(h.events.filter((e) => e.status === 429)).toHaveLength(18);
    expect(operator.notices).toHaveLength(0);
  });

  it('tell the operator when a request gives up on them', async () => {
    const h = await startHarness();
    h.fake.chain.mine([coinbase()]);
    const operator = recordingOperator();
    const client = h.client({ operator, maxRetries: 2 });
    h.fake.faults.times(3, { status: 429, headers: { 'retry-after': '1' } });

    const error = await rejectionOf(client.getTip());

    expect(error.name).toBe('HiroRateLimitedError');
    expect(operator.notices.map((n) => n.message)).toEqual([expect.stringContaining('every one of 3 attempts of one request')]);
  });
});

describe('loop turns that keep ending on the rate limit', () => {
  const endOnBudget = async (h: Awaited<ReturnType<typeof startHarness>>, client: ReturnType<typeof h.client>) => {
    h.fake.faults.once({ status: 429, headers: { 'retry-after': '30' } });
    await rejectionOf(client.getTip());
  };

  it('tell the operator once, at the fifth turn within ten minutes, that the watch list reads more than the budget', async () => {
    const h = await startHarness();
    h.fake.chain.mine([coinbase()]);
    const operator = recordingOperator();
    const rateBudgetStops = new RateBudgetStops();
    const turn = () => h.client({ operator, rateBudgetStops, maxPauseMs: 2_000 });

    for (let i = 0; i < BUDGET_STOPS_TO_TELL - 1; i += 1) await endOnBudget(h, turn());
    expect(operator.notices).toHaveLength(0);
    await endOnBudget(h, turn());
    await endOnBudget(h, turn());

    expect(operator.notices).toHaveLength(1);
    expect(operator.notices[0]!.kind).toBe('rate-limited');
    expect(operator.notices[0]!.subject).toMatch(/^[\x20-\x7e]{1,99}$/);
    expect(operator.notices[0]!.message).toMatch(/API key.*schedule/s);
  });

  it('stay quiet when the turns that ended on it are spread wider than ten minutes', async () => {
    const h = await startHarness();
    h.fake.chain.mine([coinbase()]);
    const operator = recordingOperator();
    const rateBudgetStops = new RateBudgetStops();

    for (let i = 0; i < 2 * BUDGET_STOPS_TO_TELL; i += 1) {
      await endOnBudget(h, h.client({ operator, rateBudgetStops, maxPauseMs: 2_000 }));
      await h.clock.sleep(BUDGET_STOPS_SPAN_MS / (BUDGET_STOPS_TO_TELL - 1));
    }

    expect(operator.notices).toHaveLength(0);
  });
});
