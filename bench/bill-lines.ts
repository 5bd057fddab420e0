// The lines each resource of the stack's template adds to a month's bill: priced (with its list price and the
// quantity a month of runs uses) or named free. A resource type this file does not know fails the bill, so a
// new resource can never be left out in silence.
import { NONCURRENT_KEPT } from '../infra/constructs/watch-config-store';
import { PRICES } from './aws-prices';
import { HIRO_LATENCY_MS } from './cycle-cost';
import { ESM_POLLERS, WATCHDOG_TICK_SECONDS, type LoopMonth } from './loop-month';
import { isConfigStore, isNotifier, type Resource } from './stack-template';

const GB = 1024 ** 3;
/** Table size without alerts: the cursor, the lease, 1,000 remembered block hashes and contract statuses. */
export const STATE_TABLE_GB = 0.001;
/** The handler reads the API key secret at most this often per container (lambda/handler.ts). */
const SECRET_READ_EVERY_MINUTES = 5;

/**
 * A chat notifier runs once per alert its channel takes: priced at this many a month (the bill's other lines
 * assume none), each a 128 MB invocation of at most a second, writing about 600 B of log.
 */
export const CHAT_ALERTS_A_MONTH = 1_000;
const CHAT_POST_SECONDS = 1;
const CHAT_LOG_BYTES = 600;

const count = (n: number) => Math.round(n).toLocaleString('en-US');

/** Minutes in the bill's 30-day month. */
const MINUTES_A_MONTH = 30 * 24 * 60;

/** What a run does, as priced. */
export interface PerRun {
  billedSeconds: number;
  memoryMb: number;
  writeUnits: number;
  readUnits: number;
  logBytes: number;
  metricSeries: string[];
  snsPublishes: number;
}

/** A month of runs as the template and the measured cycles make it: what every resource's lines are priced from. */
export interface PricedMonth {
  /** Runs a month: the schedule's ticks, or the loop's turns. */
  runs: number;
  ticks: number;
  scheduleMinutes: number;
  loop: LoopMonth | undefined;
  perRun: PerRun;
  /** What the watcher logs in the month: its runs, and in the loop mode the ticks' platform lines. */
  logBytes: number;
  withApiKey: boolean;
  turnQueues: Set<string>;
  /** The loop's turns function (the event source's), priced for the turns; the watcher beside it for the ticks. */
  turnFunctions: Set<string>;
  configBytes: number;
}

export type AddLine = (resource: string, item: string, quantity: string, dollars: number) => void;

/** The lines one resource adds to the month; a type the bill does not know fails it. */
export function priceResource(id: string, resource: Resource, month: PricedMonth, add: AddLine): void {
  const p = resource.Properties ?? {};
  switch (resource.Type) {
    case 'AWS::Lambda::Function':
      if (isConfigStore(id)) add(id, 'Lambda, watch config seed', 'one short invocation a deploy', 0);
      else if (isNotifier(resource)) priceNotifier(id, Number(p.MemorySize ?? 128), add);
      else if (month.loop && !month.turnFunctions.has(id)) priceTicks(id, month.perRun.memoryMb, month.ticks, add);
      else priceWatcher(id, month, add);
      break;
    case 'AWS::Scheduler::Schedule':
      add(id, 'EventBridge Scheduler invocations', count(month.ticks), month.ticks * PRICES.schedulerInvocation);
      break;
    case 'AWS::DynamoDB::GlobalTable':
      priceStateTable(id, p, month, add);
      break;
    case 'AWS::Logs::LogGroup':
      priceLogGroup(id, p, month, add);
      break;
    case 'AWS::CloudWatch::Alarm':
      if (Number(p.Period ?? 60) < 60) throw new Error(`alarm ${id} is high-resolution; the bill prices standard alarms only`);
      add(id, 'CloudWatch alarm (standard)', '1', PRICES.cloudWatchAlarm);
      break;
    case 'AWS::CloudWatch::Dashboard':
      add(id, 'CloudWatch dashboard', '1', PRICES.cloudWatchDashboard);
      break;
    case 'AWS::KMS::Key':
      add(id, 'KMS customer-managed key', '1 (before rotations)', PRICES.kmsKey);
      break;
    case 'AWS::SNS::Topic': {
      const publishes = month.perRun.snsPublishes * month.runs;
      add(id, 'SNS publishes', count(publishes), publishes * PRICES.snsPublish);
      // SNS asks KMS for a data key at most once per publish (it caches them); aws/sns requests are billed too.
      if (p.KmsMasterKeyId !== undefined) add(id, 'KMS requests for the topic', `≤ ${count(publishes)}`, publishes * PRICES.kmsRequest);
      break;
    }
    case 'AWS::SQS::Queue':
      priceQueue(id, month, add);
      break;
    case 'AWS::Lambda::EventSourceMapping':
      break; // no charge of its own: its polls are the turns queue's SQS requests
    case 'AWS::S3::Bucket':
      priceConfigBucket(id, month, add);
      break;
    case 'AWS::S3::BucketPolicy':
    case 'Custom::WatchConfigSeed':
      break; // no charge (the seed's PUT and HEAD are a few requests a deploy)
    case 'AWS::SecretsManager::Secret':
      add(id, 'Secrets Manager secret', '1', PRICES.secretsManagerSecret);
      break;
    case 'AWS::IAM::Role':
    case 'AWS::IAM::Policy':
    case 'AWS::SNS::TopicPolicy':
    case 'AWS::SQS::QueuePolicy':
    case 'AWS::Lambda::EventInvokeConfig':
    case 'AWS::Lambda::Permission':
    case 'AWS::CDK::Metadata':
      break; // no charge
    case 'AWS::SNS::Subscription':
      break; // deliveries are billed per alert (email, SMS; to Lambda, free), outside a month without alerts
    default:
      throw new Error(`the bill does not know the price of ${resource.Type} (${id}); add it to bench/bill-lines.ts`);
  }
}

/** A chat notifier: one short invocation per alert its channel takes, not one per run. */
function priceNotifier(id: string, memoryMb: number, add: AddLine): void {
  const gbSeconds = (memoryMb / 1024) * CHAT_POST_SECONDS * CHAT_ALERTS_A_MONTH;
  add(id, `Lambda compute, chat notifier at ${count(CHAT_ALERTS_A_MONTH)} alerts`, `${gbSeconds.toFixed(0)} GB-s`, gbSeconds * PRICES.lambdaGbSecond);
  add(id, 'Lambda requests, chat notifier', count(CHAT_ALERTS_A_MONTH), CHAT_ALERTS_A_MONTH * PRICES.lambdaRequest);
}

/** The watcher, or the loop's turns: its runs' compute and requests, the loop's statuses, its custom metrics and its reads of the API key. */
function priceWatcher(id: string, month: PricedMonth, add: AddLine): void {
  const { runs, perRun } = month;
  const { memoryMb } = perRun;
  const gbSeconds = (memoryMb / 1024) * perRun.billedSeconds * runs;
  add(
    id,
    'Lambda compute (arm64)',
    `${count(gbSeconds)} GB-s (${memoryMb} MB × ${perRun.billedSeconds.toFixed(2)} s × ${count(runs)})`,
    gbSeconds * PRICES.lambdaGbSecond,
  );
  add(id, 'Lambda requests', count(runs), runs * PRICES.lambdaRequest);
  if (month.loop) priceLoopStatuses(id, memoryMb, add);
  // The custom metrics are the function's: each series sent every hour is billed the whole month.
  const series = perRun.metricSeries.length;
  add(
    id,
    'CloudWatch custom metrics (EMF)',
    `${series} series every hour: ${perRun.metricSeries.map((s) => s.split('|')[0]).join(', ')}`,
    series * PRICES.cloudWatchMetric,
  );
  if (month.withApiKey) {
    const reads = runs / Math.max(1, SECRET_READ_EVERY_MINUTES / month.scheduleMinutes);
    add(id, 'Secrets Manager API calls (API key)', count(reads), reads * PRICES.secretsManagerApiCall);
  }
}

/** What the loop's turns add beside their cycles: the contract statuses once a minute. */
function priceLoopStatuses(id: string, memoryMb: number, add: AddLine): void {
  // About one turn a minute also checks the contract statuses: one more API round trip, billed.
  const statusGbSeconds = (memoryMb / 1024) * (HIRO_LATENCY_MS / 1000) * MINUTES_A_MONTH;
  add(
    id,
    'Lambda compute, contract statuses once a minute',
    `${count(statusGbSeconds)} GB-s (${HIRO_LATENCY_MS} ms × ${count(MINUTES_A_MONTH)})`,
    statusGbSeconds * PRICES.lambdaGbSecond,
  );
}

/** The watcher in the loop mode: the schedule's ticks, which only watch the loop (its turns run in a function of their own). */
function priceTicks(id: string, memoryMb: number, ticks: number, add: AddLine): void {
  const tickGbSeconds = (memoryMb / 1024) * WATCHDOG_TICK_SECONDS * ticks;
  add(
    id,
    'Lambda compute, watchdog ticks',
    `${count(tickGbSeconds)} GB-s (${WATCHDOG_TICK_SECONDS} s × ${count(ticks)})`,
    tickGbSeconds * PRICES.lambdaGbSecond,
  );
  add(id, 'Lambda requests, watchdog ticks', count(ticks), ticks * PRICES.lambdaRequest);
}

/** The state table: its runs' capacity units, the ticks' reads, its storage and point-in-time recovery. */
function priceStateTable(id: string, p: Record<string, any>, month: PricedMonth, add: AddLine): void {
  const { perRun, runs } = month;
  const writes = perRun.writeUnits * runs;
  // Every tick reads the cursor item once (consistent, < 4 KB: a unit) to judge the lag (runtime/tick-watch.ts); in
  // the loop mode also the SMS record, for the digest a minute owes (the turns read it only to route an alert).
  const reads = perRun.readUnits * runs + month.ticks * (month.loop ? 2 : 1);
  add(id, 'DynamoDB on-demand writes', `${count(writes)} WRU (${perRun.writeUnits.toFixed(1)} a run)`, writes * PRICES.dynamoWriteUnit);
  add(id, 'DynamoDB on-demand reads', `${count(reads)} RRU`, reads * PRICES.dynamoReadUnit);
  add(id, 'DynamoDB storage', `${STATE_TABLE_GB} GB`, STATE_TABLE_GB * PRICES.dynamoStorageGb);
  const pitr = (p.Replicas ?? []).some((r: any) => r.PointInTimeRecoverySpecification?.PointInTimeRecoveryEnabled === true);
  if (pitr) add(id, 'DynamoDB point-in-time recovery', `${STATE_TABLE_GB} GB`, STATE_TABLE_GB * PRICES.dynamoPitrGb);
}

/** A log group: the watcher's runs and ticks, a chat notifier's alerts, or the config seed's few lines. */
function priceLogGroup(id: string, p: Record<string, any>, month: PricedMonth, add: AddLine): void {
  if (isConfigStore(id)) {
    add(id, 'CloudWatch Logs ingestion, watch config seed', 'a few lines a deploy', 0);
    return;
  }
  if (id.startsWith('Chat')) {
    const chatGb = (CHAT_ALERTS_A_MONTH * CHAT_LOG_BYTES) / GB;
    add(
      id,
      `CloudWatch Logs ingestion, chat notifier at ${count(CHAT_ALERTS_A_MONTH)} alerts`,
      `${(chatGb * 1024).toFixed(1)} MB`,
      chatGb * PRICES.cloudWatchLogsGb,
    );
    return;
  }
  const logGb = month.logBytes / GB;
  const retainedMonths = Number(p.RetentionInDays ?? 3653) / 30;
  add(id, 'CloudWatch Logs ingestion', `${(logGb * 1024).toFixed(0)} MB (${count(month.perRun.logBytes)} B a run)`, logGb * PRICES.cloudWatchLogsGb);
  add(id, 'CloudWatch Logs storage', `${(logGb * retainedMonths * 1024).toFixed(0)} MB kept`, logGb * retainedMonths * PRICES.cloudWatchLogsStoredGb);
}

/** The loop's turns queue: each turn's receive, and the idle pollers' empty long polls. Another queue is the dead-letter one. */
function priceQueue(id: string, month: PricedMonth, add: AddLine): void {
  const { loop } = month;
  if (loop && month.turnQueues.has(id)) {
    const { turnRequests, sends, emptyReceives } = loop.sqs;
    const total = turnRequests + sends + emptyReceives;
    const perTurn = `${loop.sqs.perTurn} a turn: the message received, shown again by the queue's visibility timeout`;
    add(
      id,
      'SQS requests, loop turns',
      `${count(total)} (${count(loop.turns)} turns, ${perTurn}; ${count(emptyReceives)} empty long polls of ${ESM_POLLERS} pollers)`,
      total * PRICES.sqsRequest,
    );
    return;
  }
  // The dead-letter queue receives a message only when a run is lost; its alarm reads free SQS metrics.
  add(id, 'SQS requests', '0 while runs succeed', 0);
}

/** The watch config store's bucket: its conditional GETs and the versions the lifecycle keeps. */
function priceConfigBucket(id: string, month: PricedMonth, add: AddLine): void {
  const { loop, runs, ticks, configBytes } = month;
  // Every run reads the config with one conditional GET: 304 (no body) while it is unchanged. In the loop mode
  // the ticks alone ask; a turn asks only for a version a tick flagged, once a change (and at a cold start).
  const gets = loop ? ticks : runs;
  const what = loop ? 'by the ticks alone' : 'one conditional GET a run';
  add(id, `S3 GET requests, the watch config (${what})`, count(gets), gets * PRICES.s3GetRequest);
  const versions = NONCURRENT_KEPT + 1;
  const gb = (versions * configBytes) / GB;
  add(id, 'S3 storage, the watch config', `${versions} versions × ${(configBytes / 1024).toFixed(1)} KiB`, gb * PRICES.s3StorageGb);
}
