// A warm container remembers the routes an older API lacks (404) or answers in a shape stacks-watch cannot read,
// and the mempool type filter it refuses (400): the handler builds a new Hiro client every invocation, and the
// container's memory keeps the later ones off the route until the hourly re-check, when one asks it again (an
// upgraded API answers it). The operator hears of a missing route once, not once an invocation.
import { PublishCommand, SNSClient, type PublishCommandInput } from '@aws-sdk/client-sns';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CycleSummary } from '../../lambda/core/cycle-types';
import { REPROBE_MS } from '../../lambda/core/follow/missing-routes';
import { coinbase, contractCall, createFakeHiro, fakeAddress, fakeContractId, ROUTES, transfer, type FakeHiro } from '../support/fake-hiro';
import { alertOf, lambdaOnDynalite } from '../support/handler-environment';
import { lambdaContext } from '../support/lambda-invocation';

const OPS_TOPIC_ARN = 'arn:aws:sns:us-east-1:123456789012:stacks-watch-ops';
const alice = fakeAddress('alice');
const bob = fakeAddress('bob');
const carol = fakeAddress('carol');
const vault = fakeContractId('vault');
const sns = mockClient(SNSClient);
const pendingConfig = {
  network: 'mainnet',
  calls: [{ contractId: vault, functions: ['set-owner'], name: 'Owner change', severity: 'critical', pending: true }],
  startHeight: 1,
};

/** A container on one UTC day: the clock starts early in it and moves only when a test says so. */
function warmContainer(fake: FakeHiro, tableName: string, watchConfig: unknown, extra: Record<string, string> = {}) {
  const lambda = lambdaOnDynalite<CycleSummary>({ fake, sns, tableName, watchConfig, extra: { OPS_TOPIC_ARN, ...extra }, keepPublished: true });
  if (fake.chain.tip === undefined) fake.chain.mine([coinbase()]);
  let now = Date.parse('2026-11-26T06:00:00Z');
  let runs = 0;
  const notices: PublishCommandInput[] = [];
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(now);
    sns.on(PublishCommand).callsFake((input: PublishCommandInput) => {
      notices.push(input);
      return { MessageId: `ops-${notices.length}` };
    });
  });
  afterEach(() => vi.useRealTimers());
  return {
    lambda,
    run: () => lambda.handler({}, lambdaContext(`${tableName}-${++runs}`)),
    later: (ms: number) => vi.setSystemTime((now += ms)),
    /** The ops topic's notices that the API lacks `route` (or answers it in a shape stacks-watch cannot read). */
    noticesOf: (route: string) => notices.filter((n) => n.Message!.startsWith(`The Hiro API answers ${route} in a shape`)),
  };
}

const setOwner = () => contractCall({ contractId: vault, functionName: 'set-owner', sender: alice });

describe('a warm container on an API without the v3 mempool list', () => {
  const fake = createFakeHiro();
  fake.faults.use((r) => (r.route === ROUTES.v3Mempool ? { status: 404 } : undefined));
  const container = warmContainer(fake, 'stacks-watch-missing-mempool-list', pendingConfig);

  it('asks the missing list in its first invocation only, the v1 list every run, and again after the hourly re-check', async () => {
    fake.chain.submit(setOwner());
    await container.run();
    expect([fake.count(ROUTES.v3Mempool), fake.count(ROUTES.v1Mempool)]).toEqual([1, 1]);

    fake.chain.submit(setOwner());
    await container.run();
    expect([fake.count(ROUTES.v3Mempool), fake.count(ROUTES.v1Mempool)]).toEqual([1, 2]);
    expect(container.lambda.published.map(alertOf).map((a) => a.type)).toEqual(['pending_call', 'pending_call']);

    container.later(REPROBE_MS);
    await container.run();
    expect([fake.count(ROUTES.v3Mempool), fake.count(ROUTES.v1Mempool)]).toEqual([2, 3]);
    expect(container.noticesOf(ROUTES.v3Mempool)).toHaveLength(1);
  });
});

describe("a warm container on an API that refuses the mempool list's type filter", () => {
  const fake = createFakeHiro();
  fake.faults.use((r) => (r.route === ROUTES.v3Mempool && r.query.has('type') ? { status: 400 } : undefined));
  const container = warmContainer(fake, 'stacks-watch-refused-type-filter', pendingConfig);
  const filtered = () => fake.requestsTo(ROUTES.v3Mempool).map((r) => r.query.has('type'));

  it('asks with the filter in its first invocation only, and again after the hourly re-check', async () => {
    fake.chain.submit(setOwner());
    await container.run();
    fake.chain.submit(setOwner());
    await container.run();
    expect(filtered()).toEqual([true, false, false]);
    expect(container.lambda.published.map(alertOf).map((a) => a.type)).toEqual(['pending_call', 'pending_call']);

    container.later(REPROBE_MS);
    await container.run();
    expect(filtered()).toEqual([true, false, false, true, false]);
  });
});

describe("a warm container on an API without a principal's mempool route", () => {
  const fake = createFakeHiro();
  fake.faults.use((r) => (r.route === ROUTES.principalMempool ? { status: 404 } : undefined));
  const container = warmContainer(fake, 'stacks-watch-missing-principal-mempool', pendingConfig);
  /** More waiting than a list page each run, so the plan finds the vault's own route cheaper than the list. */
  const busyMempool = () => {
    for (let i = 0; i < 55; i++) fake.chain.submit(transfer({ from: bob, to: carol, amount: i + 1 }));
  };
  const runBusy = async () => {
    busyMempool();
    return (await container.run()).mempoolRead?.reason;
  };

  it('asks the missing route once, reads the list in its later invocations, and asks it again after the hourly re-check', async () => {
    // The first runs measure what the list costs a run; the vault's own route then costs less.
    expect([await runBusy(), await runBusy()]).toEqual(['measuring what the list costs a run', 'measuring what the list costs a run']);
    expect(await runBusy()).toBe('the API has no principal mempool route');
    expect(fake.count(ROUTES.principalMempool)).toBe(1);
    expect(await runBusy()).toBe('the API has no principal mempool route');
    expect(fake.count(ROUTES.principalMempool)).toBe(1);

    container.later(REPROBE_MS);
    expect(await runBusy()).toBe('measuring what the list costs a run');
    expect(await runBusy()).toBe('the API has no principal mempool route');
    expect(fake.count(ROUTES.principalMempool)).toBe(2);
    expect(container.noticesOf(ROUTES.principalMempool)).toHaveLength(1);
  });
});

describe('a warm container on an API without the v3 block routes once the v2 block routes answer 410', () => {
  // API 9.0.x with its deprecated routes switched off: the v3 transaction list, no v3 block list.
  const fake = createFakeHiro({ v3BlockShape: 'absent' });
  for (let i = 0; i < 3; i++) fake.chain.mine([transfer({ to: alice, amount: 10 + i })]);
  fake.retire(ROUTES.blockTransactions, ROUTES.block, ROUTES.txMultiple, ROUTES.balances);
  const container = warmContainer(
    fake,
    'stacks-watch-missing-v3-blocks',
    { network: 'mainnet', addresses: [alice], startHeight: 1 },
    { FETCH_WAY: 'block-scan' },
  );
  const v3BlockRoutes = () => fake.count(ROUTES.v3Blocks) + fake.count(ROUTES.v3Block);

  it('asks the missing block routes in its first invocation only, and again after the hourly re-check', async () => {
    await container.run();
    const asked = v3BlockRoutes();
    expect(asked).toBeGreaterThan(0);

    for (const amount of [13, 14]) {
      fake.chain.mine([transfer({ to: alice, amount })]);
      await container.run();
    }
    expect(v3BlockRoutes()).toBe(asked);
    expect(container.lambda.published.map(alertOf).map((a) => a.amount)).toEqual(['10', '11', '12', '13', '14']);

    container.later(REPROBE_MS);
    fake.chain.mine([transfer({ to: alice, amount: 15 })]);
    await container.run();
    expect(v3BlockRoutes()).toBeGreaterThan(asked);
    expect(container.lambda.published.map(alertOf).map((a) => a.amount)).toEqual(['10', '11', '12', '13', '14', '15']);
    expect(container.noticesOf(ROUTES.v3Blocks)).toHaveLength(1);
  });
});
