// Alert latency: from the moment a block is mined to the moment its alert is published, on the plain 1-minute
// schedule and with the self-rescheduling loop (a turn every few seconds,
// each queuing the next on SQS with a delay: lambda/runtime/loop-invocation.ts decides the delay). Time-scaled:
// blocks come every 4 to 12 API seconds, the fake API enforces 50 requests a minute, and the client paces
// itself on the same scaled clock. Billed time is measured too: what each invocation would be billed for.
import { nextTurnDelaySeconds } from '../lambda/runtime/loop-invocation';
import { loopTurnSeconds } from '../lambda/core/scan/loop-turns';
import type { WatchConfig } from '../lambda/core/watch-config/watch-config-schema';
import { contractCall, coinbase, FakeChain, fakeAddress, fakeContractId, transfer } from '../test/support/fake-hiro';
import { seededRandom } from './prng';
import { fixed, table, verdict } from './markdown';
import { cycleDeps, memoryState, runOneCycle, ScaledClock, startFakeApi, TimedPublisher } from './watcher-harness';
import { routeMemory } from '../lambda/hiro';
import type { CycleSummary } from '../lambda/core/cycle-types';
import { emptyWatchConfig } from '../lambda/config/watch-config';
import { countWay, DEFAULT_FETCH_WAY, READ_COLUMN_NOTE, waysAsked, waysCell, type WaysTaken } from './fetch-ways';

const SCHEDULE_MS = 60_000;

/**
 * From a turn's delay running out to the next turn starting: SQS makes the message visible and the event
 * source's waiting long poll returns it, then Lambda invokes the warm function. Assumed, not measured here.
 */
export const LOOP_PICKUP_MS = 500;

/**
 * A loop's `pickupMs`: what if the pickup took longer than assumed (LOOP_PICKUP_MS when absent). The doorbell:
 * the 1-minute schedule, and a push source ringing `pushDelayMs` after each block (docs/doorbell.md).
 */
export type LatencyMode = { kind: 'schedule' } | { kind: 'loop'; delaySeconds: number; pickupMs?: number } | { kind: 'doorbell'; pushDelayMs: number };

/** How often the doorbell's driver looks for a ring that is due: rings are heard at most this late. */
const RING_STEP_MS = 100;

export interface LatencyRow {
  mode: LatencyMode;
  /** The way the invocations were asked to read (the watcher's default) and the ways they took. */
  read: WaysTaken;
  /** Invocations of the function in the run (schedule ticks, or loop turns). */
  invocations: number;
  /** What the invocations would be billed for, in total, per hour of the run. */
  billedSecondsPerHour: number;
  requestsPerMinute: number;
  apiMinutes: number;
  alerts: number;
  meanSeconds: number;
  p50Seconds: number;
  p90Seconds: number;
  maxSeconds: number;
}

function percentile(sorted: readonly number[], share: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))]!;
}

export async function measureAlertLatency(options: { mode: LatencyMode; apiMinutes: number; timeScale: number; rpm?: number }): Promise<LatencyRow> {
  const clock = new ScaledClock(options.timeScale);
  const rpm = options.rpm ?? 50;
  const chain = new FakeChain({ seed: `bench-latency-${options.mode.kind}-0` });
  const watched = fakeAddress('latency-watched');
  const dex = fakeContractId('latency-dex');
  chain.mine([coinbase()]);
  const minedAt = new Map<number, number>();
  const api = await startFakeApi(chain, { limit: rpm, windowSeconds: 60, timeScale: options.timeScale });
  const config: WatchConfig = {
    ...emptyWatchConfig('mainnet'),
    contracts: [],
    addresses: [watched],
    contractLogs: [{ contractId: dex }],
    transfers: [],
    startHeight: 'latest',
    confirmations: 0,
    maxBlocksPerRun: 500,
  };
  const startAt = clock.now();
  const endAt = startAt + options.apiMinutes * SCHEDULE_MS;
  // Blocks stop when the last invocation starts, so that every block mined is alerted within the run.
  const lastInvokeAt = endAt - SCHEDULE_MS;
  const random = seededRandom(8);
  // Every block carries one watched transfer among other traffic, so each block yields one alert to time.
  const producer = (async () => {
    for (;;) {
      await clock.sleep(random.int(4_000, 12_000));
      if (clock.now() >= lastInvokeAt) break;
      const block = chain.mine([
        contractCall({ contractId: dex, logs: ['swap'] }),
        transfer({ to: watched, amount: 1_000_000 }),
        transfer({ to: fakeAddress('someone-else'), amount: 5 }),
      ]);
      minedAt.set(block.height, clock.now());
    }
  })();
  const [state, routes] = [memoryState(), routeMemory()];
  const published: TimedPublisher['published'] = [];
  const billed: number[] = [];
  const read = waysAsked(DEFAULT_FETCH_WAY);
  const invoke = async (run: (deps: ReturnType<typeof cycleDeps>) => Promise<CycleSummary>): Promise<CycleSummary> => {
    const startedAt = clock.now();
    // A new client per invocation, as the handler builds one, given what the container keeps of the routes.
    const deps = cycleDeps(api.client({ ...routes, requestsPerMinute: rpm, now: clock.now, sleep: clock.sleep }), clock, state);
    const summary = await run(deps);
    billed.push(clock.now() - startedAt);
    countWay(read, summary);
    published.push(...deps.publisher.published);
    return summary;
  };
  try {
    const run = { clock, startAt, endAt, cycle: (deadlineMs?: number) => invoke((deps) => runOneCycle(deps, config, deadlineMs ? { deadlineMs } : {})) };
    if (options.mode.kind === 'loop') await driveLoop(run, options.mode);
    else if (options.mode.kind === 'doorbell') await driveDoorbell(run, minedAt, options.mode.pushDelayMs);
    else await driveSchedule(run);
  } finally {
    await producer;
    await api.server.close();
  }
  const latencies = published
    .filter(({ alert }) => alert.type === 'token_transfer' && minedAt.has(alert.block_height))
    .map(({ alert, atMs }) => (atMs - minedAt.get((alert as { block_height: number }).block_height)!) / 1000)
    .sort((a, b) => a - b);
  if (latencies.length === 0) throw new Error('no alert was published in the latency run');
  const hours = options.apiMinutes / 60;
  return {
    mode: options.mode,
    read,
    invocations: billed.length,
    billedSecondsPerHour: billed.reduce((a, b) => a + b, 0) / 1000 / hours,
    requestsPerMinute: api.statuses.length / options.apiMinutes,
    apiMinutes: options.apiMinutes,
    alerts: latencies.length,
    meanSeconds: latencies.reduce((a, b) => a + b, 0) / latencies.length,
    p50Seconds: percentile(latencies, 0.5),
    p90Seconds: percentile(latencies, 0.9),
    maxSeconds: latencies.at(-1)!,
  };
}

interface Drive {
  clock: ScaledClock;
  startAt: number;
  endAt: number;
  /** One invocation running one cycle. */
  cycle(deadlineMs?: number): Promise<CycleSummary>;
}

async function driveSchedule({ clock, startAt, endAt, cycle }: Drive): Promise<void> {
  for (let invokeAt = startAt; invokeAt < endAt; invokeAt += SCHEDULE_MS) {
    const wait = invokeAt - clock.now();
    if (wait > 0) await clock.sleep(wait);
    await cycle();
  }
}

/** The watchdog's first tick starts the loop; each turn works the delay less its margin, and the queue shows its message again for the next. */
async function driveLoop({ clock, startAt, endAt, cycle }: Drive, mode: { delaySeconds: number; pickupMs?: number }): Promise<void> {
  const loop = { queueUrl: '', delaySeconds: mode.delaySeconds, turnSeconds: loopTurnSeconds(mode.delaySeconds) };
  for (let turnAt = startAt; turnAt < endAt; ) {
    const wait = turnAt - clock.now();
    if (wait > 0) await clock.sleep(wait);
    const startedAt = clock.now();
    const summary = await cycle(startedAt + loop.turnSeconds * 1000);
    const delay = nextTurnDelaySeconds(loop, summary.stoppedBecause === 'caught-up', clock.now() - startedAt);
    turnAt = clock.now() + delay * 1000 + (mode.pickupMs ?? LOOP_PICKUP_MS);
  }
}

/**
 * The schedule's ticks, and a ring `pushDelayMs` after each block: a ring starts a cycle at once, one during a
 * cycle sets one follow-up after it (the doorbell's reserved concurrency of 1 and its run lease).
 */
async function driveDoorbell({ clock, startAt, endAt, cycle }: Drive, minedAt: ReadonlyMap<number, number>, pushDelayMs: number): Promise<void> {
  const rung = new Set<number>();
  for (let tickAt = startAt; clock.now() < endAt; ) {
    const due = [...minedAt].filter(([height, at]) => !rung.has(height) && at + pushDelayMs <= clock.now());
    const tick = clock.now() >= tickAt;
    if (!tick && due.length === 0) {
      await clock.sleep(RING_STEP_MS);
      continue;
    }
    for (const [height] of due) rung.add(height);
    if (tick) tickAt += SCHEDULE_MS;
    await cycle();
  }
}

const modeName = (mode: LatencyRow['mode']) =>
  mode.kind === 'schedule'
    ? '1-minute schedule'
    : mode.kind === 'doorbell'
      ? `1-minute schedule + doorbell, rung ${mode.pushDelayMs / 1000} s after each block`
      : mode.pickupMs === undefined
        ? `loop, a turn every ${mode.delaySeconds} s (SQS delay)`
        : `loop, a turn every ${mode.delaySeconds} s, if the pickup took ${mode.pickupMs / 1000} s`;

export function latencySection(rows: LatencyRow[]): string {
  return [
    `### Alert latency: the schedule and the loop`,
    '',
    'From a block being mined to its alert being published. Blocks every 4 to 12 s, one watched transfer each; the fake API enforcing 50 requests a minute; time-scaled (an API minute lasts 2 real seconds). ' +
      'Schedule: invocations every 60 s. Loop (`latency=loop`, docs/latency.md): the first tick starts it, each turn runs one cycle (working the delay less 3 s at most) and leaves its message for the queue to show again for the next ' +
      `so that turns start every \`loopDelaySeconds\` (at once while behind the tip), each picked up ${LOOP_PICKUP_MS} ms after its delay runs out (SQS and the event source's long poll, assumed: no AWS here to measure it; ` +
      'the "if the pickup took" rows show the p90 if it took longer). ' +
      `Doorbell (docs/doorbell.md): the schedule's ticks, and a ring a stated push delay after each block (the push source's own delay), heard within ${RING_STEP_MS} ms, one cycle at a time (a ring during a cycle sets one follow-up). ` +
      "Billed: what the invocations would be billed for, per hour, on the scaled clock (local work counts 30 times over, so short turns are over-stated; table 5 has the bill's figure). " +
      "A turn's local work runs at this machine's speed on the scaled clock, with the fake API in the same process, not stretched to the function's share of a vCPU as table 5 times it (table 5 gives a turn's own CPU and how long it lasts at 256 and at 128 MB). " +
      'Goal: p90 at most 10 s. ' +
      READ_COLUMN_NOTE,
    '',
    table(
      ['mode', 'read', 'API minutes', 'alerts', 'mean', 'p50', 'p90', 'max', 'goal', 'invocations', 'billed s an hour', 'API requests a minute'],
      rows.map((r) => [
        modeName(r.mode),
        waysCell(r.read),
        fixed(r.apiMinutes, 0),
        r.alerts,
        `${fixed(r.meanSeconds, 1)} s`,
        `${fixed(r.p50Seconds, 1)} s`,
        `${fixed(r.p90Seconds, 1)} s`,
        `${fixed(r.maxSeconds, 1)} s`,
        verdict(r.p90Seconds <= 10),
        r.invocations,
        fixed(r.billedSecondsPerHour, 0),
        fixed(r.requestsPerMinute, 1),
      ]),
    ),
  ].join('\n');
}
