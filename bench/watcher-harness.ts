// What every benchmark run of the watcher needs: the fake Hiro API serving a chain, the real Hiro client
// pointed at it, an in-memory state store and a publisher that only counts, and clocks that either follow
// real time scaled down (rate-limit runs) or are driven by the benchmark (simulated schedules).
import { operatorChannelOverLog } from '../lambda/core/deliver/operator-log';
import { runCycle } from '../lambda/core/cycle';
import type { CycleBudget, CycleDeps, CycleSummary } from '../lambda/core/cycle-types';
import type { OutgoingAlert } from '../lambda/core/deliver/outgoing-alert';
import type { WatchConfig } from '../lambda/core/watch-config/watch-config-schema';
import { silentTelemetry, type Clock, type PublishOutcome, type Publisher, type StateStore } from '../lambda/core/ports';
import { DocumentStateStore, emptyDocument } from '../lambda/adapters/file/state-document';
import { runnerMemory, type RunnerMemory } from '../lambda/core/runner-memory';
import { createHiroClient, routeMemory, type HiroClient, type HiroClientOptions, type RouteMemory } from '../lambda/hiro';
import { createFakeHiro, type FakeChain, type FakeHiro, type FakeRateLimitOptions, type RunningFakeHiro } from '../test/support/fake-hiro';
import { DEFAULT_FETCH_WAY } from './fetch-ways';

/** No pacing at all: for runs that count requests rather than time them. */
export const UNPACED_RPM = 10_000_000;

export interface FakeApi {
  fake: FakeHiro;
  server: RunningFakeHiro;
  /** Every answer's status as the client saw it (429s included). */
  statuses: number[];
  client(options?: Omit<HiroClientOptions, 'baseUrl'>): HiroClient;
}

export async function startFakeApi(chain: FakeChain, rateLimit?: FakeRateLimitOptions): Promise<FakeApi> {
  const fake = createFakeHiro({ chain, ...(rateLimit ? { rateLimit } : {}) });
  const server = await fake.start();
  const statuses: number[] = [];
  return {
    fake,
    server,
    statuses,
    client: (options = {}) =>
      createHiroClient({
        requestsPerMinute: UNPACED_RPM,
        ...options,
        baseUrl: server.url,
        onRequest: (event) => {
          if (typeof event.status === 'number') statuses.push(event.status);
          options.onRequest?.(event);
        },
      }),
  };
}

/** Publishes nothing, remembers when each alert would have gone out. */
export class TimedPublisher implements Publisher {
  readonly published: { alert: OutgoingAlert['alert']; atMs: number }[] = [];

  constructor(private readonly clock: Clock) {}

  async publish(alerts: readonly OutgoingAlert[]): Promise<PublishOutcome> {
    const atMs = this.clock.now();
    for (const { alert } of alerts) this.published.push({ alert, atMs });
    return { failed: [], undeliverable: [] };
  }
}

export function memoryState(): StateStore {
  return new DocumentStateStore(emptyDocument('mainnet'));
}

export function cycleDeps(chain: HiroClient, clock: Clock, state = memoryState()): CycleDeps & { publisher: TimedPublisher } {
  return { chain, state, publisher: new TimedPublisher(clock), clock, telemetry: silentTelemetry, operator: operatorChannelOverLog(silentTelemetry) };
}

/**
 * What one simulated process keeps across its runs, as the handler's container does (lambda/handler.ts): what
 * every client it builds is given of the routes (found retired or missing) and what every cycle's budget is given
 * (core/runner-memory.ts). A benchmark of a warm container builds one and passes it to each run.
 */
export interface ProcessMemory {
  routes: RouteMemory;
  budget: RunnerMemory;
}

export function processMemory(): ProcessMemory {
  return { routes: routeMemory(), budget: runnerMemory() };
}

let runs = 0;

/**
 * One run of the real cycle. It reads the chain the way the runners do when told nothing (DEFAULT_FETCH_WAY)
 * unless `budget.fetchWay` names a way: the core alone, asked no way, keeps the block scan.
 */
export function runOneCycle(deps: CycleDeps, config: WatchConfig, budget: Partial<CycleBudget> = {}): Promise<CycleSummary> {
  runs += 1;
  return runCycle(deps, config, {
    runId: `bench-${runs}`,
    deadlineMs: deps.clock.now() + 3_600_000,
    leaseTtlMs: 3_600_000,
    alertStaleAfterMs: 3_600_000,
    fetchWay: DEFAULT_FETCH_WAY,
    ...budget,
  });
}

/**
 * API time running `1 / scale` times faster than real time, for the client's `now` and `sleep` and the fake's
 * rate-limit window alike (`scale` 0.05: a 60 s window lasts 3 real seconds).
 */
export class ScaledClock implements Clock {
  private readonly realStart = performance.now();

  constructor(
    readonly scale: number,
    private readonly apiStart = 1_780_000_000_000,
  ) {}

  readonly now = (): number => this.apiStart + (performance.now() - this.realStart) / this.scale;

  readonly sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms * this.scale)));

  /** API ms since the clock started. */
  elapsed(): number {
    return this.now() - this.apiStart;
  }
}

/**
 * A clock the benchmark moves by hand: simulated schedules jump from one poll to the next without waiting.
 * `sleep` moves it too, after running `onAdvance` (which mines the blocks that arrived meanwhile).
 */
export class SteppedClock implements Clock {
  private current: number;
  onAdvance: (toMs: number) => void = () => {};

  constructor(readonly startMs = 1_780_000_000_000) {
    this.current = startMs;
  }

  readonly now = (): number => this.current;

  advanceTo(ms: number): void {
    if (ms <= this.current) return;
    this.onAdvance(ms);
    this.current = ms;
  }

  readonly sleep = async (ms: number): Promise<void> => {
    this.advanceTo(this.current + Math.max(0, ms));
  };
}
