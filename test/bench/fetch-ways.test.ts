// The benchmark tables that describe the watcher as a user runs it must measure the way it reads the chain when
// told nothing (FETCH_WAY / deploy.json's `fetchWay` unset), not the block scan the core keeps when a caller names
// no way; the tables that compare ways name each. Each table's rows say which way their runs took. Every
// measurement here runs the real benchmark code on a short chain, so a table that goes back to the block scan
// without saying so fails here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFetchWay } from '../../lambda/runtime/api-env';
import { measureAlertLatency } from '../../bench/alert-latency';
import { measureRetiredBalanceRequests } from '../../bench/balance-requests';
import { measureCatchUp } from '../../bench/catch-up';
import { DEFAULT_CYCLE_OPTIONS, measureCycleCosts } from '../../bench/cycle-cost';
import { countWay, waysAsked, waysCell, type WaysTaken } from '../../bench/fetch-ways';
import { measureFollowingTip } from '../../bench/following-tip';
import { mainnetWorkload, type Workload } from '../../bench/mainnet-workload';
import { requestsSection } from '../../bench/report';
import { measureRequestsPerBlock } from '../../bench/requests-per-block';
import { measureRetiredRoutes, retiredRoutesSection, type RetiredRoutesRow } from '../../bench/retired-routes';
import { measureSubjectRoutes } from '../../bench/subject-routes';
import { measureScenario as measureSbtcScenario } from '../../bench/sbtc-emily';
import { cycleDeps, runOneCycle, startFakeApi, type FakeApi } from '../../bench/watcher-harness';
import { FakeChain, fakeAddress, transfer } from '../support/fake-hiro';
import { emptyWatchConfig } from '../../lambda/config/watch-config';

/** What the Lambda and the local runner read FETCH_WAY as when it is unset. */
const RUNNERS_DEFAULT = readFetchWay({});
const workload: Workload = mainnetWorkload({ seed: 20261122, blocks: 60 });
const prefix = (blocks: number): Workload => ({ ...workload, blocks: workload.blocks.slice(0, blocks) });

/** The runs were asked for the runners' default and read at least one block. */
function expectDefault(read: WaysTaken): void {
  expect(read.asked).toBe(RUNNERS_DEFAULT);
  expect(read.perSubject + read.blockScan).toBeGreaterThan(0);
}

describe('a benchmark run of the cycle', () => {
  let api: FakeApi;
  const watched = fakeAddress('fetch-ways-watched');
  const config = { ...emptyWatchConfig('mainnet'), addresses: [watched], startHeight: 1, confirmations: 0 };

  beforeAll(async () => {
    const chain = new FakeChain({ seed: 'fetch-ways' });
    for (let i = 0; i < 3; i += 1) chain.mine([transfer({ to: watched, amount: 1_000_000 })]);
    api = await startFakeApi(chain);
  });
  afterAll(() => api.server.close());

  it('asked no way reads as the runners do when FETCH_WAY is unset, and its summary says what it chose', async () => {
    const summary = await runOneCycle(cycleDeps(api.client(), { now: Date.now }), config);
    expect(summary.fetchPlan?.asked).toBe(RUNNERS_DEFAULT);
    expect(summary.fetchPlan?.way).toBe('per-subject'); // one address over three blocks: per subject costs less
    const read = waysAsked(RUNNERS_DEFAULT);
    countWay(read, summary);
    expect(waysCell(read)).toBe('auto → per subject (1 run)');
  });

  it('told the block scan reads by the block scan, and is counted there', async () => {
    const summary = await runOneCycle(cycleDeps(api.client(), { now: Date.now }), config, { fetchWay: 'block-scan' });
    expect(summary.fetchPlan).toBeUndefined();
    const read = waysAsked('block-scan');
    countWay(read, summary);
    expect(waysCell(read)).toBe('block scan (1 run)');
  });
});

describe('the tables that describe the watcher as it runs by default', () => {
  it('1: each config read the default way and by the block scan named, the read column saying which', async () => {
    const rows = await measureRequestsPerBlock(prefix(30));
    for (const config of ['transfers only', 'logs only', 'both'] as const) {
      const ways = rows.filter((row) => row.config === config).map((row) => row.read);
      expect(ways.map((read) => read.asked)).toEqual([RUNNERS_DEFAULT, 'block-scan']);
      expectDefault(ways[0]!);
      expect(ways[1]).toEqual({ asked: 'block-scan', blockScan: 1, perSubject: 0 });
    }
    expect(requestsSection(rows)).toContain(`| transfers only | ${waysCell(rows[0]!.read)} |`);
  });

  it('1b: each retired set read the default way and by the block scan named', async () => {
    const rows = await measureRetiredRoutes(prefix(4));
    expect(rows.filter((row) => row.read.asked === RUNNERS_DEFAULT)).toHaveLength(rows.length / 2);
    for (const row of rows.filter((r) => r.read.asked === RUNNERS_DEFAULT)) expectDefault(row.read);
  });

  it('1d: the default read beside the block scan and reading per subject, each named, and held to the same goal as reading per subject', async () => {
    const rows = await measureSubjectRoutes(prefix(15));
    for (const subjects of [20, 2]) {
      const bySubjects = rows.filter((row) => row.subjects === subjects);
      expect(bySubjects.map((row) => row.read.asked)).toEqual(['block-scan', 'per-subject', RUNNERS_DEFAULT]);
      expectDefault(bySubjects[2]!.read);
      expect(bySubjects[2]!.goal).toBe(bySubjects[1]!.goal);
    }
  });

  it('1b: excuses a block scan whose own bound is above 2 a block, never a run that read per subject', () => {
    const row = (read: WaysTaken, perBlock: number, bound: number): RetiredRoutesRow => ({
      retired: 'every deprecated route',
      config: 'both',
      read,
      blocks: 300,
      requests: perBlock * 300,
      perBlock,
      overV2: 1,
      lowerBoundPerBlock: bound,
      ratio: perBlock / bound,
      byRoute: {},
    });
    const goals = retiredRoutesSection([
      row({ asked: 'block-scan', blockScan: 1, perSubject: 0 }, 16.08, 16.05),
      row({ asked: 'auto', blockScan: 0, perSubject: 1 }, 4.26, 16.05),
    ])
      .split('\n')
      .filter((line) => line.startsWith('| every deprecated route'))
      .map((line) => line.split(' | ')[7]);
    expect(goals).toEqual(['✅ bound (≤ 2 out of reach)', '❌']);
  });

  it('1c: the balance runs', async () => {
    expectDefault((await measureRetiredBalanceRequests(prefix(30))).read);
  });

  it('2: the catch-up at the rate limit', async () => {
    const row = await measureCatchUp(workload, { config: 'both', requestsPerMinute: 50, apiMinutes: 0.2, timeScale: 1 / 100 });
    expectDefault(row.read);
  });

  it('3: following the tip, on the schedule and in the loop', async () => {
    for (const loopDelaySeconds of [0, 8]) expectDefault((await measureFollowingTip(prefix(60), 'both', { loopDelaySeconds, minutes: 2 })).read);
  });

  it('alert latency', async () => {
    expectDefault((await measureAlertLatency({ mode: { kind: 'schedule' }, apiMinutes: 2, timeScale: 1 / 200 })).read);
  });

  // Its own bound: nine scenarios against stand-ins in a child process take about 7 s on an idle machine, and past
  // the 30 s default when the run shares a busy one.
  it('5: every cycle with blocks, and the quiet cycles read as the alerting ones so that their difference is a cost per alert', async () => {
    // One measured cycle a scenario: what is checked here is the way each read, not its mean cost.
    const cost = await measureCycleCosts(prefix(70), { ...DEFAULT_CYCLE_OPTIONS, cycles: 1 });
    for (const cycle of [cost.following, cost.followingFew, cost.withAlerts, cost.withWindow, cost.poll, cost.pollPending]) expectDefault(cycle.read!);
    expect(waysCell(cost.following.read!)).toBe(waysCell(cost.withAlerts.read!));
  }, 90_000);

  it('10: the runs with the sBTC lifecycle on', async () => {
    expectDefault((await measureSbtcScenario('fetch ways', 1, 2)).read);
  });
});
