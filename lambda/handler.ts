// The AWS composition root: EventBridge Scheduler invokes this every minute or few (and, in the loop mode,
// SQS every few seconds, docs/latency.md). It reads the environment,
// builds the adapters (Hiro client, DynamoDB state, SNS publisher and ops channel, Powertools telemetry) and runs the same
// watch cycle as the local runner, within the invocation's time.
import { S3Client } from '@aws-sdk/client-s3';
import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics } from '@aws-lambda-powertools/metrics';
import type { Context } from 'aws-lambda';
import { operatorChannelOverLog } from './core/deliver/operator-log';
import { runCycle } from './core/cycle';
import { runnerMemory } from './core/runner-memory';
import { SMS_PER_RUN_DEFAULT, SmsBudget, withDigests } from './core/deliver/sms-budget';
import { LOOP_SMS_MINUTE_MS } from './core/deliver/sms-minute';
import type { CycleBudget, CycleDeps, CycleSummary } from './core/cycle-types';
import { metAnotherRun, tokenAfterTurn, type TurnDecision } from './core/scan/loop-turns';
import type { WatchConfig } from './core/watch-config/watch-config-schema';
import type { OperatorChannel } from './core/ports';
import type { LiveConfig } from './config/live-watch-config';
import { balanceReadAllowance, contractStatusSweep, routeMemory, type HiroClient } from './hiro';
import { createSnsPublisher } from './adapters/sns';
import { createSnsOperatorChannel } from './adapters/sns/operator-topic';
import type { ApiSettings } from './runtime/api-env';
import { runClients } from './runtime/run-clients';
import { readLambdaSettings, type LambdaSettings, type LoopSettings } from './runtime/lambda-env';
import {
  batchResponse,
  beginTurn,
  failedTurnQueue,
  handOnTurn,
  isQueuedTurn,
  isQuietTurn,
  loopWorkMs,
  keepTurnMessage,
  nextTurn,
  reportFailedTurn,
  statusesDue,
  type LoopTurnRun,
  type TurnStart,
} from './runtime/loop-invocation';
import { judgeOnTick, leaveTickNotes, loopStoreFrom, tickWatchDeps, type TickJudgement, type TickPoint, type TickWatchDeps } from './runtime/tick-watch';
import { configLogFields, LambdaWatchConfig } from './runtime/lambda-watch-config';
import { containerAwsClients } from './runtime/aws-clients';
import { createPowertoolsTelemetry, recordApiStats, type PowertoolsTelemetry } from './runtime/powertools-telemetry';
import { isDoorbellRing } from './runtime/doorbell-ring';
import { readAheadBlocksFor } from './runtime/memory-bounds';
import { readApiKey } from './runtime/api-key';

/**
 * Stop starting blocks this long before a scheduled run (or a doorbell's) times out; a loop turn, in a function
 * timing out at the loop's delay, keeps loopTurnMarginMs instead.
 */
export const SAFETY_MARGIN_MS = 15_000;

// Built once per container and reused by every invocation. The SDK clients honour the standard
// AWS_ENDPOINT_URL_DYNAMODB / AWS_ENDPOINT_URL_SNS variables, so local stand-ins need no code change.
const logger = new Logger({ serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'stacks-watch' });
const metrics = new Metrics({
  serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'stacks-watch',
  namespace: process.env.POWERTOOLS_METRICS_NAMESPACE ?? 'StacksWatch',
});
// The container's DynamoDB document client, SNS and SQS clients, built once for all its invocations.
const { dynamo, sns, sqs } = containerAwsClients();
// The live watch config: read each run with a conditional GET (a quiet run costs one request, answered 304).
const watchConfigs = new LambdaWatchConfig({
  s3: () => new S3Client({}),
  doc: dynamo,
});

// What this container learns across its invocations, as a warm Lambda process keeps it: the day's deprecation
// notices seen sent, the per-subject routes found missing and how busy its runs found the subjects and blocks
// (every cycle's budget gets them), and the routes found retired or missing (every invocation's client gets them).
const learned = runnerMemory();
const routes = routeMemory();

export type InvocationResult = (CycleSummary | { loopTurnSkipped: TurnSkip }) & { batchItemFailures?: { itemIdentifier: string }[] };
type TurnSkip = Extract<TurnDecision, { run: false }>['why'];

/**
 * A queued turn answers the event source with the messages to show again (`ReportBatchItemFailures`): the
 * loop's recycled message; the others are deleted. Lambda reads `batchItemFailures` alone; the summary beside it
 * is for whoever calls the handler directly. A turn that throws fails its whole batch: its message comes back
 * after the delay its turn set, or after the queue's visibility timeout.
 */
export async function handler(event: unknown, context: Context): Promise<InvocationResult> {
  const kept: string[] = [];
  const result = await invocation(event, context, kept);
  return isQueuedTurn(event) ? { ...result, ...batchResponse(kept) } : result;
}

async function invocation(event: unknown, context: Context, kept: string[]): Promise<InvocationResult> {
  const startedAt = Date.now();
  const timeLeftMs = context.getRemainingTimeInMillis();
  logger.addContext(context);
  logger.appendKeys({ runId: context.awsRequestId });
  let chain: HiroClient | undefined;
  let telemetry: PowertoolsTelemetry | undefined;
  // False for a quiet loop turn outside its minute's first seconds (isQuietTurn).
  let quietTurnSendsMetrics = true;
  // A schedule tick (not a queued turn) judges the watcher's progress when it ends, failed or not.
  let watch: TickWatchDeps | undefined;
  const judged: TickJudgement = { nowMs: startedAt };
  let failuresTo: string | undefined;
  try {
    const settings = readLambdaSettings(process.env);
    failuresTo = failedTurnQueue(event, settings.loop);
    // The cold-start series is one more metric billed for each hour with a cold start: detailed mode only.
    if (settings.detailedMetrics) metrics.captureColdStartMetric(context.functionName);
    // A queued loop turn asks no config store: it holds its container's config (below, the flag on its read).
    const queued = settings.loop !== undefined && isQueuedTurn(event);
    const run = await composeRun(settings, startedAt, timeLeftMs, queued);
    ({ chain, telemetry } = run);
    const { apiSettings, deadlineMs, ports } = run;
    // A doorbell ring only looks now; the schedule's tick alone judges stalls.
    watch = !isQueuedTurn(event) && !isDoorbellRing(event) ? tickWatchDeps(settings.lagLimitSeconds, run) : undefined;
    // The loop's watchdog reads the cursor item once: the heartbeat and the watch point together.
    const point = settings.loop && watch ? await ports.state.readWatchPoint() : undefined;
    // The tick's notes for the turns, written when one changed: the version the store gave it, an SMS digest owed.
    if (point) {
      const smsDigestOwed = await smsBudgetOf(settings, run, timeLeftMs).owesDigest();
      await leaveTickNotes(ports.state, point, { configVersion: watchConfigs.storeVersion ?? point.notes.configVersion, smsDigestOwed });
    }
    const store = point ? loopStoreFrom(ports.state, point) : ports.state;
    const turn = settings.loop
      ? await beginTurn(event, { store, operator: ports.operator, loop: settings.loop, owner: context.awsRequestId, nowMs: startedAt, ttlMs: timeLeftMs })
      : undefined;
    kept.push(...(turn?.untried ?? []));
    if (turn && !turn.run) return await skippedTurn(turn, { settings, point, judged, kept });
    // A flag naming a version this container has not read: one request to the store before the cycle.
    if (turn?.queued && watchConfigs.followsFlag(turn.queued.notes.configVersion)) {
      run.live = await readLiveConfig(settings, run, { askStore: true, followingFlag: true });
      run.config = run.live.config;
    }
    const { config } = run;
    if (point?.loop) judged.loopSilentMs = startedAt - point.loop.beatAt;
    if (run.live.rejected) telemetry.log('warn', 'the current watch config version is refused; running on the last good one', configLogFields(run.live));
    const publisher = smsBudgetOf(settings, run, timeLeftMs);
    const budget = invocationBudget(settings, turn, { runId: context.awsRequestId, deadlineMs, timeLeftMs, apiSettings });
    // A queued turn reads the SMS record only to route an alert (sms-budget.ts) or send a digest the tick noted.
    const owed = turn?.queued && !turn.queued.notes.smsDigestOwed ? [] : await publisher.start();
    const cycle = await runInvocationCycle(
      { chain, publisher, ...ports },
      config,
      budget,
      turn && settings.loop ? { ...settings.loop, next: turn.next, startedAt, store, queued: turn.queued, message: turn.message, kept } : undefined,
    );
    const summary = withDigests(cycle, [...owed, ...(await publisher.flush())], telemetry);
    const quiet = settings.loop !== undefined && isQuietTurn(summary, chain.stats());
    quietTurnSendsMetrics = !quiet || statusesDue(startedAt, settings.loop!);
    logger[quiet ? 'debug' : 'info']('invocation done', { summary, api: chain.stats() });
    Object.assign(judged, { nowMs: Date.now(), tipHeight: summary.tip?.height ?? null });
    return summary;
  } catch (error) {
    logger.error('invocation failed', error as Error);
    judged.nowMs = Date.now();
    if (failuresTo) await reportFailedTurn(sqs, failuresTo, context.awsRequestId, error);
    throw error;
  } finally {
    if (watch) await judgeOnTick(watch, judged);
    if (chain && telemetry) recordApiStats(telemetry, chain.stats());
    // A tick that finds the loop alive, or a stale turn, records nothing: no EMF line, and no warning that says so.
    if (quietTurnSendsMetrics && metrics.hasStoredMetrics()) metrics.publishStoredMetrics();
    else metrics.clearMetrics();
    logger.resetKeys();
  }
}

/**
 * SNS reaches phones: the invocation texts `smsPerRun` alerts and sums up the rest in one digest; in the loop
 * mode a minute does, shared by its turns (a turn is an invocation every few seconds).
 */
function smsBudgetOf(settings: LambdaSettings, run: ComposedRun, timeLeftMs: number): SmsBudget {
  const { config, ports } = run;
  return new SmsBudget(createSnsPublisher({ client: sns, topicArn: settings.topicArn, log: run.telemetry.log }), ports, {
    network: config.network,
    perInvocation: config.smsPerRun ?? SMS_PER_RUN_DEFAULT,
    staleAfterMs: timeLeftMs,
    minuteMs: settings.loop ? LOOP_SMS_MINUTE_MS : 0,
  });
}

/** A loop invocation that runs no cycle: a turn beside another run's lease keeps its message for the delay. */
async function skippedTurn(
  turn: Extract<TurnStart, { run: false }>,
  at: { settings: LambdaSettings; point: TickPoint | undefined; judged: TickJudgement; kept: string[] },
): Promise<InvocationResult> {
  logger.debug('loop turn skipped', { why: turn.why });
  // Another run holds the lease (a doorbell's cycle): the loop's message comes back after the delay.
  if (turn.why === 'lease-held') await keepTurnMessage(sqs, at.settings.loop!, turn.message, at.kept);
  if (at.point && turn.why === 'loop-alive') Object.assign(at.judged, { point: at.point });
  return { loopTurnSkipped: turn.why };
}

/** The invocation's cycle budget: its deadline and lease, its reads, and how its loop turn began. */
function invocationBudget(
  settings: LambdaSettings,
  turn: Extract<TurnDecision, { run: true }> | undefined,
  run: { runId: string; deadlineMs: number; timeLeftMs: number; apiSettings: ApiSettings },
): CycleBudget {
  const { apiSettings, timeLeftMs } = run;
  return {
    runId: run.runId,
    deadlineMs: run.deadlineMs,
    // A run killed at its timeout leaves its lease and claims behind; both lapse after the timeout.
    leaseTtlMs: timeLeftMs,
    alertStaleAfterMs: timeLeftMs,
    ...learned,
    ...readAheadBlocksFor(settings.functionMemoryMb), // at 128 MB, small read-ahead batches (runtime/memory-bounds.ts)
    fetchWay: settings.fetchWay, // deploy.json's fetchWay: the plan's choice unless the deploy names a way
    // The invocation's share of balance reads: a loop turn's is one turn period's.
    balanceReads: balanceReadAllowance(apiSettings.requestsPerMinute, (settings.loop?.delaySeconds ?? settings.scheduleSeconds ?? 60) * 1000),
    // A queued turn took no lease and read the cursor with its token; the watchdog's restart took the lease.
    ...(turn?.queued ? { loopTurn: { handover: turn.queued.handover, cursor: turn.queued.cursor, handedOver: false } } : turn ? { leaseTaken: true } : {}),
    ...(settings.scheduleSeconds ? { statusSweep: contractStatusSweep(apiSettings.requestsPerMinute, settings.scheduleSeconds * 1000) } : {}),
  };
}

/**
 * The invocation's one cycle; as a loop turn, checking the contract statuses only when they are due, then its
 * message kept for the next turn (also when the cycle failed: the loop outlives a bad run).
 */
async function runInvocationCycle(
  deps: CycleDeps & { chain: HiroClient },
  config: WatchConfig,
  budget: CycleBudget,
  turn: (LoopSettings & LoopTurnRun) | undefined,
): Promise<CycleSummary> {
  if (!turn) return runCycle(deps, config, budget);
  let stoppedBecause: CycleSummary['stoppedBecause'] | undefined;
  try {
    const summary = await runCycle(deps, config, { ...budget, checkStatuses: statusesDue(turn.startedAt, turn) });
    stoppedBecause = summary.stoppedBecause;
    return summary;
  } finally {
    const caughtUp = stoppedBecause === undefined || stoppedBecause === 'caught-up';
    const after = nextTurn(turn, caughtUp, Date.now() - turn.startedAt, (deps.chain.stats().resumeAtMs ?? 0) - Date.now());
    try {
      // A queued turn goes on with its loop, or ends when its message turns out stale (loop-turns.ts).
      const handedOver = budget.loopTurn?.handedOver === true;
      const next = turn.queued ? await tokenAfterTurn(turn.store, turn.queued, handedOver, Date.now(), metAnotherRun(stoppedBecause)) : turn.next;
      const how = await handOnTurn(sqs, turn, { message: turn.message, next, after }, turn.kept);
      logger.debug(how === 'ended' ? 'loop turn: its message is stale, this loop ends' : 'loop turn: next turn set', { how, ...after });
    } catch (error) {
      // A message SQS would not hide comes back after the queue's visibility timeout; a new or renewed loop's
      // message not sent ends the loop here, and the schedule's next tick starts a new one (and counts it).
      logger.error('loop turn: the next turn could not be set', error as Error);
    }
  }
}

/**
 * The run's adapters: telemetry, the operator channel, the Hiro client bounded by the run's deadline and the
 * state store (runtime/run-clients.ts), and the live watch config (its version named on every log line).
 */
async function composeRun(settings: LambdaSettings, startedAt: number, timeLeftMs: number, queued: boolean) {
  const telemetry = createPowertoolsTelemetry(logger, metrics, { detailed: settings.detailedMetrics });
  const log = telemetry.log;
  const operator = settings.opsTopicArn ? createSnsOperatorChannel({ client: sns, topicArn: settings.opsTopicArn, log }) : operatorChannelOverLog(telemetry);
  const apiKey = settings.apiKeySecretArn ? await readApiKey(settings.apiKeySecretArn) : undefined;
  // No cycle starts past the run's deadline, no backoff sleeps past it; a loop turn works the delay less its margin,
  // a tick of the loop mode as long as a turn may at most (loopWorkMs).
  const workMs = settings.loop ? loopWorkMs(settings.loop, queued, timeLeftMs) : (settings.runSeconds ?? Infinity) * 1000;
  const deadlineMs = startedAt + (queued ? workMs : Math.min(timeLeftMs - SAFETY_MARGIN_MS, workMs));
  const clients = runClients({
    apiKey,
    deadlineMs,
    loopTurn: queued,
    operator,
    hiroLog: (level, message, attributes) => logger[level](message, attributes ?? {}),
    ...routes,
    dynamo,
    tableName: settings.tableName,
    log,
    functionMemoryMb: settings.functionMemoryMb,
  });
  const live = await readLiveConfig(settings, { clients, operator, telemetry }, { askStore: !queued });
  const config = live.config;
  const { chain, apiSettings } = clients.api(config.network);
  const state = clients.state(config.network);
  const ports = { state, clock: { now: () => Date.now() }, telemetry, operator, emily: clients.emily(config.network) };
  return { live, config, apiSettings, deadlineMs, chain, telemetry, ports, clients, operator };
}

type ComposedRun = Awaited<ReturnType<typeof composeRun>>;

/**
 * The run's watch config (asking the store, or as the container holds it), its version named on every log line.
 * A version taken by a later read keeps the network (a change of it is refused), so the run's clients stay right.
 */
async function readLiveConfig(
  settings: LambdaSettings,
  run: { clients: ReturnType<typeof runClients>; operator: OperatorChannel; telemetry: PowertoolsTelemetry },
  read: { askStore: boolean; followingFlag?: boolean },
): Promise<LiveConfig> {
  // A new version's token decimals are read through the run's own client and kept in its state.
  const live = await watchConfigs.current(settings, run.operator, run.telemetry.log, run.clients.decimalsFor, read);
  // Every line of the run names the version in use (and a refused one, until it is fixed).
  logger.appendKeys(configLogFields(live));
  return live;
}
