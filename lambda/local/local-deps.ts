// The local runner's adapters: the Hiro client, file or DynamoDB state, stdout or SNS; and `--status`.
// The AWS adapters load only when asked for, so a local run never pays for the AWS SDK.
import type { WatchConfigMemo } from '../core/watch-config/watch-config-source';
import { operatorChannelOverLog } from '../core/deliver/operator-log';
import { emilyFromEnv } from '../runtime/emily-env';
import type { CycleDeps } from '../core/cycle-types';
import type { Publisher, StateStore, Telemetry } from '../core/ports';
import type { WatchConfig } from '../core/watch-config/watch-config-schema';
import { createHiroClient, type HiroClient, type HiroClientOptions, type HiroRequestEvent } from '../hiro';
import { FileStateStore } from '../adapters/file/file-state-store';
import { createStdoutPublisher } from '../adapters/stdout/stdout-publisher';
import { EnvironmentError, type ApiSettings } from '../runtime/api-env';
import type { CliOptions } from './args';
import { describeStatus } from './describe';
import { pendingRules } from '../core/mempool/pending-rules';
import { compileWatchRules } from '../core/rules/rule-lists';
import { clearProgress, EXIT } from './terminal';
import { SMS_PER_RUN_DEFAULT, SmsBudget } from '../core/deliver/sms-budget';
import { channelsFromEnv, channelVariableNearMisses } from '../channels/registry';
import { memoryChatLog } from '../adapters/chat/chat-delivery';
import { withChatChannels, type ChatPublisher } from './chat-publisher';

/**
 * The lease is renewed between blocks, so it can be short: a killed runner holds up the next one (on a
 * DynamoDB table; a state file's lock is freed at once when its process is gone) for at most this long.
 */
export const LEASE_TTL_MS = 2 * 60_000;

export async function printStatus(deps: CycleDeps & { chain: HiroClient }, options: CliOptions, config: WatchConfig): Promise<number> {
  const cursor = await deps.state.readCursor();
  let tip: { height: number } | { error: string };
  try {
    const chainTip = await deps.chain.getTip();
    tip = chainTip ? { height: chainTip.height } : { error: 'the API has no chain tip yet' };
  } catch (error) {
    tip = { error: (error as Error).message };
  }
  const statePath = options.table ? `DynamoDB table ${options.table}` : options.state;
  const liveConfig = options.table ? await readLiveConfigMemo(options.table) : undefined;
  // The record that decides how the next run reads the mempool; one the run could not read, it starts afresh.
  const mempool = pendingRules(compileWatchRules(config)) ? await deps.state.readRecord('mempool').catch(() => null) : undefined;
  process.stdout.write(
    describeStatus({
      statePath,
      network: config.network,
      config,
      cursor,
      nowMs: Date.now(),
      tip,
      configPath: options.config,
      ...(options.fetchWay ? { fetchWay: options.fetchWay } : {}),
      ...(liveConfig !== undefined ? { liveConfig } : {}),
      ...(mempool !== undefined ? { mempool } : {}),
    }),
  );
  return EXIT.ok;
}

/**
 * `LOG_LEVEL=debug`: one line per HTTP attempt, as it ends: method, route template, status and milliseconds.
 * The route is the template (`GET /extended/v2/blocks/{height_or_hash}`), so no query, and never the API key.
 */
export function requestLog(telemetry: Telemetry): (event: HiroRequestEvent) => void {
  return ({ endpoint, status, durationMs, retry }) =>
    telemetry.log('debug', `${endpoint} ${status} ${Math.round(durationMs)} ms${retry > 0 ? ` (retry ${retry})` : ''}`);
}

/**
 * The client's log on the terminal. A retried request is debug here, not a warning: a request that gives up
 * fails the cycle, which the outage tracker says once (outage.ts), and one that got through changed nothing,
 * so a warning per retry would say the same outage four times a cycle. Its other warnings stay warnings.
 */
export function hiroLog(telemetry: Telemetry): NonNullable<HiroClientOptions['log']> {
  return (level, message, attributes) => telemetry.log(level === 'warn' && attributes?.retry !== undefined ? 'debug' : level, message, attributes);
}

/**
 * The first request, which checks the API is there and serves the config's network, gives up after two
 * attempts of 3.5 s each (with the start, under 10 s in all): an API that accepts the connection but never answers, or no network,
 * is then named at once, instead of after the five attempts of 10 s a cycle's requests get (about a minute).
 */
export const FIRST_CONTACT = { timeoutMs: 3_500, maxRetries: 1 } as const;

export function firstContactClient(api: ApiSettings, telemetry: Telemetry): HiroClient {
  return createHiroClient({ ...api, ...FIRST_CONTACT, log: hiroLog(telemetry), onRequest: requestLog(telemetry) });
}

/**
 * The run's Hiro client, made on first use and the same after: start-up's token metadata reads and the cycles
 * share it, and so its request budget (a second client would have a budget of its own, on top).
 */
export function runClient(options: CliOptions, telemetry: Telemetry): (api: ApiSettings) => HiroClient {
  let chain: HiroClient | undefined;
  return (api) =>
    (chain ??= createHiroClient({
      ...api,
      onRequest: requestLog(telemetry),
      // --status asks for the tip once and says when it cannot: no retries behind its back.
      ...(options.status ? { maxRetries: 0 } : {}),
      log: hiroLog(telemetry),
      operator: operatorChannelOverLog(telemetry),
    }));
}

/** `chain`: the run's client (runClient), which start-up may have used already. */
export async function buildDeps(options: CliOptions, config: WatchConfig, telemetry: Telemetry, chain: HiroClient) {
  const operator = operatorChannelOverLog(telemetry);
  const state: StateStore = options.table
    ? await openDynamoState(options.table, config.network, telemetry)
    : await FileStateStore.open(options.state, config.network);
  const primary: Publisher = options.topic
    ? await openSnsPublisher(options.topic, telemetry)
    : createStdoutPublisher(process.stdout, options.json ? 'json' : 'human');
  for (const warning of channelVariableNearMisses(process.env)) telemetry.log('warn', warning);
  const chat = await chatChannels(primary, state, telemetry);
  const out = chat ?? primary;
  const clearing: Publisher = {
    publish: (alerts, onAccepted) => {
      clearProgress();
      return out.publish(alerts, onAccepted);
    },
  };
  const ports = { state, clock: { now: () => Date.now() }, telemetry, operator, emily: emilyFromEnv(process.env, config.network, telemetry.log) };
  // Only an SNS topic reaches phones (each cycle is an invocation: its texts, then one digest); stdout prints every alert.
  const smsBudget = options.topic
    ? new SmsBudget(clearing, ports, { network: config.network, perInvocation: config.smsPerRun ?? SMS_PER_RUN_DEFAULT, staleAfterMs: LEASE_TTL_MS })
    : undefined;
  return { chain, ...ports, publisher: smsBudget ?? clearing, ...(smsBudget ? { smsBudget } : {}), ...(chat ? { chat } : {}) };
}

/**
 * The chat channels whose variables are set, each with its own queue; their deliveries are kept in the state
 * file (in memory with a DynamoDB table).
 */
async function chatChannels(primary: Publisher, state: StateStore, telemetry: Telemetry): Promise<ChatPublisher | undefined> {
  const channels = channelsFromEnv(process.env);
  if (channels.length === 0) return undefined;
  telemetry.log('info', `alerts also go to ${channels.map((c) => c.name).join(', ')}`);
  const deliveries = state instanceof FileStateStore ? state : memoryChatLog();
  return withChatChannels(primary, channels, deliveries, telemetry.log);
}

export async function openDynamoState(tableName: string, network: WatchConfig['network'], telemetry: Telemetry): Promise<StateStore> {
  const { createDynamoStateStore } = await import('../adapters/dynamodb');
  return createDynamoStateStore({ client: await dynamoClient(), tableName, network, log: telemetry.log });
}

/** A DynamoDB client from the standard AWS chain, once a region is known (EnvironmentError otherwise). */
export async function dynamoClient() {
  const { DynamoDBClient } = await import('@aws-sdk/client-dynamodb');
  const client = new DynamoDBClient({});
  await requireRegion(() => client.config.region());
  return client;
}

/** The deployed watcher's memo of its live watch config (the version in use, a refused one), from its table. */
async function readLiveConfigMemo(tableName: string): Promise<WatchConfigMemo | null> {
  const { DynamoDBClient } = await import('@aws-sdk/client-dynamodb');
  const { DynamoDBDocumentClient } = await import('@aws-sdk/lib-dynamodb');
  const { createDynamoConfigMemoStore } = await import('../adapters/dynamodb/config-memo');
  return createDynamoConfigMemoStore(DynamoDBDocumentClient.from(new DynamoDBClient({})), tableName).readConfigMemo();
}

/** The SDK's own "Region is missing" does not say what to set. */
async function requireRegion(region: () => Promise<string>): Promise<void> {
  let found: string | undefined;
  try {
    found = await region();
  } catch {
    found = undefined;
  }
  if (!found) {
    throw new EnvironmentError('--table needs an AWS region: set AWS_REGION (e.g. AWS_REGION=us-east-1), or a region in your AWS profile');
  }
}

async function openSnsPublisher(topicArn: string, telemetry: Telemetry): Promise<Publisher> {
  const { SNSClient } = await import('@aws-sdk/client-sns');
  const { createSnsPublisher } = await import('../adapters/sns');
  return createSnsPublisher({ client: new SNSClient({ maxAttempts: 1 }), topicArn, log: telemetry.log });
}
