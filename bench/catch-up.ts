// Benchmark 2: catching up behind the tip with the fake API enforcing Hiro's per-minute limit (time-scaled,
// so an API minute lasts a few real seconds): blocks scanned per minute against the ceiling the limit allows
// at the measured requests per block, and the share of requests answered 429.
import { FakeChain } from '../test/support/fake-hiro';
import { mineAll, watchConfig, type ConfigName, type Workload } from './mainnet-workload';
import { lowerBound, readsEvents } from './requests-per-block';
import { cycleDeps, runOneCycle, ScaledClock, startFakeApi } from './watcher-harness';
import { countWay, DEFAULT_FETCH_WAY, waysAsked, type WaysTaken } from './fetch-ways';

export interface CatchUpRow {
  config: ConfigName;
  /** The way the runs were asked to read (the watcher's default) and the ways they took. */
  read: WaysTaken;
  /** Blocks from the first to scan up to the tip when the catch-up starts. */
  behindAtStart: number;
  requestsPerMinute: number;
  apiMinutes: number;
  blocks: number;
  blocksPerMinute: number;
  requestsPerBlock: number;
  /** The limit over the measured requests per block: the most blocks a minute this scanner could do. */
  ceiling: number;
  /** blocksPerMinute over ceiling; the goal is at least 0.9. */
  ofCeiling: number;
  /** The limit over the lower bound's requests per block: the most blocks a minute any scanner could do. */
  boundCeiling: number;
  requests: number;
  throttled: number;
  throttledShare: number;
}

export interface CatchUpRun {
  config: ConfigName;
  requestsPerMinute: number;
  apiMinutes: number;
  /** Real ms per API ms. */
  timeScale: number;
}

export async function measureCatchUp(workload: Workload, run: CatchUpRun): Promise<CatchUpRow> {
  const chain = new FakeChain({ seed: 'bench-catch-up' });
  mineAll(chain, workload.blocks);
  const clock = new ScaledClock(run.timeScale);
  const api = await startFakeApi(chain, { limit: run.requestsPerMinute, windowSeconds: 60, timeScale: run.timeScale });
  try {
    const client = api.client({ requestsPerMinute: run.requestsPerMinute, now: clock.now, sleep: clock.sleep });
    const deps = cycleDeps(client, clock);
    const config = watchConfig(run.config, workload, chain.firstHeight);
    const endAt = clock.now() + run.apiMinutes * 60_000;
    // Back-to-back cycles, as the local runner does when behind: each stops at the end of the window.
    let blocks = 0;
    const read = waysAsked(DEFAULT_FETCH_WAY);
    while (clock.now() < endAt) {
      const summary = await runOneCycle(deps, config, { deadlineMs: endAt });
      countWay(read, summary);
      blocks += summary.blocksScanned;
      if (summary.stoppedBecause === 'caught-up') throw new Error(`the ${run.config} catch-up ran out of chain after ${blocks} blocks; mine more`);
    }
    const minutes = clock.elapsed() / 60_000;
    const requests = api.statuses.length;
    const throttled = api.statuses.filter((status) => status === 429).length;
    const served = requests - throttled;
    const requestsPerBlock = served / blocks;
    const scanned = chain.blocks().slice(0, blocks);
    const bound = lowerBound(scanned, readsEvents(config)) / blocks;
    const ceiling = run.requestsPerMinute / requestsPerBlock;
    return {
      config: run.config,
      read,
      behindAtStart: chain.height - chain.firstHeight + 1,
      requestsPerMinute: run.requestsPerMinute,
      apiMinutes: minutes,
      blocks,
      blocksPerMinute: blocks / minutes,
      requestsPerBlock,
      ceiling,
      ofCeiling: blocks / minutes / ceiling,
      boundCeiling: run.requestsPerMinute / bound,
      requests,
      throttled,
      throttledShare: throttled / requests,
    };
  } finally {
    await api.server.close();
  }
}
