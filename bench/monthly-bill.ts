// The monthly bill of a deployed stack, priced from its synthesized CloudFormation template: every resource
// in it is looked up here and either priced (with its list price and the quantity a month of runs uses) or
// named free, and a resource type this file does not know fails the bill, so a new resource can never be
// left out in silence. Per-run quantities (billed time, capacity units, log bytes, metric series, SNS
// publishes) come from measured cycles (bench/cycle-cost.ts); everything else is read from the template:
// the schedule or the loop, the function's memory, the key, the alarms, the dashboard.
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildStacksWatch } from '../infra/build-stacks-watch';
import { NONCURRENT_KEPT } from '../infra/constructs/watch-config-store';
import { LOOP_PICKUP_MS } from './alert-latency';
import { PRICES } from './aws-prices';
import { platformLogBytes } from './run-telemetry';
import { HIRO_LATENCY_MS, type CycleCost } from './cycle-cost';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
/** The watch config the stack bundles; what it watches changes the measured cycles, not the template's cost. */
const WATCH_CONFIG = `${REPO_ROOT}test/infra/fixtures/watch.json`;
const GB = 1024 ** 3;
/** Table size without alerts: the cursor, the lease, 1,000 remembered block hashes and contract statuses. */
export const STATE_TABLE_GB = 0.001;
/** The handler reads the API key secret at most this often per container (lambda/handler.ts). */
const SECRET_READ_EVERY_MINUTES = 5;

type Resource = { Type: string; Properties?: Record<string, any> };
export type TemplateJson = { Resources: Record<string, Resource> };

/** The measured cycles a bill is computed from, for the client's pace and metric mode the template sets. */
export interface MeasuredCycles {
  /** One scheduled run following the tip (12 new blocks, no alert). */
  run: CycleCost;
  /** One loop turn's cycle (2 new blocks, no alert). */
  poll: CycleCost;
}

export type MeasuredFor = (shape: { withApiKey: boolean; detailedMetrics: boolean }) => MeasuredCycles;

export interface BillLine {
  resource: string;
  item: string;
  quantity: string;
  dollars: number;
}

export interface MonthlyBill {
  lines: BillLine[];
  total: number;
  /** Runs a month: from the schedule, or the loop's turns. */
  runs: number;
  /** The loop mode's turns, ticks and queue requests. */
  loop?: LoopMonth;
  /** What a run does, as priced. */
  perRun: {
    billedSeconds: number;
    memoryMb: number;
    writeUnits: number;
    readUnits: number;
    logBytes: number;
    metricSeries: string[];
    snsPublishes: number;
  };
}

/** The stack's template as `cdk synth` would make it for `context` (bundling skipped: it does not change the bill). */
export function synthTemplate(context: Record<string, unknown> = {}): TemplateJson {
  // Synthesized into a folder of its own and removed: the default outdir is a new temp folder nothing removes.
  const outdir = mkdtempSync(join(tmpdir(), 'stacks-watch-bill-'));
  try {
    const app = new App({ outdir, context: { 'aws:cdk:bundling-stacks': [], watchConfig: WATCH_CONFIG, ...context } });
    return Template.fromStack(buildStacksWatch(app, REPO_ROOT)).toJSON() as TemplateJson;
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

/** A chat notifier (infra/constructs/chat-notifiers.ts) rather than the watcher: its environment names its channel. */
const isNotifier = (resource: Resource) => (resource.Properties?.Environment?.Variables ?? {}).CHAT_CHANNEL !== undefined;
/** The watcher: the function told its state table. */
const isWatcher = (resource: Resource) => (resource.Properties?.Environment?.Variables ?? {}).TABLE_NAME !== undefined;
/** The watch config store's resources (infra/constructs/watch-config-store.ts): its seed runs once a deploy. */
const isConfigStore = (id: string) => id.startsWith('WatchConfig');

/**
 * The config the bill prices the store for, in bytes (table 9 prices a 100,000-address one). Storage is
 * priced for the newest NONCURRENT_KEPT noncurrent versions and the current one: what the lifecycle always keeps.
 */
export const configBytesOf = (path = WATCH_CONFIG) => statSync(path).size;

/** The watcher function: the one Lambda function told its state table. */
export function watcherFunction(template: TemplateJson): [string, Resource] {
  const found = Object.entries(template.Resources).filter(([, resource]) => resource.Type === 'AWS::Lambda::Function' && isWatcher(resource));
  if (found.length !== 1) throw new Error(`the bill expects one watcher function in the template, found ${found.length}`);
  return found[0]!;
}

/**
 * A chat notifier runs once per alert its channel takes: priced at this many a month (the bill's other lines
 * assume none), each a 128 MB invocation of at most a second, writing about 600 B of log.
 */
export const CHAT_ALERTS_A_MONTH = 1_000;
const CHAT_POST_SECONDS = 1;
const CHAT_LOG_BYTES = 600;

function only(template: TemplateJson, type: string): [string, Resource] {
  const found = Object.entries(template.Resources).filter(([, resource]) => resource.Type === type);
  if (found.length !== 1) throw new Error(`the bill expects one ${type} in the template, found ${found.length}`);
  return found[0]!;
}

function minutesOf(expression: unknown): number {
  const match = /^rate\((\d+) (minute|minutes|hour|hours)\)$/.exec(String(expression));
  if (!match) throw new Error(`the bill cannot read the schedule expression ${JSON.stringify(expression)}`);
  return Number(match[1]) * (match[2]!.startsWith('hour') ? 60 : 1);
}

const count = (n: number) => Math.round(n).toLocaleString('en-US');

const MONTH_SECONDS = 30 * 24 * 3600;
/**
 * A watchdog tick of the loop mode that finds the loop alive: one strongly consistent read of the cursor item
 * and no log line, billed for about this long (no API call, no write).
 */
export const WATCHDOG_TICK_SECONDS = 0.03;
/**
 * Long polls the SQS event source keeps open on the turns queue: Lambda scales an idle source's pollers down
 * to "as few as 2" (its documentation; 5 otherwise). Each 20 s long poll that ends without a message is a
 * request.
 */
export const ESM_POLLERS = 2;
const LONG_POLL_SECONDS = 20;

/** Minutes in the bill's 30-day month. */
const MINUTES_A_MONTH = 30 * 24 * 60;

/** What the loop mode adds to a month: turns instead of runs, the ticks beside them, the queue's requests. */
export interface LoopMonth {
  delaySeconds: number;
  turns: number;
  ticks: number;
  sqs: { sends: number; receives: number; deletes: number; emptyReceives: number };
}

/** Turns every delaySeconds plus the pickup, each sending, receiving and deleting one message; the idle pollers' empty long polls. */
export function loopMonth(delaySeconds: number, ticks: number, pickupMs: number): LoopMonth {
  const period = delaySeconds + pickupMs / 1000;
  const turns = MONTH_SECONDS / period;
  // Poller time not spent on a poll that returns a message (one a turn, open about half a period) ends in empty 20 s polls.
  const emptyReceives = Math.max(0, (ESM_POLLERS * MONTH_SECONDS - turns * (period / 2)) / LONG_POLL_SECONDS);
  return { delaySeconds, turns, ticks, sqs: { sends: turns, receives: turns, deletes: turns, emptyReceives } };
}

/** The queue the SQS event source reads (the loop's turns), by logical id. */
function eventSourceQueues(template: TemplateJson): Set<string> {
  const ids = Object.values(template.Resources)
    .filter((r) => r.Type === 'AWS::Lambda::EventSourceMapping')
    .map((r) => r.Properties?.EventSourceArn?.['Fn::GetAtt']?.[0] as string | undefined);
  return new Set(ids.filter((id): id is string => id !== undefined));
}

/** A month of the stack's runs, priced resource by resource. */
export function priceTemplate(template: TemplateJson, measuredFor: MeasuredFor, configBytes = configBytesOf()): MonthlyBill {
  const [, fn] = watcherFunction(template);
  const [, schedule] = only(template, 'AWS::Scheduler::Schedule');
  const env = (fn.Properties?.Environment?.Variables ?? {}) as Record<string, unknown>;
  const memoryMb = Number(fn.Properties?.MemorySize ?? 128);
  const ticks = (30 * 24 * 60) / minutesOf(schedule.Properties?.ScheduleExpression);
  // The loop mode: a turn every LOOP_DELAY_SECONDS (each a measured 2-block poll); the ticks only watch the loop.
  const loop = env.LOOP_QUEUE_URL !== undefined ? loopMonth(Number(env.LOOP_DELAY_SECONDS), ticks, LOOP_PICKUP_MS) : undefined;
  const runs = loop ? loop.turns : ticks;
  const turnQueues = eventSourceQueues(template);
  const withApiKey = env.STACKS_API_KEY_SECRET_ARN !== undefined;
  const measured = measuredFor({ withApiKey, detailedMetrics: env.DETAILED_METRICS === 'true' });

  // One cycle a run: a scheduled run follows a minute of chain, a loop turn a few seconds of it.
  const perCycle = loop ? measured.poll : measured.run;
  const platform = platformLogBytes(fn);
  const perRun = {
    billedSeconds: perCycle.durationMs / 1000,
    memoryMb,
    writeUnits: perCycle.writeUnits,
    readUnits: perCycle.readUnits,
    // A loop turn: most are quiet (caught up, no alert), log no info line and send their EMF once a minute.
    logBytes: platform + (loop ? perCycle.quietTurnLogBytes + (perCycle.emfBytes * (loop.delaySeconds + LOOP_PICKUP_MS / 1000)) / 60 : perCycle.logBytes),
    metricSeries: perCycle.metricSeries,
    snsPublishes: perCycle.snsMessages,
  };
  const tickLogBytes = loop ? ticks * platform : 0;
  const logGb = (perRun.logBytes * runs + tickLogBytes) / GB;

  const lines: BillLine[] = [];
  const add = (resource: string, item: string, quantity: string, dollars: number) => lines.push({ resource, item, quantity, dollars });
  for (const [id, resource] of Object.entries(template.Resources)) {
    const p = resource.Properties ?? {};
    switch (resource.Type) {
      case 'AWS::Lambda::Function': {
        if (isConfigStore(id)) {
          add(id, 'Lambda, watch config seed', 'one short invocation a deploy', 0);
          break;
        }
        if (isNotifier(resource)) {
          const gbSeconds = (Number(p.MemorySize ?? 128) / 1024) * CHAT_POST_SECONDS * CHAT_ALERTS_A_MONTH;
          add(id, `Lambda compute, chat notifier at ${count(CHAT_ALERTS_A_MONTH)} alerts`, `${gbSeconds.toFixed(0)} GB-s`, gbSeconds * PRICES.lambdaGbSecond);
          add(id, 'Lambda requests, chat notifier', count(CHAT_ALERTS_A_MONTH), CHAT_ALERTS_A_MONTH * PRICES.lambdaRequest);
          break;
        }
        const gbSeconds = (memoryMb / 1024) * perRun.billedSeconds * runs;
        add(
          id,
          'Lambda compute (arm64)',
          `${count(gbSeconds)} GB-s (${memoryMb} MB × ${perRun.billedSeconds.toFixed(2)} s × ${count(runs)})`,
          gbSeconds * PRICES.lambdaGbSecond,
        );
        add(id, 'Lambda requests', count(runs), runs * PRICES.lambdaRequest);
        if (loop) {
          // About one turn a minute also checks the contract statuses: one more API round trip, billed.
          const statusGbSeconds = (memoryMb / 1024) * (HIRO_LATENCY_MS / 1000) * MINUTES_A_MONTH;
          add(
            id,
            'Lambda compute, contract statuses once a minute',
            `${count(statusGbSeconds)} GB-s (${HIRO_LATENCY_MS} ms × ${count(MINUTES_A_MONTH)})`,
            statusGbSeconds * PRICES.lambdaGbSecond,
          );
          const tickGbSeconds = (memoryMb / 1024) * WATCHDOG_TICK_SECONDS * ticks;
          add(
            id,
            'Lambda compute, watchdog ticks',
            `${count(tickGbSeconds)} GB-s (${WATCHDOG_TICK_SECONDS} s × ${count(ticks)})`,
            tickGbSeconds * PRICES.lambdaGbSecond,
          );
          add(id, 'Lambda requests, watchdog ticks', count(ticks), ticks * PRICES.lambdaRequest);
        }
        // The custom metrics are the function's: each series sent every hour is billed the whole month.
        const series = perRun.metricSeries.length;
        add(
          id,
          'CloudWatch custom metrics (EMF)',
          `${series} series every hour: ${perRun.metricSeries.map((s) => s.split('|')[0]).join(', ')}`,
          series * PRICES.cloudWatchMetric,
        );
        if (withApiKey) {
          const reads = runs / Math.max(1, SECRET_READ_EVERY_MINUTES / minutesOf(schedule.Properties?.ScheduleExpression));
          add(id, 'Secrets Manager API calls (API key)', count(reads), reads * PRICES.secretsManagerApiCall);
        }
        break;
      }
      case 'AWS::Scheduler::Schedule':
        add(id, 'EventBridge Scheduler invocations', count(ticks), ticks * PRICES.schedulerInvocation);
        break;
      case 'AWS::DynamoDB::GlobalTable': {
        const writes = perRun.writeUnits * runs;
        // Every tick reads the cursor item once (consistent, < 4 KB: a unit) to judge the lag (runtime/tick-watch.ts).
        const reads = perRun.readUnits * runs + ticks;
        add(id, 'DynamoDB on-demand writes', `${count(writes)} WRU (${perRun.writeUnits.toFixed(1)} a run)`, writes * PRICES.dynamoWriteUnit);
        add(id, 'DynamoDB on-demand reads', `${count(reads)} RRU`, reads * PRICES.dynamoReadUnit);
        add(id, 'DynamoDB storage', `${STATE_TABLE_GB} GB`, STATE_TABLE_GB * PRICES.dynamoStorageGb);
        const pitr = (p.Replicas ?? []).some((r: any) => r.PointInTimeRecoverySpecification?.PointInTimeRecoveryEnabled === true);
        if (pitr) add(id, 'DynamoDB point-in-time recovery', `${STATE_TABLE_GB} GB`, STATE_TABLE_GB * PRICES.dynamoPitrGb);
        break;
      }
      case 'AWS::Logs::LogGroup': {
        if (isConfigStore(id)) {
          add(id, 'CloudWatch Logs ingestion, watch config seed', 'a few lines a deploy', 0);
          break;
        }
        if (id.startsWith('Chat')) {
          const chatGb = (CHAT_ALERTS_A_MONTH * CHAT_LOG_BYTES) / GB;
          add(
            id,
            `CloudWatch Logs ingestion, chat notifier at ${count(CHAT_ALERTS_A_MONTH)} alerts`,
            `${(chatGb * 1024).toFixed(1)} MB`,
            chatGb * PRICES.cloudWatchLogsGb,
          );
          break;
        }
        const retainedMonths = Number(p.RetentionInDays ?? 3653) / 30;
        add(id, 'CloudWatch Logs ingestion', `${(logGb * 1024).toFixed(0)} MB (${count(perRun.logBytes)} B a run)`, logGb * PRICES.cloudWatchLogsGb);
        add(id, 'CloudWatch Logs storage', `${(logGb * retainedMonths * 1024).toFixed(0)} MB kept`, logGb * retainedMonths * PRICES.cloudWatchLogsStoredGb);
        break;
      }
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
        const publishes = perRun.snsPublishes * runs;
        add(id, 'SNS publishes', count(publishes), publishes * PRICES.snsPublish);
        // SNS asks KMS for a data key at most once per publish (it caches them); aws/sns requests are billed too.
        if (p.KmsMasterKeyId !== undefined) add(id, 'KMS requests for the topic', `≤ ${count(publishes)}`, publishes * PRICES.kmsRequest);
        break;
      }
      case 'AWS::SQS::Queue': {
        if (loop && turnQueues.has(id)) {
          const { sends, receives, deletes, emptyReceives } = loop.sqs;
          const total = sends + receives + deletes + emptyReceives;
          add(
            id,
            'SQS requests, loop turns',
            `${count(total)} (${count(sends)} sent, received, deleted; ${count(emptyReceives)} empty long polls of ${ESM_POLLERS} pollers)`,
            total * PRICES.sqsRequest,
          );
          break;
        }
        // The dead-letter queue receives a message only when a run is lost; its alarm reads free SQS metrics.
        add(id, 'SQS requests', '0 while runs succeed', 0);
        break;
      }
      case 'AWS::Lambda::EventSourceMapping':
        break; // no charge of its own: its polls are the turns queue's SQS requests
      case 'AWS::S3::Bucket': {
        // Every run reads the config with one conditional GET: 304 (no body) while it is unchanged. In the loop
        // mode a warm container asks at most once a minute (LOOP_CONFIG_CHECK_MS), and turns and watchdog ticks
        // run in at most 2 containers (the loop's reserved concurrency): at most 2 GETs a minute.
        const gets = loop ? Math.min(runs + ticks, 2 * MINUTES_A_MONTH) : runs;
        const what = loop ? 'at most once a minute in each of 2 containers' : 'one conditional GET a run';
        add(id, `S3 GET requests, the watch config (${what})`, count(gets), gets * PRICES.s3GetRequest);
        const versions = NONCURRENT_KEPT + 1;
        const gb = (versions * configBytes) / GB;
        add(id, 'S3 storage, the watch config', `${versions} versions × ${(configBytes / 1024).toFixed(1)} KiB`, gb * PRICES.s3StorageGb);
        break;
      }
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
        throw new Error(`the bill does not know the price of ${resource.Type} (${id}); add it to bench/monthly-bill.ts`);
    }
  }
  const total = lines.reduce((sum, line) => sum + line.dollars, 0);
  return { lines, total, runs, perRun, ...(loop ? { loop } : {}) };
}
