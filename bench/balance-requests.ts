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

/** Blocks a run scans: a one-minute schedule at about 10 Nakamoto blocks a minute. */
export const BLOCKS_PER_RUN = 10;

export interface BalanceRequestsRow {
  config: string;
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

/** The routes a balance read asks: the v1 route, or once it answers 410 the v3 balance now and the principal's changes. */
const BALANCE_ROUTES = [ROUTES.balances, ROUTES.stxBalance, ROUTES.ftBalances, ROUTES.ftTransfers];

async function measure(name: string, workload: Workload, config: (startHeight: number) => WatchConfig, retired = false): Promise<BalanceRequestsRow> {
  // From block 2: nothing is held before block 1, so the rules' first reads are at block 1, genesis balances and all.
  const chain = new FakeChain({ seed: 'bench-balances', firstHeight: 2 });
  // Enough of everything they send that no balance the fake computes goes negative (the API's never do).
  const tokens = new Set(
    workload.blocks
      .flat()
      .flatMap((tx) => tx.events.map((e) => (e.asset as { asset_id?: string } | undefined)?.asset_id).filter((id): id is string => id !== undefined)),
  );
  for (const address of busiest(workload).payers) for (const asset of ['stx', ...tokens]) chain.setGenesisBalance(address, asset, 10n ** 15n);
  mineAll(chain, workload.blocks);
  const api = await startFakeApi(chain);
  if (retired) api.fake.retire(ROUTES.balances);
  try {
    const deps = cycleDeps(api.client(), { now: Date.now });
    const watch = { ...config(chain.firstHeight), maxBlocksPerRun: BLOCKS_PER_RUN };
    let runs = 0;
    let blocks = 0;
    for (;;) {
      const summary = await runOneCycle(deps, watch);
      runs += 1;
      blocks += summary.blocksScanned;
      if (summary.stoppedBecause === 'caught-up') break;
      if (summary.stoppedBecause !== 'max-blocks') throw new Error(`the ${name} runs stopped: ${summary.stoppedBecause}`);
    }
    const counts = api.fake.counts();
    const events = (counts[ROUTES.txMultiple] ?? 0) + (counts[ROUTES.v3TransactionEvents] ?? 0);
    // Rebuilt balances ask the principal's transactions twice and more; the plan's own feed reads ask them too, so
    // they are counted apart only where the plan scans blocks (no feed read): every such request is a balance read's.
    const balanceRequests = BALANCE_ROUTES.reduce((sum, route) => sum + (counts[route] ?? 0), 0) + (retired ? (counts[ROUTES.principalTransactions] ?? 0) : 0);
    return {
      config: name,
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

export async function measureBalanceRequests(workload: Workload): Promise<BalanceRequestsRow[]> {
  return [
    await measure('no rule', workload, (h) => ({ ...emptyWatchConfig('mainnet'), startHeight: h, confirmations: 0, maxBlocksPerRun: BLOCKS_PER_RUN })),
    await measure('10 balance rules', workload, (h) => balanceConfig(workload, h)),
    await measure('"both" (transfers and logs)', workload, (h) => watchConfig('both', workload, h)),
    await measure('"both" and 10 balance rules', workload, (h) => ({ ...watchConfig('both', workload, h), balances: balanceConfig(workload, h).balances })),
    await measureRetiredBalanceRequests(workload),
  ];
}

/** The 10 balance rules once Hiro has retired the v1 balances route: each read rebuilt from the v3 routes. */
export function measureRetiredBalanceRequests(workload: Workload): Promise<BalanceRequestsRow> {
  return measure('10 balance rules, the v1 balances route answering 410', workload, (h) => balanceConfig(workload, h), true);
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
      '(docs/balances.md): tried every run, the last row was 33.15 requests a run and 2,678 balance requests.',
    '',
    table(
      ['config', 'requests / run', 'event requests / run', 'balance requests (all runs)', 'requests by route'],
      rows.map((r) => [
        r.config,
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
