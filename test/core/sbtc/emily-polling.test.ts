// When the sBTC stage asks Emily and what it makes of the answers: the plan by Bitcoin height, a failed list
// read that changes nothing (not even the deposits it seemed to drop), a followed deposit read alone only when
// it left the lists unminted, and a limits read that cannot say Emily recovered.
import { describe, expect, it } from 'vitest';
import { emilyPlanAt, pollEmilyAt, MAX_RECORD_READS } from '../../../lambda/core/sbtc/emily-polling';
import type { EmilyApi, EmilyRead, EmilyReadPlan } from '../../../lambda/core/sbtc/emily-port';
import type { SbtcDeposit } from '../../../lambda/core/sbtc/records';
import { createSbtcTracker } from '../../../lambda/core/sbtc/tracker';
import type { SbtcTrackerState } from '../../../lambda/core/sbtc/tracker-state';

const txid = (n: number) => n.toString(16).padStart(64, '0');
const deposit = (n: number, status: SbtcDeposit['status'] = 'pending'): SbtcDeposit => ({
  bitcoinTxid: txid(n),
  outputIndex: 0,
  recipient: 'SP3FBR2AGK5H9QBDH3EEN6DF8EK8JY7RX8QJ5SVTE',
  amountSats: 1_000n,
  status,
  statusMessage: null,
  lockTime: 950,
  maxFeeSats: null,
  signersKey: null,
  fulfillment: null,
  replacedByTx: null,
  lastUpdateHeight: 1,
});

/** A port answering each read from `answer`, recording the plans asked. */
function scripted(answer: (plan: EmilyReadPlan) => Partial<EmilyRead>): EmilyApi & { plans: EmilyReadPlan[] } {
  const plans: EmilyReadPlan[] = [];
  return {
    plans,
    async read(plan) {
      plans.push(plan);
      return { observations: [], malformed: [], error: null, requests: 1, ...answer(plan) };
    },
  };
}

/** A state following deposits 1..n, as of Bitcoin height 100. */
function following(n: number): SbtcTrackerState {
  const tracker = createSbtcTracker();
  const observations = Array.from({ length: n }, (_, i) => ({ source: 'emily' as const, deposit: deposit(i + 1) }));
  const { state } = tracker.apply(tracker.initial(), observations, 100);
  return { ...state, polled: { listsAt: 100, limitsAt: 100 } };
}

describe('when Emily is asked', () => {
  it('asks the lists (and the open withdrawals) the first time, the lists at each new Bitcoin height, the limits once after them', () => {
    expect(emilyPlanAt(undefined, 100)).toMatchObject({ openDeposits: true, openWithdrawals: true, limits: false });
    expect(emilyPlanAt({ listsAt: 100, limitsAt: -1 }, 100)).toMatchObject({ openDeposits: false, limits: true });
    expect(emilyPlanAt({ listsAt: 100, limitsAt: 100 }, 100)).toBeNull();
    expect(emilyPlanAt({ listsAt: 100, limitsAt: 100 }, 101)).toMatchObject({ openDeposits: true, openWithdrawals: false, limits: false });
  });
});

describe('what a poll makes of the answers', () => {
  it('uses nothing of a list read that failed part-way, reads no record alone, and asks again only at the next Bitcoin height', async () => {
    const api = scripted(() => ({ observations: [{ source: 'emily', deposit: deposit(1) }], error: { kind: 'server', message: 'Emily answered 500' } }));
    const turn = (await pollEmilyAt(api, following(2), 101, Number.POSITIVE_INFINITY))!;
    expect(turn.observations).toEqual([]);
    expect(api.plans).toHaveLength(1);
    expect(turn.polled).toEqual({ listsAt: 101, limitsAt: 100 });
    expect(turn.notice).toMatch(/failing: Emily answered 500/);
  });

  it('reads alone only the followed deposits the lists no longer hold and no print completed, at most a bounded number', async () => {
    const api = scripted((plan) => (plan.openDeposits ? { observations: [{ source: 'emily', deposit: deposit(1) }] } : {}));
    await pollEmilyAt(api, following(3), 101, Number.POSITIVE_INFINITY, new Set([`${txid(3)}:0`]));
    expect(api.plans.map((p) => p.deposits)).toEqual([[], [`${txid(2)}:0`]]);

    const many = scripted(() => ({}));
    await pollEmilyAt(many, following(MAX_RECORD_READS + 5), 101, Number.POSITIVE_INFINITY);
    expect(many.plans[1]!.deposits).toHaveLength(MAX_RECORD_READS);
  });

  it('does not read a record alone when every followed deposit is still listed: one read in the common case', async () => {
    const api = scripted(() => ({ observations: [1, 2].map((n) => ({ source: 'emily' as const, deposit: deposit(n) })) }));
    const turn = (await pollEmilyAt(api, following(2), 101, Number.POSITIVE_INFINITY))!;
    expect(api.plans).toHaveLength(1);
    expect(turn.requests).toBe(1);
  });

  it('does not say Emily answers again from a limits read while the deposit routes failed', async () => {
    const failing = { ...following(1), emilyProblem: 'failing:server' };
    const turn =
      (await pollEmilyAt(
        scripted(() => ({})),
        failing,
        100,
        Number.POSITIVE_INFINITY,
      )) ?? null;
    expect(turn).toBeNull();
    const limitsDue = { ...failing, polled: { listsAt: 100, limitsAt: 99 } };
    const limits = (await pollEmilyAt(
      scripted(() => ({})),
      limitsDue,
      100,
      Number.POSITIVE_INFINITY,
    ))!;
    expect(limits).toMatchObject({ problem: 'failing:server', notice: null });
    const lists = (await pollEmilyAt(
      scripted(() => ({})),
      limitsDue,
      101,
      Number.POSITIVE_INFINITY,
    ))!;
    expect(lists).toMatchObject({ problem: null, notice: expect.stringMatching(/answers again/) });
  });

  it('turns a port that throws into a failed read, never a failed block', async () => {
    const api: EmilyApi = { read: async () => Promise.reject(new Error('bug')) };
    const turn = (await pollEmilyAt(api, following(1), 101, Number.POSITIVE_INFINITY))!;
    expect(turn).toMatchObject({ observations: [], problem: 'failing:adapter' });
  });
});
