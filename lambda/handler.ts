// The AWS composition root: EventBridge Scheduler invokes this every few minutes. It reads the environment,
// builds the adapters (Hiro client, DynamoDB state, SNS publisher and ops channel, Powertools telemetry) and runs the same
// watch cycle as the local runner, within the invocation's time.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { SNSClient } from '@aws-sdk/client-sns';
import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics } from '@aws-lambda-powertools/metrics';
import { getSecret } from '@aws-lambda-powertools/parameters/secrets';
import type { Context } from 'aws-lambda';
import { operatorChannelOverLog } from './core/operator-log';
import { runCycle } from './core/cycle';
import { SMS_PER_RUN_DEFAULT, SmsBudget, withDigests } from './core/sms-budget';
import type { CycleSummary } from './core/cycle-types';
import { contractStatusSweep, createHiroClient, type HiroClient } from './hiro';
import { createDynamoStateStore } from './adapters/dynamodb';
import { createSnsPublisher } from './adapters/sns';
import { createSnsOperatorChannel } from './adapters/sns/operator-topic';
import { readApiSettings } from './runtime/api-env';
import { readLambdaSettings } from './runtime/lambda-env';
import { configLogFields, LambdaWatchConfig } from './runtime/lambda-watch-config';
import { createPowertoolsTelemetry, recordApiStats, type PowertoolsTelemetry } from './runtime/powertools-telemetry';
import { pollWhileCaughtUp } from './runtime/poll-loop';

/** Stop starting blocks this long before the invocation times out (the floor is 10 s). */
export const SAFETY_MARGIN_MS = 15_000;
/** The API key is read from Secrets Manager at most this often per container. */
const SECRET_MAX_AGE_SECONDS = 300;

// Built once per container and reused by every invocation. The SDK clients honour the standard
// AWS_ENDPOINT_URL_DYNAMODB / AWS_ENDPOINT_URL_SNS variables, so local stand-ins need no code change.
const logger = new Logger({ serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'stacks-watch' });
const metrics = new Metrics({
  serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'stacks-watch',
  namespace: process.env.POWERTOOLS_METRICS_NAMESPACE ?? 'StacksWatch',
});
const dynamo = new DynamoDBClient({});
// One attempt per call: the publisher retries itself and counts calls that went unanswered.
const sns = new SNSClient({ maxAttempts: 1 });
// The live watch config: read each run with a conditional GET (a quiet run costs one request, answered 304).
const watchConfigs = new LambdaWatchConfig({
  s3: () => new S3Client({}),
  doc: DynamoDBDocumentClient.from(dynamo, { marshallOptions: { removeUndefinedValues: true } }),
});

export async function handler(_event: unknown, context: Context): Promise<CycleSummary> {
  const startedAt = Date.now();
  const timeLeftMs = context.getRemainingTimeInMillis();
  logger.addContext(context);
  logger.appendKeys({ runId: context.awsRequestId });
  let chain: HiroClient | undefined;
  let telemetry: PowertoolsTelemetry | undefined;
  try {
    const settings = readLambdaSettings(process.env);
    // The cold-start series is one more metric billed for each hour with a cold start: detailed mode only.
    if (settings.detailedMetrics) metrics.captureColdStartMetric(context.functionName);
    telemetry = createPowertoolsTelemetry(logger, metrics, { detailed: settings.detailedMetrics });
    const log = telemetry.log;
    const operator = settings.opsTopicArn
      ? createSnsOperatorChannel({ client: sns, topicArn: settings.opsTopicArn, log })
      : operatorChannelOverLog(telemetry);
    const live = await watchConfigs.current(settings, operator, log);
    const config = live.config;
    // Every line of the run names the version in use (and a refused one, until it is fixed).
    logger.appendKeys(configLogFields(live));
    if (live.rejected) log('warn', 'the current watch config version is refused; running on the last good one', configLogFields(live));
    const apiKey = settings.apiKeySecretArn ? await readApiKey(settings.apiKeySecretArn) : undefined;
    const apiSettings = readApiSettings(process.env, apiKey, config.network);
    // The run's deadline: no cycle starts past it, and no Retry-After or backoff sleeps past it.
    const deadlineMs = startedAt + Math.min(timeLeftMs - SAFETY_MARGIN_MS, (settings.runSeconds ?? Infinity) * 1000);
    chain = createHiroClient({
      ...apiSettings,
      log: (level, message, attributes) => logger[level](message, attributes ?? {}),
      operator,
      deadline: () => deadlineMs,
    });
    const ports = {
      state: createDynamoStateStore({ client: dynamo, tableName: settings.tableName, network: config.network, log: telemetry.log }),
      clock: { now: () => Date.now() },
      telemetry,
      operator,
    };
    // SNS reaches phones: the invocation texts `smsPerRun` alerts and sums up the rest in one digest.
    const publisher = new SmsBudget(createSnsPublisher({ client: sns, topicArn: settings.topicArn, log: telemetry.log }), ports, {
      network: config.network,
      perInvocation: config.smsPerRun ?? SMS_PER_RUN_DEFAULT,
      staleAfterMs: timeLeftMs,
    });
    const deps = { chain, publisher, ...ports };
    const budget = {
      runId: context.awsRequestId,
      deadlineMs,
      // A run killed at its timeout leaves its lease and claims behind; both lapse after the timeout.
      leaseTtlMs: timeLeftMs,
      alertStaleAfterMs: timeLeftMs,
      ...(settings.scheduleSeconds
        ? { statusSweep: contractStatusSweep(apiSettings.requestsPerMinute, settings.scheduleSeconds * 1000) }
        : {}),
    };
    const owed = await publisher.start();
    // Optional fast mode: keep polling inside the invocation so an event is alerted seconds after its block.
    // Its polls share the invocation's texts; the one digest goes out at its end.
    const cycles = await pollWhileCaughtUp(
      () => runCycle(deps, config, budget),
      () => runCycle(deps, { ...config, contracts: [] }, { ...budget, runId: `${budget.runId}:${Date.now()}` }),
      {
        intervalMs: settings.pollIntervalSeconds * 1000,
        deadlineMs,
        now: Date.now,
        sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
      },
    );
    const summary = withDigests(cycles, [...owed, ...(await publisher.flush())], telemetry);
    logger.info('invocation done', { summary, api: chain.stats() });
    return summary;
  } catch (error) {
    logger.error('invocation failed', error as Error);
    throw error;
  } finally {
    if (chain && telemetry) recordApiStats(telemetry, chain.stats());
    metrics.publishStoredMetrics();
    logger.resetKeys();
  }
}

/** The secret holds the key as plain text, or as JSON with an `apiKey` field. The key is never logged. */
async function readApiKey(secretArn: string): Promise<string | undefined> {
  let value: unknown;
  try {
    value = await getSecret(secretArn, { maxAge: SECRET_MAX_AGE_SECONDS });
  } catch (error) {
    // Powertools wraps the SDK's error in a GetParameterError; its cause names what went wrong (AccessDenied, NotFound...).
    const cause = ((error as Error).cause ?? error) as Error;
    throw new Error(`cannot read the API key secret ${secretArn}: ${cause.name}; check that it exists and the function may read it`);
  }
  if (typeof value !== 'string' || value.trim() === '') return undefined; // an empty secret: run without a key
  const text = value.trim();
  if (!text.startsWith('{')) return text;
  try {
    const parsed = JSON.parse(text) as { apiKey?: unknown };
    if (typeof parsed.apiKey === 'string' && parsed.apiKey) return parsed.apiKey;
  } catch {
    // not JSON after all: fall through to the error below, which does not echo the value
  }
  throw new Error(`the API key secret ${secretArn} holds JSON without a string "apiKey" field`);
}
