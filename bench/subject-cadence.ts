// Reading per subject, by the block scan or by the fetch plan's choice of the two, over simulated time, every deprecated route answering 410: blocks
// arrive at mainnet's pace (7 a minute, one every 60/7 s), the watcher runs on a schedule (a run every minute or
// two) or in the loop (a turn every few seconds), with a new client per invocation as the handler builds one and
// the memory of a warm container (the routes found retired or missing), optionally paced at the free tier's 50
// requests a minute. The benchmark moves a clock from one invocation to
// the next (and through the client's own waits), mining the blocks that arrived meanwhile: nothing waits.
import type { FetchWay } from '../lambda/core/follow/fetch-choice';
import { DEPRECATED_CHAIN_READS, FakeChain } from '../test/support/fake-hiro';
import type { Workload } from './mainnet-workload';
import { subjectsConfig } from './subject-routes';
import { cycleDeps, memoryState, processMemory, runOneCycle, startFakeApi, SteppedClock, UNPACED_RPM } from './watcher-harness';
import { countWay, waysAsked, type WaysTaken } from './fetch-ways';

export const BLOCKS_PER_MINUTE = 7;
const MINUTE_MS = 60_000;

export interface CadenceOptions {
  subjects: number;
  way: FetchWay;
  /** Seconds between invocations: 60 for the 1-minute schedule, 120 for every other minute, 8 for the loop. */
  everySeconds: number;
  minutes: number;
  /** The client's pace (50 without an API key); unpaced when absent. */
  requestsPerMinute?: number;
}

export interface CadenceResult {
  options: CadenceOptions;
  /** The way the measured invocations were asked for and the ways they took. */
  read: WaysTaken;
  blocks: number;
  requests: number;
  perBlock: number;
  requestsPerMinute: number;
  /** Blocks between the tip and the cursor at the end of each minute (the last invocation's view). */
  lagByMinute: number[];
  byRoute: Record<string, number>;
}

/** Arrival times (ms after the start) of `count` blocks, evenly at mainnet's pace. */
function arrivals(count: number, startMs: number): number[] {
  return Array.from({ length: count }, (_, i) => startMs + Math.round(((i + 1) * MINUTE_MS) / BLOCKS_PER_MINUTE));
}

export async function measureCadence(workload: Workload, options: CadenceOptions): Promise<CadenceResult> {
  const needed = Math.ceil(options.minutes * BLOCKS_PER_MINUTE) + 2;
  if (workload.blocks.length < needed) throw new Error(`the cadence run needs ${needed} generated blocks, has ${workload.blocks.length}`);
  const chain = new FakeChain({ seed: 'bench-cadence' });
  chain.mine(workload.blocks[0]!);
  const clock = new SteppedClock();
  const due = arrivals(needed - 1, clock.startMs).map((atMs, i) => ({ atMs, txs: workload.blocks[i + 1]! }));
  clock.onAdvance = (toMs) => {
    while (due.length > 0 && due[0]!.atMs <= toMs) chain.mine(due.shift()!.txs);
  };
  const api = await startFakeApi(chain);
  api.fake.retire(...DEPRECATED_CHAIN_READS);
  const state = memoryState();
  const config = subjectsConfig(workload, options.subjects, 'latest');
  const everyMs = options.everySeconds * 1000;
  // One warm container throughout: its invocations share what it found retired or missing.
  const memory = processMemory();
  const invoke = async (atMs: number) => {
    clock.advanceTo(atMs);
    const client = api.client({
      requestsPerMinute: options.requestsPerMinute ?? UNPACED_RPM,
      now: clock.now,
      sleep: clock.sleep,
      ...memory.routes,
    });
    // A run ends before the next is due (the schedule's runs do not overlap; a turn gives way to the next).
    const deadlineMs = atMs + Math.max(everyMs, MINUTE_MS) - 5_000;
    return runOneCycle(cycleDeps(client, clock, state), config, { ...memory.budget, fetchWay: options.way, deadlineMs });
  };
  try {
    await invoke(clock.startMs); // warm-up: the first run sets the cursor
    api.fake.clearLog();
    const firstHeight = chain.height;
    const lagByMinute: number[] = [];
    let next = clock.startMs + everyMs;
    let lag = 0;
    const read = waysAsked(options.way);
    const endMs = clock.startMs + options.minutes * MINUTE_MS;
    while (next <= endMs) {
      const summary = await invoke(next);
      countWay(read, summary);
      lag = summary.lagBlocks ?? lag;
      // The next invocation on the grid after this one ended.
      next += everyMs * Math.max(1, Math.ceil((clock.now() - next + 1) / everyMs));
      while (lagByMinute.length < Math.floor((Math.min(next, endMs + 1) - clock.startMs) / MINUTE_MS)) lagByMinute.push(lag);
    }
    const requests = api.fake.count();
    const blocks = chain.height - firstHeight;
    return {
      options,
      read,
      blocks,
      requests,
      perBlock: requests / blocks,
      requestsPerMinute: requests / options.minutes,
      lagByMinute,
      byRoute: api.fake.counts(),
    };
  } finally {
    await api.server.close();
  }
}
