// Benchmark 1b: what Hiro retiring its deprecated routes costs. The same catch-up as benchmark 1 (config
// "both"), with the v2 block list, /tx/multiple, or every deprecated route answering 410, so that the
// client runs on their v3 successors: block lists by cursor, and events one transaction at a time.
import { FakeChain } from '../test/support/fake-hiro';
import { ROUTES } from '../test/support/fake-hiro';
import { mineAll, watchConfig, type Workload } from './mainnet-workload';
import { cycleDeps, runOneCycle, startFakeApi } from './watcher-harness';

export interface RetiredRoutesRow {
  retired: string;
  blocks: number;
  requests: number;
  perBlock: number;
  /** Requests per block over those with every route answering. */
  overV2: number;
  byRoute: Record<string, number>;
}

const MODES: [string, string[]][] = [
  ['none (v2 routes)', []],
  ['v2 block transaction list', [ROUTES.blockTransactions]],
  ['/v1/tx/multiple', [ROUTES.txMultiple]],
  ['every deprecated route, block headers included', [ROUTES.blockTransactions, ROUTES.txMultiple, ROUTES.block]],
];

export async function measureRetiredRoutes(workload: Workload): Promise<RetiredRoutesRow[]> {
  const rows: RetiredRoutesRow[] = [];
  for (const [name, retired] of MODES) {
    const chain = new FakeChain({ seed: 'bench-requests' });
    mineAll(chain, workload.blocks);
    const api = await startFakeApi(chain);
    api.fake.retire(...retired);
    try {
      const summary = await runOneCycle(cycleDeps(api.client(), { now: Date.now }), watchConfig('both', workload, chain.firstHeight));
      if (summary.stoppedBecause !== 'caught-up') throw new Error(`the scan with ${name} retired stopped early: ${summary.stoppedBecause}`);
      const requests = api.fake.count();
      const perBlock = requests / summary.blocksScanned;
      rows.push({
        retired: name,
        blocks: summary.blocksScanned,
        requests,
        perBlock,
        overV2: perBlock / (rows[0]?.perBlock ?? perBlock),
        byRoute: api.fake.counts(),
      });
    } finally {
      await api.server.close();
    }
  }
  return rows;
}
