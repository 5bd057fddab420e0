// Alert latency: from the moment a block is mined to the moment its alert is published, on the plain 1-minute
// schedule and with polling inside the invocation. Time-scaled: blocks come every 4 to 12 API seconds, the
// fake API enforces 50 requests a minute, and the client paces itself on the same scaled clock.
import { pollWhileCaughtUp } from '../lambda/runtime/poll-loop';
import type { WatchConfig } from '../lambda/core/watch-config/watch-config-schema';
import { contractCall, coinbase, FakeChain, fakeAddress, fakeContractId, transfer } from '../test/support/fake-hiro';
import { seededRandom } from './prng';
import { cycleDeps, memoryState, runOneCycle, ScaledClock, startFakeApi, TimedPublisher } from './watcher-harness';
import { emptyWatchConfig } from '../lambda/config/watch-config';

const SCHEDULE_MS = 60_000;

export interface LatencyRow {
  pollSeconds: number;
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

export async function measureAlertLatency(options: { pollSeconds: number; apiMinutes: number; timeScale: number; rpm?: number }): Promise<LatencyRow> {
  const clock = new ScaledClock(options.timeScale);
  const rpm = options.rpm ?? 50;
  const chain = new FakeChain({ seed: `bench-latency-${options.pollSeconds}` });
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
  const state = memoryState();
  const published: TimedPublisher['published'] = [];
  try {
    for (let invokeAt = startAt; invokeAt < endAt; invokeAt += SCHEDULE_MS) {
      const wait = invokeAt - clock.now();
      if (wait > 0) await clock.sleep(wait);
      const deps = cycleDeps(api.client({ requestsPerMinute: rpm, now: clock.now, sleep: clock.sleep }), clock, state);
      await pollWhileCaughtUp(
        () => runOneCycle(deps, config),
        () => runOneCycle(deps, { ...config, contracts: [] }),
        { intervalMs: options.pollSeconds * 1000, deadlineMs: invokeAt + SCHEDULE_MS, now: clock.now, sleep: clock.sleep },
      );
      published.push(...deps.publisher.published);
    }
  } finally {
    await producer;
    await api.server.close();
  }
  const latencies = published
    .filter(({ alert }) => alert.type === 'token_transfer' && minedAt.has(alert.block_height))
    .map(({ alert, atMs }) => (atMs - minedAt.get((alert as { block_height: number }).block_height)!) / 1000)
    .sort((a, b) => a - b);
  if (latencies.length === 0) throw new Error('no alert was published in the latency run');
  return {
    pollSeconds: options.pollSeconds,
    apiMinutes: options.apiMinutes,
    alerts: latencies.length,
    meanSeconds: latencies.reduce((a, b) => a + b, 0) / latencies.length,
    p50Seconds: percentile(latencies, 0.5),
    p90Seconds: percentile(latencies, 0.9),
    maxSeconds: latencies.at(-1)!,
  };
}
