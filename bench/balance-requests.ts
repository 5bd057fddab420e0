// API requests per run with 10 balance rules on the busiest addresses of the generated mainnet-like chain,
// beside the same runs with no rule and with the "both" config: what balance thresholds cost. The balances
// are read from the API once per address to start and once per RECONCILE_BLOCKS to reconcile, never per block;
// the rest of their cost is reading the events of contract calls (any of which may move a watched balance).
import { RECONCILE_BLOCKS } from '../lambda/core/stages/balance-tracker';
import type { WatchConfig } from '../lambda/core/watch-config/watch-config-schema';
import { emptyWatchConfig } from '../lambda/config/watch-config';
import { FakeChain, ROUTES, fakeAddress } from '../test/support/fake-hiro';
import { fixed, table } from './markdown';
import { mineAll, watchConfig, type Workload } from './mainnet-workload';
import { cycleDeps, runOneCycle, startFakeApi } from './watcher-harness';
import type { FetchWay } from '../lambda/core/follow/fetch-choice';
import { countWay, DEFAULT_FETCH_WAY, READ_COLUMN_NOTE, waysAsked, waysCell, type WaysTaken } from './fetch-ways';

/** Blocks a run scans: a one-minute schedule at about 10 Nakamoto blocks a minute. */
export const BLOCKS_PER_RUN = 10;

export interface BalanceRequestsRow {
  config: string;
  /** The way the runs were asked to read (the watcher's default) and the ways they took. */
  read: WaysTaken;
  runs: number;
  blocks: number;
  requestsPerRun: number;
  balanceReads: number;
  eventRequestsPerRun: number;
  byRoute: Record<string, number>;
}

/** The senders paying the most fees and the addresses receiving the most, five of each: busy balances. */
function busiest(workload: Workload): { payers: string[]; holders: string[]; token: string } {
  const fees = new Map<string, number>();
  for (const txs of workload.blocks) for (const tx of txs) fees.set(tx.sender, (fees.get(tx.sender) ?? 0) + 1);
  const payers = [...fees]
    .filter(([a]) => a !== fakeAddress('miner'))
    .sort((a, b) => b[1] - a[1])
    .slice(0, 5)
    .map(([a]) => a);
  return { payers, holders: workload.watchedAddresses.slice(0, 5), token: `${workload.watchedContracts[0]}::token` };
}

export function balanceConfig(workload: Workload, startHeight: number): WatchConfig {
  const { payers, holders, token } = busiest(workload);
  return {
    ...emptyWatchConfig('mainnet'),
    balances: [
      ...payers.map((address) => ({ address, asset: 'stx', below: '1000000' })),
      ...holders.map((address, i) => (i % 2 === 0 ? { address, asset: 'stx', below: '1000000' } : { address, asset: token, above: '100000000000' })),
    ],
    startHeight,
    confirmations: 0,
    maxBlocksPerRun: BLOCKS_PER_RUN,
  };
}

interface BalanceRun {
  retired: boolean;
  way: FetchWay;
}

async function measure(name: string, workload: Workload, config: (startHeight: number) => WatchConfig, run: BalanceRun): Promise<BalanceRequestsRow> {
  // From block 2: nothing is held before block 1, so the rules' first reads are at block 1, genesis balances and all.
  const chain = new FakeChain({ seed: 'bench-balances', firstHeight: 2 });
  // Enough of everything they send that no balance the fake computes goes negative (the API's never do).
  const tokens = new Set(
    workload.blocks
      .flat()
      .flatMap((tx) => tx.events.map((e) => (e.asset as { asset_id?: string } | undefined)?.asset_id).filter((id): id is string => id !== undefined)),
  );
  for (const address of busiest(workload).payers) for (const asset of ['stx', ...tokens]) chain.setGenesisBalance(address, asset, 10n ** 15n);
  const api = await startFakeApi(chain);
  if (run.retired) api.fake.retire(ROUTES.balances);
  try {
    // The balance reads go through a client of their own, so that their requests are counted apart from the
    // plan's feed reads on the same routes (a principal's transactions): the v1 route, or once it answers 410
    // the v3 balance now and the principal's changes.
    let balanceRequests = 0;
    const balances = api.client({ onRequest: () => (balanceRequests += 1) });
    const deps = cycleDeps({ ...api.client(), getBalances: balances.getBalances }, { now: Date.now });
    const watch = { ...config(chain.firstHeight), maxBlocksPerRun: BLOCKS_PER_RUN };
    const read = waysAsked(run.way);
    let runs = 0;
    let blocks = 0;
    // Following the tip: each run finds the blocks mined since the last.
    for (let next = 0; next < workload.blocks.length; next += BLOCKS_PER_RUN) {
      mineAll(chain, workload.blocks.slice(next, next + BLOCKS_PER_RUN));
      const summary = await runOneCycle(deps, watch, { fetchWay: run.way });
      countWay(read, summary);
      runs += 1;
      blocks += summary.blocksScanned;
      if (summary.stoppedBecause !== 'caught-up') throw new Error(`the ${name} runs stopped: ${summary.stoppedBecause}`);
    }
    const counts = api.fake.counts();
    const events = (counts[ROUTES.txMultiple] ?? 0) + (counts[ROUTES.v3TransactionEvents] ?? 0);
    return {
      config: name,
      read,
      runs,
      blocks,
      requestsPerRun: api.fake.count() / runs,
      balanceReads: balanceRequests,
      eventRequestsPerRun: events / runs,
      byRoute: counts,
    };
  } finally {
    await api.server.close();
  }
}

/** The table's rows, read as the watcher reads by default unless `way` names a way. */
export async function measureBalanceRequests(workload: Workload, way: FetchWay = DEFAULT_FETCH_WAY): Promise<BalanceRequestsRow[]> {
  const run = { retired: false, way };
  return [
    await measure('no rule', workload, (h) => ({ ...emptyWatchConfig('mainnet'), startHeight: h, confirmations: 0, maxBlocksPerRun: BLOCKS_PER_RUN }), run),
    await measure('10 balance rules', workload, (h) => balanceConfig(workload, h), run),
    await measure('"both" (transfers and logs)', workload, (h) => watchConfig('both', workload, h), run),
    await measure(
      '"both" and 10 balance rules',
      workload,
      (h) => ({ ...watchConfig('both', workload, h), balances: balanceConfig(workload, h).balances }),
      run,
    ),
    await measureRetiredBalanceRequests(workload, way),
  ];
}

/** The 10 balance rules once Hiro has retired the v1 balances route: each read rebuilt from the v3 routes. */
export function measureRetiredBalanceRequests(workload: Workload, way: FetchWay = DEFAULT_FETCH_WAY): Promise<BalanceRequestsRow> {
  return measure('10 balance rules, the v1 balances route answering 410', workload, (h) => balanceConfig(workload, h), { retired: true, way });
}

export function balanceRequestsSection(rows: BalanceRequestsRow[]): string {
  const first = rows[0]!;
  return [
    '### 1c. Requests per run with 10 balance rules',
    '',
    `Runs of ${BLOCKS_PER_RUN} blocks (a one-minute schedule) over ${first.blocks} generated blocks, ${first.runs} runs. The 10 rules watch the five busiest fee payers' STX ` +
      `and five busy recipients (STX and a token). Balance reads: one per address to start and one per ${RECONCILE_BLOCKS} blocks to reconcile, never per block; ` +
      'the events of contract calls are read because any call may move a watched balance (the "both" config reads them already). ' +
      "Once Hiro retires the v1 balances route (410), a read is the balance now and the principal's changes since: its transactions before and after " +
      'the balance (two requests, more when the changes since span pages), its STX balance, and for a token its balances and transfers; "balance requests" counts them all. ' +
      'A balance that cannot be rebuilt (more than 1,000 changes since) is tried again after 10, 20, 40 … blocks, never before the blocks its failed read walked down to ' +
      '(docs/balances.md): tried every run, the last row was 33.15 requests a run and 2,678 balance requests (when these runs read a chain already mined to its end). ' +
      `The chain grows as the runs go: each run finds the ${BLOCKS_PER_RUN} blocks mined since the last. ${READ_COLUMN_NOTE}`,
    '',
    table(
      ['config', 'read', 'requests / run', 'event requests / run', 'balance requests (all runs)', 'requests by route'],
      rows.map((r) => [
        r.config,
        waysCell(r.read),
        fixed(r.requestsPerRun, 2),
        fixed(r.eventRequestsPerRun, 2),
        String(r.balanceReads),
        Object.entries(r.byRoute)
          .map(([route, count]) => `${route.replace('GET ', '')}: ${count}`)
          .join('<br>'),
      ]),
    ),
  ].join('\n');
}
