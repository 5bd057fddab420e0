// Benchmark 5: what one watch cycle costs on AWS. The real cycle runs with the DynamoDB store on dynalite
// (capacity units as DynamoDB counts them), the SNS publisher on a metered client, and the Hiro client
// paced for 50 requests a minute (no key) against the fake API. Time runs on an event clock: rate-limit
// waits and assumed round trips (Hiro 100 ms, DynamoDB 5 ms, SNS 30 ms) are timers that overlap as they
// would (requests in parallel wait together), local work is measured, so a cycle's duration is what the
// function would be billed for.
import { SMS_PER_RUN_DEFAULT, SmsBudget } from '../lambda/core/deliver/sms-budget';
import { LOOP_SMS_MINUTE_MS } from '../lambda/core/deliver/sms-minute';
import { operatorChannelOverLog } from '../lambda/core/deliver/operator-log';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { runCycle } from '../lambda/core/cycle';
import type { WatchConfig } from '../lambda/core/watch-config/watch-config-schema';
import { createDynamoStateStore } from '../lambda/adapters/dynamodb';
import { createSnsPublisher } from '../lambda/adapters/sns';
import { contractCall, fakeAddress, fakeContractId, FakeChain } from '../test/support/fake-hiro';
import { startDynalite, type LocalDynamo } from '../test/support/dynalite';
import { emptyUsage, meterDynamo, meteredSns, type AwsUsage } from './aws-meters';
import { watchConfig, type Workload } from './mainnet-workload';
import { EventClock } from './event-clock';
import { CapturedTelemetry } from './run-telemetry';
import { startFakeApi } from './watcher-harness';
import { BenchLoop, invocation } from './loop-turn';

export const MEMORY_GB = 256 / 1024;
export const HIRO_LATENCY_MS = 100;
/** Blocks a run following the tip finds: about 10 a minute on mainnet since Nakamoto, at a 1-minute schedule. */
export const FOLLOWING_BLOCKS = 10;
/** Goal for such a run's billed time. */
export const FOLLOWING_RUN_GOAL_MS = 3_000;
const TOPIC_ARN = 'arn:aws:sns:us-east-1:123456789012:stacks-watch-alerts';
const CYCLES = 5;

export interface CycleCost {
  scenario: string;
  blocksPerCycle: number;
  alertsPerCycle: number;
  requestsPerCycle: number;
  durationMs: number;
  gbSeconds: number;
  readUnits: number;
  writeUnits: number;
  /** Write units a cycle by the kind of item written (cursor and lease, block stretches, alert records...). */
  writeUnitsByItem: Record<string, number>;
  snsMessages: number;
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
}

export const DEFAULT_CYCLE_OPTIONS: CycleOptions = { requestsPerMinute: 50, detailedMetrics: false };

export interface CycleCosts {
  idle: CycleCost;
  following: CycleCost;
  withAlerts: CycleCost;
  /** One loop turn's cycle (a poll a few seconds after the last): two new blocks, no status check. */
  poll: CycleCost;
  perAlert: { gbSeconds: number; readUnits: number; writeUnits: number; snsMessages: number };
  /** One poll with a pending rule (docs/pending.md), new transactions waiting in the mempool at each. */
  pollPending: CycleCost;
  /** One doorbell ring's cycle: one new block, under the run lease. */
  ring: CycleCost;
  /** The alerting cycles again with a window over one of their rules (docs/windows.md): its counts ride on the cursor write. */
  withWindow: CycleCost;
  /** Write units per alert with that window: (its cycle less the quiet one) per alert, window crossings included. */
  windowWriteUnitsPerAlert: number;
}

interface Scenario {
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
}

/** New waiting transactions a poll finds on a busy chain: the pending rule's record changes every poll. */
const WAITING_PER_POLL = 3;

async function measureScenario(dynamo: LocalDynamo, workload: Workload, scenario: Scenario, options: CycleOptions): Promise<CycleCost> {
  const clock = new EventClock();
  const usage = emptyUsage();
  const chain = new FakeChain({ seed: 'bench-cost' });
  let next = 0;
  const mine = (count: number) => {
    for (let i = 0; i < count; i += 1) chain.mine(workload.blocks[next++]!);
  };
  mine(1);
  const api = await startFakeApi(chain);
  const client: DynamoDBClient = dynamo.newClient();
  meterDynamo(client, usage, clock);
  const sns = meteredSns(usage, clock);
  const tableName = await dynamo.createTable(`cost-${scenario.name.replace(/\W+/g, '-')}-${options.requestsPerMinute}-${options.detailedMetrics ? 'd' : 'l'}`);
  const captured = new CapturedTelemetry(options.detailedMetrics);
  const state = createDynamoStateStore({ client, tableName, network: 'mainnet' });
  const publisher = createSnsPublisher({ client: sns.client, topicArn: TOPIC_ARN });
  const loop = scenario.loopTurn ? new BenchLoop(state, clock) : undefined;
  try {
    let totals = { ...emptyUsage(), durationMs: 0, alerts: 0, requests: 0, blocks: 0, logBytes: 0, quietTurnLogBytes: 0, emfBytes: 0, seriesSent: 0 };
    const series = new Set<string>();
    const deprecationsNoticed = new Set<string>();
    const byItem: Record<string, number> = {};
    for (let cycle = 0; cycle <= CYCLES; cycle += 1) {
      if (cycle > 0) mine(scenario.blocksPerCycle);
      for (let i = 0; i < (scenario.waitingPerCycle ?? 0); i += 1) {
        chain.submit(contractCall({ contractId: fakeContractId('busy-dex'), sender: fakeAddress(`waiting-${cycle}-${i}`) }));
      }
      // A new Hiro client per cycle, as each invocation builds one: its pacing starts afresh.
      const chainApi = api.client({
        requestsPerMinute: options.requestsPerMinute,
        now: clock.now,
        sleep: clock.sleep,
        fetch: clock.fetchWithLatency(HIRO_LATENCY_MS),
      });
      const before = { ...usage, writeUnitsByItem: { ...usage.writeUnitsByItem }, at: clock.now(), requests: api.fake.count() };
      const { telemetry } = captured;
      captured.start();
      // As the handler runs an invocation: alerts past its texts are held for one SMS digest at its end.
      const ports = { state, clock, telemetry, operator: operatorChannelOverLog(telemetry) };
      const sms = new SmsBudget(publisher, ports, {
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
          // One warm container runs the scenario's cycles, as the handler's module keeps it.
          deprecationsNoticed,
          checkStatuses: scenario.checkStatuses ?? true,
        }),
      ).catch((error: unknown) => {
        captured.stop();
        throw error;
      });
      const sent = captured.finish(summary, chainApi.stats());
      if (cycle === 0) continue; // the first cycle only places the cursor
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
        durationMs: totals.durationMs + clock.now() - before.at,
        alerts: totals.alerts + summary.alertsPublished,
        requests: totals.requests + api.fake.count() - before.requests,
        blocks: totals.blocks + summary.blocksScanned,
        logBytes: totals.logBytes + sent.logBytes,
        quietTurnLogBytes: totals.quietTurnLogBytes + sent.quietTurnLogBytes,
        emfBytes: totals.emfBytes + sent.emfBytes,
        seriesSent: totals.seriesSent + sent.metricSeries.length,
      };
    }
    const durationMs = totals.durationMs / CYCLES;
    return {
      scenario: scenario.name,
      blocksPerCycle: totals.blocks / CYCLES,
      alertsPerCycle: totals.alerts / CYCLES,
      requestsPerCycle: totals.requests / CYCLES,
      durationMs,
      gbSeconds: (durationMs / 1000) * MEMORY_GB,
      readUnits: totals.readUnits / CYCLES,
      writeUnits: totals.writeUnits / CYCLES,
      writeUnitsByItem: Object.fromEntries(
        Object.entries(byItem)
          .filter(([, units]) => units > 0)
          .map(([kind, units]) => [kind, units / CYCLES]),
      ),
      snsMessages: totals.snsMessages / CYCLES,
      logBytes: totals.logBytes / CYCLES,
      quietTurnLogBytes: totals.quietTurnLogBytes / CYCLES,
      emfBytes: totals.emfBytes / CYCLES,
      metricSeriesPerRun: totals.seriesSent / CYCLES,
      metricSeries: [...series].sort(),
    };
  } finally {
    sns.restore();
    await api.server.close();
  }
}

export async function measureCycleCosts(workload: Workload, options: CycleOptions = DEFAULT_CYCLE_OPTIONS): Promise<CycleCosts> {
  const dynamo = await startDynalite();
  try {
    const alerting = watchConfig('both', workload, 'latest');
    // The same scan (events fetched for the same transactions) with nothing that ever matches.
    const quiet: WatchConfig = {
      ...alerting,
      addresses: [fakeAddress('nobody-watched')],
      contractLogs: [{ contractId: fakeContractId('never-called') }],
      transfers: [],
    };
    const idle = await measureScenario(dynamo, workload, { name: 'tip unchanged', config: quiet, blocksPerCycle: 0 }, options);
    const following = await measureScenario(dynamo, workload, { name: '10 new blocks, no alert', config: quiet, blocksPerCycle: FOLLOWING_BLOCKS }, options);
    const withAlerts = await measureScenario(
      dynamo,
      workload,
      { name: '10 new blocks with alerts', config: alerting, blocksPerCycle: FOLLOWING_BLOCKS },
      options,
    );
    // A loop turn (a "poll": a cycle a few seconds after the last) checks no contract status: the loop checks them
    // in about one turn a minute (lambda/runtime/loop-invocation.ts, statusesDue); the bill prices that once a minute.
    const poll = await measureScenario(
      dynamo,
      workload,
      { name: 'one poll: 2 new blocks', config: quiet, blocksPerCycle: 2, checkStatuses: false, loopTurn: true },
      options,
    );
    // A doorbell ring (docs/doorbell.md): one cycle under the run lease, a block after the last, no status check.
    const ring = await measureScenario(
      dynamo,
      workload,
      { name: 'one doorbell ring: 1 new block', config: quiet, blocksPerCycle: 1, checkStatuses: false },
      options,
    );
    // The same poll with a pending rule on a vault nobody calls: the mempool read and its record, nothing alerted.
    const pending: WatchConfig = { ...quiet, calls: [{ contractId: fakeContractId('quiet-vault'), functions: ['set-owner'], status: 'any', pending: true }] };
    const pollPending = await measureScenario(
      dynamo,
      workload,
      {
        name: `one poll with a pending rule: 2 new blocks, ${WAITING_PER_POLL} new waiting`,
        config: pending,
        blocksPerCycle: 2,
        waitingPerCycle: WAITING_PER_POLL,
        checkStatuses: false,
        loopTurn: true,
      },
      options,
    );
    // The same alerts, the watched deposits also counted by an hour-long window.
    const windowed: WatchConfig = {
      ...alerting,
      addressesRule: { name: 'watched deposits' },
      windows: [{ name: 'deposit burst', of: 'watched deposits', minutes: 60, count: 25 }],
    };
    const withWindow = await measureScenario(
      dynamo,
      workload,
      { name: '10 new blocks with alerts and a window', config: windowed, blocksPerCycle: FOLLOWING_BLOCKS },
      options,
    );
    const alerts = withAlerts.alertsPerCycle;
    const per = (key: 'gbSeconds' | 'readUnits' | 'writeUnits' | 'snsMessages') => (withAlerts[key] - following[key]) / alerts;
    return {
      idle,
      following,
      withAlerts,
      poll,
      pollPending,
      ring,
      perAlert: { gbSeconds: per('gbSeconds'), readUnits: per('readUnits'), writeUnits: per('writeUnits'), snsMessages: per('snsMessages') },
      withWindow,
      windowWriteUnitsPerAlert: (withWindow.writeUnits - following.writeUnits) / withWindow.alertsPerCycle,
    };
  } finally {
    await dynamo.close();
  }
}
