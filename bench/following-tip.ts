// Benchmark 3: following the tip at mainnet's pace (a block every 2 to 8 s, about 12 a minute), how much of
// the 50-requests-a-minute budget without an API key the watcher spends, per watch config, on the plain
// 1-minute schedule and in the loop (a turn every few seconds, the contract statuses checked about once a
// minute). Simulated time: the benchmark moves a clock from one invocation or turn to the next and mines the
// blocks that arrived meanwhile, so nothing waits.
import { statusesDue } from '../lambda/runtime/loop-invocation';
import { loopTurnSeconds } from '../lambda/core/scan/loop-turns';
import { FakeChain, type FakeTxSpec } from '../test/support/fake-hiro';
import { watchConfig, type ConfigName, type Workload } from './mainnet-workload';
import { seededRandom } from './prng';
import { cycleDeps, memoryState, runOneCycle, startFakeApi, SteppedClock } from './watcher-harness';
import { countWay, DEFAULT_FETCH_WAY, waysAsked, type WaysTaken } from './fetch-ways';

export const FREE_RPM = 50;
const SCHEDULE_MS = 60_000;

export interface FollowingTipRow {
  config: ConfigName;
  /** With pending rules: each block's transactions wait in the mempool from the block before (one in 25 is dropped). */
  pending: boolean;
  /** 0: the 1-minute schedule; else the loop's turn every this many seconds. */
  loopDelaySeconds: number;
  /** The way the runs were asked to read (the watcher's default) and the ways the measured runs took. */
  read: WaysTaken;
  minutes: number;
  blocksPerMinute: number;
  requestsPerMinute: number;
  /** requestsPerMinute over the 50 a minute allowed without a key. */
  budgetShare: number;
  byRoute: Record<string, number>;
}

/** Arrival times (ms after the start) of `count` blocks, 2 to 8 s apart. */
export function blockArrivals(count: number, seed: number): number[] {
  const random = seededRandom(seed);
  const times: number[] = [];
  let at = 0;
  for (let i = 0; i < count; i += 1) {
    at += random.int(2_000, 8_000);
    times.push(at);
  }
  return times;
}

export async function measureFollowingTip(
  workload: Workload,
  config: ConfigName,
  options: { loopDelaySeconds: number; minutes: number; pending?: boolean },
): Promise<FollowingTipRow> {
  const chain = new FakeChain({ seed: 'bench-following' });
  chain.mine(workload.blocks[0]!); // the tip the watcher starts from
  const clock = new SteppedClock();
  const arrivals = blockArrivals(workload.blocks.length - 1, 12).map((ms) => clock.startMs + ms);
  const pending: { atMs: number; txs: FakeTxSpec[] }[] = arrivals.map((atMs, i) => ({ atMs, txs: workload.blocks[i + 1]! }));
  const mempool = options.pending ? new MempoolScript(chain) : null;
  mempool?.submit(pending[0]);
  clock.onAdvance = (toMs) => {
    while (pending.length > 0 && pending[0]!.atMs <= toMs) {
      const block = pending.shift()!;
      chain.mine(mempool ? mempool.mined(block.txs) : block.txs);
      mempool?.submit(pending[0]);
    }
  };
  const api = await startFakeApi(chain);
  const state = memoryState();
  const watch = options.pending ? withPendingRules(watchConfig(config, workload, 'latest'), workload) : watchConfig(config, workload, 'latest');
  const read = waysAsked(DEFAULT_FETCH_WAY);
  let measuring = false;
  try {
    // A new client per invocation (a schedule tick or a loop turn), as the handler builds one.
    const invoke = async (atMs: number, checkStatuses = true) => {
      clock.advanceTo(atMs);
      const summary = await runOneCycle(cycleDeps(api.client(), clock, state), watch, { checkStatuses });
      if (measuring) countWay(read, summary);
    };
    const loop = { queueUrl: '', delaySeconds: options.loopDelaySeconds, turnSeconds: loopTurnSeconds(Math.max(1, options.loopDelaySeconds)) };
    const minute = async (startMs: number) => {
      if (options.loopDelaySeconds === 0) return invoke(startMs);
      for (let at = startMs; at < startMs + SCHEDULE_MS; at += options.loopDelaySeconds * 1000) await invoke(at, statusesDue(at, loop));
    };
    await invoke(clock.startMs); // warm-up: the first cycle sets the cursor
    api.fake.clearLog();
    measuring = true;
    const firstHeight = chain.height;
    for (let m = 1; m <= options.minutes; m += 1) {
      if (pending.length === 0) throw new Error('the following-tip run ran out of generated blocks; generate more');
      await minute(clock.startMs + m * SCHEDULE_MS);
    }
    const requestsPerMinute = api.fake.count() / options.minutes;
    return {
      config,
      pending: options.pending === true,
      loopDelaySeconds: options.loopDelaySeconds,
      read,
      minutes: options.minutes,
      blocksPerMinute: (chain.height - firstHeight) / options.minutes,
      requestsPerMinute,
      budgetShare: requestsPerMinute / FREE_RPM,
      byRoute: api.fake.counts(),
    };
  } finally {
    await api.server.close();
  }
}

/** The treasury's outflows and every call to the first watched contract, alerted while they wait too. */
function withPendingRules(watch: ReturnType<typeof watchConfig>, workload: Workload): ReturnType<typeof watchConfig> {
  return {
    ...watch,
    transfers: [...watch.transfers, { asset: 'stx', to: [], from: [workload.treasury], actions: ['transfer'], pending: true }],
    calls: [...watch.calls, { contractId: workload.watchedContracts[0]!, status: 'any', pending: true }],
  };
}

/** Each block's transactions wait in the mempool from the arrival of the block before; one in 25 is dropped instead of mined. */
class MempoolScript {
  private submitted = 0;
  private readonly toDrop = new Set<string>();

  constructor(private readonly chain: FakeChain) {}

  submit(block: { txs: FakeTxSpec[] } | undefined): void {
    if (!block) return;
    block.txs = block.txs.map((tx) => {
      const waiting = this.chain.submit(tx);
      if (++this.submitted % 25 === 0) this.toDrop.add(waiting.txId);
      return waiting;
    });
  }

  /** The block's transactions less those dropped meanwhile. */
  mined(txs: FakeTxSpec[]): FakeTxSpec[] {
    return txs.filter((tx) => {
      if (!tx.txId || !this.toDrop.has(tx.txId)) return true;
      this.chain.drop(tx.txId, 'dropped_stale_garbage_collect');
      return false;
    });
  }
}
