// How the cost benchmark measures a scenario's cycles. The real cycle runs with the DynamoDB store on dynalite
// (capacity units as DynamoDB counts them), the SNS publisher on a metered client, and the Hiro client
// paced for 50 requests a minute (no key) against the fake API. Time runs on an event clock: rate-limit
// waits and assumed round trips (Hiro 100 ms, DynamoDB 5 ms, SNS 30 ms) are timers that overlap as they
// would (requests in parallel wait together). The stand-ins (dynalite, the fake API) run in a child process
// (bench/stand-ins.ts), so this process's CPU over a cycle is the function's own work (the cycle, the SDK clients,
// parsing, logging), and the clock counts it stretched to the function's share of a vCPU (event-clock.ts,
// cpuStretch: 1,769 / memory MB, at least 1). A cycle's billed time is its waits on the critical path with each
// stretch of its own CPU work lasting as long as it would at the function's memory.
import { SMS_PER_RUN_DEFAULT, SmsBudget } from '../lambda/core/deliver/sms-budget';
import { LOOP_SMS_MINUTE_MS } from '../lambda/core/deliver/sms-minute';
import { operatorChannelOverLog } from '../lambda/core/deliver/operator-log';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { runCycle } from '../lambda/core/cycle';
import type { WatchConfig } from '../lambda/core/watch-config/watch-config-schema';
import type { Publisher, StateStore } from '../lambda/core/ports';
import { createDynamoStateStore } from '../lambda/adapters/dynamodb';
import { createSnsPublisher } from '../lambda/adapters/sns';
import { contractCall, fakeAddress, fakeContractId } from '../test/support/fake-hiro';
import { emptyUsage, meterDynamo, meteredSns, type AwsUsage } from './aws-meters';
import type { Workload } from './mainnet-workload';
import { cpuStretch, EventClock } from './event-clock';
import { CapturedTelemetry } from './run-telemetry';
import type { ChildApi, StandIns } from './stand-ins';
import { routeMemory, type RouteMemory } from '../lambda/hiro';
import { BenchLoop, invocation } from './loop-turn';
import { loopTurnSeconds } from '../lambda/core/scan/loop-turns';
import { DEFAULT_LOOP_DELAY_SECONDS } from '../infra/settings/latency-settings';
import { countWay, DEFAULT_FETCH_WAY, waysAsked, type WaysTaken } from './fetch-ways';
import type { FetchWay } from '../lambda/core/follow/fetch-choice';

/** The function's memory when the options name none: the stack's default. */
export const DEFAULT_MEMORY_MB = 256;
export const MEMORY_GB = DEFAULT_MEMORY_MB / 1024;
export const HIRO_LATENCY_MS = 100;
const TOPIC_ARN = 'arn:aws:sns:us-east-1:123456789012:stacks-watch-alerts';
/** Cycles measured a scenario, unless told otherwise (a test of the benchmark's code asks for one). */
const CYCLES = 5;

export interface CycleCost {
  scenario: string;
  /** The way the measured cycles were asked to read the chain and the ways they took (absent in figures not measured). */
  read?: WaysTaken;
  blocksPerCycle: number;
  alertsPerCycle: number;
  requestsPerCycle: number;
  /** The function's own CPU a cycle (user + system), on this machine's core. */
  cpuMs: number;
  /** What the stand-ins (dynalite, the fake API) spent answering a cycle: not the function's work (absent in figures not measured). */
  standInsCpuMs?: number;
  /** The memory the cycle was timed at: its CPU stretched to that share of a vCPU. */
  memoryMb: number;
  /** Billed time: the waits on the critical path, the CPU work stretched at `memoryMb`. */
  durationMs: number;
  gbSeconds: number;
  readUnits: number;
  writeUnits: number;
  /** Write units a cycle by the kind of item written (cursor and lease, block stretches, alert records...). */
  writeUnitsByItem: Record<string, number>;
  snsMessages: number;
  /** A loop turn's SQS requests, as the handler's hand-on makes them (absent for a scheduled run, and in figures not measured). */
  sqsRequestsPerTurn?: number;
  /** CloudWatch Logs bytes of one invocation running this cycle: its log lines and EMF records (Lambda's own lines are the bill's: platformLogBytes). */
  logBytes: number;
  /** The same as a quiet loop turn outside its minute (invocation line at debug, no EMF record). */
  quietTurnLogBytes: number;
  /** The EMF records' bytes, which a quiet loop turn sends once a minute. */
  emfBytes: number;
  /** Metric series one invocation sends, on average. */
  metricSeriesPerRun: number;
  /** Every series sent across the cycles (name|dimension=value). */
  metricSeries: string[];
}

/** How the measured cycles run: the client's pace (50 a minute without a key, 500 with) and the metrics sent. */
export interface CycleOptions {
  requestsPerMinute: number;
  detailedMetrics: boolean;
  /** Cycles measured a scenario after the one that places the cursor (default CYCLES). */
  cycles?: number;
  /** The function's memory, which sets its share of a vCPU (default DEFAULT_MEMORY_MB). */
  memoryMb?: number;
}

export interface Scenario {
  name: string;
  config: WatchConfig;
  /** Blocks mined before each measured cycle. */
  blocksPerCycle: number;
  /** Transactions put in the mempool before each measured cycle (none a pending rule matches). */
  waitingPerCycle?: number;
  /** false: the cycles check no contract status (a loop turn between two due checks). */
  checkStatuses?: boolean;
  /** The cycles are a loop's turns, taken as the Lambda takes them (loop-turn.ts). */
  loopTurn?: boolean;
  /** How the cycles read the chain: as the runners do by default (DEFAULT_FETCH_WAY) when absent. */
  fetchWay?: FetchWay;
}

/** What a scenario's cycles run against: a fake chain behind the fake API, the state on dynalite, SNS and DynamoDB metered. */
interface ScenarioBench {
  clock: EventClock;
  usage: AwsUsage;
  /** The fake API over the scenario's chain, in the stand-ins' process. */
  api: ChildApi;
  /** Mines the workload's next `count` blocks. */
  mine(count: number): Promise<void>;
  state: StateStore;
  publisher: Publisher;
  captured: CapturedTelemetry;
  loop: BenchLoop | undefined;
  /** What the warm container keeps of the API's routes across the clients it builds, as the handler does. */
  routes: RouteMemory;
  /** Puts the SNS client back as it was. */
  restoreSns(): void;
}

/** The sums over the measured cycles, each divided by their count in the end. */
type Totals = AwsUsage & {
  cpuMs: number;
  standInsCpuMs: number;
  durationMs: number;
  alerts: number;
  requests: number;
  blocks: number;
  logBytes: number;
  quietTurnLogBytes: number;
  emfBytes: number;
  seriesSent: number;
};

/** A scenario's cycles, averaged: the first only places the cursor, the next `options.cycles` (CYCLES) are measured. */
export async function measureScenario(standIns: StandIns, workload: Workload, scenario: Scenario, options: CycleOptions): Promise<CycleCost> {
  const bench = await benchFor(standIns, workload, scenario, options);
  const { usage, clock, api } = bench;
  try {
    let totals: Totals = {
      ...emptyUsage(),
      cpuMs: 0,
      standInsCpuMs: 0,
      durationMs: 0,
      alerts: 0,
      requests: 0,
      blocks: 0,
      logBytes: 0,
      quietTurnLogBytes: 0,
      emfBytes: 0,
      seriesSent: 0,
    };
    const series = new Set<string>();
    // One warm container runs the scenario's cycles, as the handler's module keeps it.
    const deprecationsNoticed = new Set<string>();
    const byItem: Record<string, number> = {};
    const read = waysAsked(scenario.fetchWay ?? DEFAULT_FETCH_WAY);
    const cycles = options.cycles ?? CYCLES;
    for (let cycle = 0; cycle <= cycles; cycle += 1) {
      if (cycle > 0) await bench.mine(scenario.blocksPerCycle);
      const waiting = Array.from({ length: scenario.waitingPerCycle ?? 0 }, (_, i) =>
        contractCall({ contractId: fakeContractId('busy-dex'), sender: fakeAddress(`waiting-${cycle}-${i}`) }),
      );
      if (waiting.length > 0) await api.submit(waiting);
      const requests = await api.requests();
      const standInsCpu = await standIns.cpuMs();
      const before = { ...usage, writeUnitsByItem: { ...usage.writeUnitsByItem }, at: clock.now(), requests };
      const cpu = process.cpuUsage();
      const { summary, sent } = await runInvocation(bench, scenario, options, cycle, deprecationsNoticed);
      const { user, system } = process.cpuUsage(cpu);
      const at = clock.now();
      if (cycle === 0) continue; // the first cycle only places the cursor
      countWay(read, summary);
      for (const name of sent.metricSeries) series.add(name);
      for (const [kind, units] of Object.entries(usage.writeUnitsByItem)) {
        byItem[kind] = (byItem[kind] ?? 0) + units - (before.writeUnitsByItem[kind] ?? 0);
      }
      totals = {
        ...totals,
        dynamoCalls: totals.dynamoCalls + usage.dynamoCalls - before.dynamoCalls,
        readUnits: totals.readUnits + usage.readUnits - before.readUnits,
        writeUnits: totals.writeUnits + usage.writeUnits - before.writeUnits,
        snsCalls: totals.snsCalls + usage.snsCalls - before.snsCalls,
        snsMessages: totals.snsMessages + usage.snsMessages - before.snsMessages,
        sqsRequests: totals.sqsRequests + usage.sqsRequests - before.sqsRequests,
        cpuMs: totals.cpuMs + (user + system) / 1000,
        standInsCpuMs: totals.standInsCpuMs + (await standIns.cpuMs()) - standInsCpu,
        durationMs: totals.durationMs + at - before.at,
        alerts: totals.alerts + summary.alertsPublished,
        requests: totals.requests + (await api.requests()) - before.requests,
        blocks: totals.blocks + summary.blocksScanned,
        logBytes: totals.logBytes + sent.logBytes,
        quietTurnLogBytes: totals.quietTurnLogBytes + sent.quietTurnLogBytes,
        emfBytes: totals.emfBytes + sent.emfBytes,
        seriesSent: totals.seriesSent + sent.metricSeries.length,
      };
    }
    return { ...averageCycle(scenario.name, cycles, options.memoryMb ?? DEFAULT_MEMORY_MB, totals, byItem, series), read };
  } finally {
    bench.restoreSns();
    await api.close();
  }
}

/** The fake chain (its first block mined), the fake API over it, and a fresh table of the metered store for the scenario. */
async function benchFor(standIns: StandIns, workload: Workload, scenario: Scenario, options: CycleOptions): Promise<ScenarioBench> {
  const clock = new EventClock({ cpuStretch: cpuStretch(options.memoryMb ?? DEFAULT_MEMORY_MB) });
  const usage = emptyUsage();
  const api = await standIns.startChain('bench-cost');
  let next = 0;
  const mine = (count: number) => {
    next += count;
    return api.mine(workload.blocks.slice(next - count, next));
  };
  await mine(1);
  const client: DynamoDBClient = standIns.newDynamoClient();
  meterDynamo(client, usage, clock);
  const sns = meteredSns(usage, clock);
  const tableName = await standIns.createTable(
    `cost-${scenario.name.replace(/\W+/g, '-')}-${options.requestsPerMinute}-${options.detailedMetrics ? 'd' : 'l'}`,
  );
  const captured = new CapturedTelemetry(options.detailedMetrics);
  const state = createDynamoStateStore({ client, tableName, network: 'mainnet' });
  const publisher = createSnsPublisher({ client: sns.client, topicArn: TOPIC_ARN });
  const loopSettings = { queueUrl: '', delaySeconds: DEFAULT_LOOP_DELAY_SECONDS, turnSeconds: loopTurnSeconds(DEFAULT_LOOP_DELAY_SECONDS) };
  const loop = scenario.loopTurn ? new BenchLoop(state, clock, { loop: loopSettings, count: usage }) : undefined;
  return { clock, usage, api, mine, state, publisher, captured, loop, routes: routeMemory(), restoreSns: () => sns.restore() };
}

/** One invocation as the handler runs it, its cycle (or loop turn) inside: what it did and what its telemetry sent. */
async function runInvocation(bench: ScenarioBench, scenario: Scenario, options: CycleOptions, cycle: number, deprecationsNoticed: Set<string>) {
  const { clock, captured, state, loop } = bench;
  // A new Hiro client per cycle, as each invocation builds one: its pacing starts afresh, its route memory is the container's.
  const chainApi = bench.api.client({
    ...bench.routes,
    requestsPerMinute: options.requestsPerMinute,
    now: clock.now,
    sleep: clock.sleep,
    get: clock.getWithLatency(HIRO_LATENCY_MS),
  });
  const { telemetry } = captured;
  captured.start();
  // As the handler runs an invocation: alerts past its texts are held for one SMS digest at its end.
  const ports = { state, clock, telemetry, operator: operatorChannelOverLog(telemetry) };
  const sms = new SmsBudget(bench.publisher, ports, {
    network: scenario.config.network,
    perInvocation: SMS_PER_RUN_DEFAULT,
    staleAfterMs: 120_000,
    minuteMs: loop ? LOOP_SMS_MINUTE_MS : 0,
  });
  const summary = await invocation(sms, loop, `cost-${cycle}`, (turn) =>
    runCycle({ chain: chainApi, publisher: sms, ...ports }, scenario.config, {
      ...turn,
      runId: `cost-${cycle}`,
      deadlineMs: clock.now() + 105_000,
      leaseTtlMs: 120_000,
      alertStaleAfterMs: 120_000,
      deprecationsNoticed,
      checkStatuses: scenario.checkStatuses ?? true,
      fetchWay: scenario.fetchWay ?? DEFAULT_FETCH_WAY,
    }),
  ).catch((error: unknown) => {
    captured.stop();
    throw error;
  });
  return { summary, sent: captured.finish(summary, chainApi.stats()) };
}

/** One cycle's cost: the measured cycles' sums divided by their count. */
function averageCycle(scenario: string, cycles: number, memoryMb: number, totals: Totals, byItem: Record<string, number>, series: Set<string>): CycleCost {
  const durationMs = totals.durationMs / cycles;
  return {
    scenario,
    blocksPerCycle: totals.blocks / cycles,
    alertsPerCycle: totals.alerts / cycles,
    requestsPerCycle: totals.requests / cycles,
    cpuMs: totals.cpuMs / cycles,
    standInsCpuMs: totals.standInsCpuMs / cycles,
    memoryMb,
    durationMs,
    gbSeconds: (durationMs / 1000) * (memoryMb / 1024),
    readUnits: totals.readUnits / cycles,
    writeUnits: totals.writeUnits / cycles,
    writeUnitsByItem: Object.fromEntries(
      Object.entries(byItem)
        .filter(([, units]) => units > 0)
        .map(([kind, units]) => [kind, units / cycles]),
    ),
    snsMessages: totals.snsMessages / cycles,
    ...(totals.sqsRequests > 0 ? { sqsRequestsPerTurn: totals.sqsRequests / cycles } : {}),
    logBytes: totals.logBytes / cycles,
    quietTurnLogBytes: totals.quietTurnLogBytes / cycles,
    emfBytes: totals.emfBytes / cycles,
    metricSeriesPerRun: totals.seriesSent / cycles,
    metricSeries: [...series].sort(),
  };
}
