// Benchmark 1b: what Hiro retiring its deprecated routes costs. The same catch-up as benchmark 1, with the
// v2 block list, /tx/multiple, or every deprecated route answering 410, so that the client runs on their v3
// successors: block lists by cursor, headers from the v3 block list, events one transaction at a time
// (the API has no batch or per-block events route), and a call's arguments per alerting call. Each row is
// held to the block scan's lower bound of the routes left, and the v3 rows to 2 requests a block; each is read
// as the watcher reads by default (the fetch plan's choice) and by the block scan named.
import type { FetchWay } from '../lambda/core/follow/fetch-choice';
import type { WatchConfig } from '../lambda/core/watch-config/watch-config-schema';
import { FakeChain, ROUTES, type FakeBlock } from '../test/support/fake-hiro';
import { fixed, ratio, table, verdict } from './markdown';
import { mineAll, watchConfig, type ConfigName, type Workload } from './mainnet-workload';
import { blockPages, readsEvents, REQUESTS_WAYS, v1EventRequests } from './requests-per-block';
import { cycleDeps, runOneCycle, startFakeApi } from './watcher-harness';
import { countWay, READ_COLUMN_NOTE, waysAsked, waysCell, type WaysTaken } from './fetch-ways';

export interface RetiredRoutesRow {
  retired: string;
  config: RowConfig;
  /** The way the run was asked to read and the way it took. */
  read: WaysTaken;
  blocks: number;
  requests: number;
  perBlock: number;
  /** Requests per block over those with every route answering (config "both", read the same way). */
  overV2: number;
  lowerBoundPerBlock: number;
  /** Measured over the lower bound of the routes left (the goal is at most 1.05). */
  ratio: number;
  byRoute: Record<string, number>;
}

/** The three configs of benchmark 1, and calls to one watched contract (no events to read). */
type RowConfig = ConfigName | 'calls only';

const ALL_RETIRED = 'every deprecated route';
const MODES: [string, string[]][] = [
  ['none (v2 routes)', []],
  ['v2 block transaction list', [ROUTES.blockTransactions]],
  ['/v1/tx/multiple', [ROUTES.txMultiple]],
  [ALL_RETIRED, [ROUTES.blockTransactions, ROUTES.txMultiple, ROUTES.block]],
];
const V3_HEADERS_PER_PAGE = 30;
const V3_EVENTS_PER_PAGE = 100;
const V3_GOAL_PER_BLOCK = 2;
const BOUND_GOAL = 1.05;

function rowConfig(name: RowConfig, workload: Workload, startHeight: number): WatchConfig {
  if (name !== 'calls only') return watchConfig(name, workload, startHeight);
  const base = watchConfig('logs only', workload, startHeight);
  return { ...base, contractLogs: [], calls: [{ contractId: workload.watchedContracts[4]!, status: 'any' }] };
}

/** Calls to a contract a `calls` rule watches: each costs its arguments and result on v3. */
function alertingCalls(blocks: readonly FakeBlock[], config: WatchConfig): number {
  const watched = new Set(config.calls.map((rule) => rule.contractId));
  return blocks.reduce(
    (sum, block) =>
      sum + block.txs.filter((tx) => tx.txType === 'contract_call' && watched.has((tx.payload.contract_call as { contract_id: string }).contract_id)).length,
    0,
  );
}

/**
 * The fewest requests the routes left allow: the tip, the status check, a 410 per retired route, every page
 * of every block (on v3 also a header page per 30 blocks), and the events of every transaction that may carry a watched one: shared /tx/multiple calls on v1,
 * a request per 100 events of each transaction on v3, plus one per alerting call for its arguments on v3.
 */
export function lowerBoundFor(blocks: readonly FakeBlock[], retired: readonly string[], config: WatchConfig): number {
  const v3List = retired.includes(ROUTES.blockTransactions);
  const v3Events = retired.includes(ROUTES.txMultiple);
  const watchesEvents = readsEvents(config);
  // Any run: the tip, a status check when contracts are watched, and one 410 per retired route to learn of it.
  const fixedCost = 1 + (config.contracts.length > 0 ? 1 : 0) + retired.length;
  let requests = fixedCost + blockPages(blocks) + (v3List ? Math.ceil(blocks.length / V3_HEADERS_PER_PAGE) + alertingCalls(blocks, config) : 0);
  if (!watchesEvents) return requests;
  if (!v3Events) return requests + v1EventRequests(blocks);
  for (const block of blocks) {
    for (const tx of block.txs) {
      if (tx.txStatus === 'success' && (tx.txType === 'contract_call' || tx.txType === 'smart_contract') && tx.events.length > 0) {
        requests += Math.ceil(tx.events.length / V3_EVENTS_PER_PAGE);
      }
    }
  }
  return requests;
}

async function measure(workload: Workload, retired: readonly string[], name: RowConfig, way: FetchWay) {
  const chain = new FakeChain({ seed: 'bench-requests' });
  mineAll(chain, workload.blocks);
  const api = await startFakeApi(chain);
  api.fake.retire(...retired);
  try {
    const config = rowConfig(name, workload, chain.firstHeight);
    const summary = await runOneCycle(cycleDeps(api.client(), { now: Date.now }), config, { fetchWay: way });
    if (summary.stoppedBecause !== 'caught-up')
      throw new Error(`the ${name} scan with ${retired.join(', ') || 'nothing'} retired stopped early: ${summary.stoppedBecause}`);
    const requests = api.fake.count();
    const read = waysAsked(way);
    countWay(read, summary);
    return { summary, read, requests, bound: lowerBoundFor(chain.blocks(), retired, config), byRoute: api.fake.counts() };
  } finally {
    await api.server.close();
  }
}

export async function measureRetiredRoutes(workload: Workload): Promise<RetiredRoutesRow[]> {
  const runs: [string, string[], RowConfig][] = [
    ...MODES.map(([name, retired]): [string, string[], RowConfig] => [name, retired, 'both']),
    ...(['transfers only', 'logs only', 'calls only'] as const).map((config): [string, string[], RowConfig] => [ALL_RETIRED, MODES[3]![1], config]),
  ];
  const rows: RetiredRoutesRow[] = [];
  for (const [retired, routes, config] of runs) {
    for (const way of REQUESTS_WAYS) rows.push(await measureRow(workload, [retired, routes, config], way, rows));
  }
  return rows;
}

async function measureRow(workload: Workload, [retired, routes, config]: [string, string[], RowConfig], way: FetchWay, before: readonly RetiredRoutesRow[]) {
  const { summary, read, requests, bound, byRoute } = await measure(workload, routes, config, way);
  const perBlock = requests / summary.blocksScanned;
  const v2 = before.find((row) => row.retired === MODES[0]![0] && row.read.asked === way);
  return {
    retired,
    config,
    read,
    blocks: summary.blocksScanned,
    requests,
    perBlock,
    overV2: perBlock / (v2?.perBlock ?? perBlock),
    lowerBoundPerBlock: bound / summary.blocksScanned,
    ratio: requests / bound,
    byRoute,
  };
}

export function retiredRoutesSection(rows: RetiredRoutesRow[]): string {
  return [
    `### 1b. API requests per block once Hiro retires its deprecated routes`,
    '',
    `The catch-up of benchmark 1 (${rows[0]!.blocks} blocks) with routes answering 410 Gone, so that the client reads their v3 successors. The block scan reads ` +
      'block lists by cursor, headers 30 at a time from the v3 block list, events one transaction at a time and only for transactions ' +
      'whose `event_count` is not 0 and whose events a rule could match (the API has no batch or per-block events route), and the arguments ' +
      'and result of each call a `calls` rule alerts on; reading per subject reads the feeds of table 1d. The lower bound is that of the routes left, with the requests every run makes ' +
      "(the tip, the status check, one 410 per retired route): the block scan's, so that for a run reading per subject it says whether the plan chose no dearer than the best the block scan could do. " +
      "Each row is read as the watcher reads by default (auto: the fetch plan's choice) and by the block scan named. " +
      'Goal: at most 1.05 × the lower bound, and on the v3 routes at most 2 requests a block ("bound": the block scan\'s own bound is above 2; a run that read per subject has no such excuse). ' +
      READ_COLUMN_NOTE,
    '',
    table(
      ['retired', 'config', 'read', 'requests / block', '× v2', 'lower bound / block', '× bound', 'goal', 'requests by route'],
      rows.map((r) => [
        r.retired,
        r.config,
        waysCell(r.read),
        fixed(r.perBlock, 3),
        ratio(r.overV2),
        fixed(r.lowerBoundPerBlock, 3),
        ratio(r.ratio),
        goal(r),
        Object.entries(r.byRoute)
          .map(([route, count]) => `${route.replace('GET ', '')}: ${count}`)
          .join('<br>'),
      ]),
    ),
  ].join('\n');
}

/**
 * Within 1.05 of the bound; on the v3 routes also at most 2 a block, or the bound itself is above 2 (❌ bound). The
 * bound is the block scan's: it excuses no run that read per subject, which is held to the 2 a block alone.
 */
function goal(row: RetiredRoutesRow): string {
  const near = row.ratio <= BOUND_GOAL;
  if (row.retired !== ALL_RETIRED) return verdict(near);
  if (row.perBlock <= V3_GOAL_PER_BLOCK) return verdict(near);
  return row.lowerBoundPerBlock > V3_GOAL_PER_BLOCK && row.read.perSubject === 0 ? `${verdict(near)} bound (≤ 2 out of reach)` : verdict(false);
}
