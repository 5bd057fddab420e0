// The deployment's settings, read from the committed settings file (deploy.json, see settings-file.ts) with
// CDK context (`-c key=value`, cdk.json or cdk.context.json) overriding a value for one deploy, and checked
// before any construct is built, so that a mistake fails the synth with every problem named.
import { resolve } from 'node:path';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { z } from 'zod';
import { type AlertSubscription, alertSubscriptions, email, subscriptionContext } from './alert-subscriptions';
import { flag, stringList, wholeNumber } from './context-values';
import { unknownKeyProblems } from './unknown-keys';
import { issueProblems } from './settings-problems';
import { chatContext, chatSubscriptions, type ChatSubscription } from './chat-settings';
import { addedSubscribersWarning, droppedSubscribersProblem, SUBSCRIBER_KEYS } from './subscriber-guard';
import { latencyContext, latencyProblems, latencySettings, RETIRED_POLL_KEY, retiredPollProblem, type LatencySettings } from './latency-settings';

export type ApiKeySource = { kind: 'none' } | { kind: 'existing'; secretArn: string } | { kind: 'created' };

export type LogLevel = 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';

/** `aws-managed`: the alerts topic under `aws/sns`, the operations topic plain; `customer`: one key of the stack's own for both. */
export type TopicEncryption = 'aws-managed' | 'customer';

export interface DeploySettings extends LatencySettings {
  stackName: string;
  /** Absolute path of the watch config to validate and bundle. */
  watchConfigPath: string;
  alertSubscriptions: AlertSubscription[];
  /** Chat channels fed from the alerts topic by a notifier function each. */
  chat: ChatSubscription[];
  opsEmails: string[];
  scheduleMinutes: number;
  memorySize: number;
  timeoutSeconds: number;
  apiKey: ApiKeySource;
  /** Off for throwaway stacks: the table is then also deleted with the stack. */
  deletionProtection: boolean;
  /** Unset: the Hiro API of the watch config's network. */
  stacksApiUrl?: string;
  /** Unset: the function picks Hiro's limit for whether it holds a key. */
  stacksApiRpm?: number;
  lagAlarmSeconds: number;
  /** How each run reads the chain (FETCH_WAY): the block scan, the fetch plan's choice, or per subject. Unset: the plan's choice (auto). */
  fetchWay?: 'block-scan' | 'auto' | 'per-subject';
  logRetentionDays: RetentionDays;
  logLevel: LogLevel;
  serviceName: string;
  metricsNamespace: string;
  /** Reserve one concurrent execution, so that two runs never overlap (needs unreserved quota above 10). */
  reserveConcurrency: boolean;
  /** A CloudWatch dashboard ($3 a month beyond an account's first three). */
  dashboard: boolean;
  encryptionKey: TopicEncryption;
  /** Every metric on every run, instead of the non-zero counters only; brings the lag metric's alarm and the dashboard. */
  detailedMetrics: boolean;
  /** Put watch.json in the config store as a new version even over a newer one pushed at runtime. */
  replaceWatchConfig: boolean;
  warnings?: string[]; // what the synth warns about without refusing (subscriber-guard.ts)
}

export const DEFAULT_TIMEOUT_SECONDS = 120;
/**
 * Sized from measurement, not left at a default: `npm run bench -- --only memory` runs the bundled handler
 * through a catch-up over the 192 heaviest generated blocks (about 15,000 transactions and 2,250 alerts
 * published; table 7). With the heap limit the stack sets (`heapLimitMb`) the run's RSS stays well under
 * 256 MB; at 128 MB it fits only with the read-ahead and young generation kept small (`SMALL_MEMORY_MB`). A run
 * following the tip holds far less, but a catch-up after downtime must not fail for memory. Lambda bills
 * memory x time, so more would only cost more while the run waits on the API.
 */
export const DEFAULT_MEMORY_MB = 256;
/**
 * The smallest function, a choice (`memorySize: 128`, which the shipped deploy.json makes for the loop), not the
 * code's default: a turn following the tip holds little, and a catch-up through heavy blocks reads 2 blocks ahead
 * with 2 requests in flight (lambda/runtime/memory-bounds.ts) with V8's young generation kept small
 * (`nodeOptions`), and its HTTP on node:http rather than fetch (lambda/hiro/node-get.ts). Table 7 measures its peak,
 * the process's own high-water mark, against the 1.3 x margin. A settings file that names no memory keeps 256 MB.
 */
export const SMALL_MEMORY_MB = 128;

/**
 * The function's NODE_OPTIONS: source maps, the heap bounded (`heapLimitMb`) and, at 128 MB, a 1 MB semi-space,
 * since V8's young generation (up to 3 x 16 MB by default) lies outside the old-space limit (table 7).
 */
export function nodeOptions(memoryMb: number): string {
  return `--enable-source-maps --max-old-space-size=${heapLimitMb(memoryMb)}${memoryMb <= SMALL_MEMORY_MB ? ' --max-semi-space-size=1' : ''}`;
}

/**
 * V8's old-space limit for a function of `memoryMb`: half of it. Left to itself, V8 sizes its heap for the
 * machine and collects lazily, so a heavy catch-up's RSS grows with garbage not yet collected (bench table 7:
 * 233 MB peak at Node's default against 52 to 62 MB of heap really used). Bounding the heap makes V8 collect
 * before the function's memory is reached, leaving the other half for code, buffers and the runtime.
 */
export function heapLimitMb(memoryMb: number): number {
  return Math.floor(memoryMb / 2);
}

const LAMBDA_MAX_TIMEOUT_SECONDS = 900;

const SECRET_ARN = /^arn:aws[a-z-]*:secretsmanager:[a-z0-9-]+:\d{12}:secret:[A-Za-z0-9/_+=.@-]+-[A-Za-z0-9]{6}$/;

const RETENTION_DAYS = Object.values(RetentionDays).filter((days): days is RetentionDays => typeof days === 'number' && days !== RetentionDays.INFINITE);

export const settingsSchema = z.object({
  stackName: z
    .string()
    .regex(/^[A-Za-z][A-Za-z0-9-]{0,127}$/, { error: 'must start with a letter and use only letters, digits and "-"' })
    .default('StacksWatch'),
  watchConfig: z.string().trim().min(1, { error: 'must be the path of the watch config file' }).default('watch.json'),
  ...subscriptionContext,
  ...chatContext,
  opsEmails: stringList(email, 'email addresses').default([]),
  scheduleMinutes: wholeNumber(1, 60, ' of minutes').default(1),
  ...latencyContext,
  memorySize: wholeNumber(128, 10_240, ' of MB').optional(),
  timeoutSeconds: wholeNumber(1, LAMBDA_MAX_TIMEOUT_SECONDS, ' of seconds').optional(),
  apiKeySecretArn: z
    .string()
    .regex(SECRET_ARN, {
      error: 'must be the complete ARN of a Secrets Manager secret (arn:aws:secretsmanager:REGION:ACCOUNT:secret:NAME-AbCdEf)',
    })
    .optional(),
  createApiKeySecret: flag().default(false),
  deletionProtection: flag().default(true),
  stacksApiUrl: z.url({ protocol: /^https$/, error: 'must be an https:// URL, e.g. https://api.hiro.so' }).optional(),
  stacksApiRpm: wholeNumber(1, 100_000, ' of requests per minute').optional(),
  lagAlarmSeconds: wholeNumber(60, 86_400, ' of seconds').default(600),
  fetchWay: z.enum(['block-scan', 'auto', 'per-subject'], { error: 'must be block-scan, auto or per-subject' }).optional(),
  logRetentionDays: z
    .preprocess(
      (raw) => (typeof raw === 'string' && /^\s*\d+\s*$/.test(raw) ? Number(raw) : raw),
      z.union(RETENTION_DAYS.map((days) => z.literal(days)) as [z.ZodLiteral<RetentionDays>, ...z.ZodLiteral<RetentionDays>[]], {
        error: `must be a number of days CloudWatch Logs accepts: ${RETENTION_DAYS.join(', ')}`,
      }),
    )
    .default(RetentionDays.ONE_MONTH),
  logLevel: z.enum(['DEBUG', 'INFO', 'WARN', 'ERROR'], { error: 'must be DEBUG, INFO, WARN or ERROR' }).default('INFO'),
  serviceName: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{1,100}$/, { error: 'must be 1 to 100 letters, digits, "-", "_" or "."' })
    .default('stacks-watch'),
  metricsNamespace: z
    .string()
    .regex(/^[A-Za-z0-9_.\-/#:]{1,255}$/, { error: 'must be 1 to 255 letters, digits or one of . - _ / # :' })
    .default('StacksWatch'),
  reserveConcurrency: flag().default(true),
  dashboard: flag().default(false),
  encryptionKey: z.enum(['aws-managed', 'customer'], { error: 'must be aws-managed or customer' }).default('aws-managed'),
  detailedMetrics: flag().default(false),
});

const contextSchema = settingsSchema;

/** The settings: each may be written in the settings file or given with `-c`. */
export const CONTEXT_KEYS = Object.keys(contextSchema.shape) as (keyof typeof contextSchema.shape)[];

/**
 * Context keys that are not settings but are about one deploy: which settings file to read, leave to remove
 * subscribers the file lists (see subscriber-guard.ts), and leave to put watch.json over a newer live watch
 * config (docs/watch-config-store.md). They are never written in the file: a lasting "yes" would defeat them.
 */
export const ONE_DEPLOY_KEYS = ['settingsFile', 'allowFewerSubscribers', 'replaceWatchConfig'] as const;

/** The settings file's values, as parsed (see settings-file.ts), and the name problems in it are shown under. */
export interface SettingsFileValues {
  source: string;
  values: Record<string, unknown>;
}

export class DeploySettingsError extends Error {
  readonly problems: string[];

  constructor(problems: string[]) {
    super(
      [
        `${problems.length === 1 ? '1 problem' : `${problems.length} problems`} in the deploy settings (deploy.json, or -c on the command line):`,
        ...problems.map((problem) => `  - ${problem}`),
        'Write them in deploy.json (each setting: deploy.example.json, docs/deploy-and-operations.md); -c key=value overrides one for one deploy.',
      ].join('\n'),
    );
    this.name = 'DeploySettingsError';
    this.problems = problems;
  }
}

type ContextValues = z.infer<typeof contextSchema>;

function apiKeySource(values: ContextValues, problems: string[]): ApiKeySource {
  if (values.apiKeySecretArn !== undefined && values.createApiKeySecret) {
    problems.push('apiKeySecretArn and createApiKeySecret=true both name the API key secret; keep one');
  }
  if (values.apiKeySecretArn !== undefined) return { kind: 'existing', secretArn: values.apiKeySecretArn };
  return values.createApiKeySecret ? { kind: 'created' } : { kind: 'none' };
}

/** The settings file's own problems: unknown keys (with a did-you-mean) and values the schema refuses. */
function fileProblems(file: SettingsFileValues | undefined): string[] {
  if (!file) return [];
  const keys = Object.keys(file.values).filter((key) => key !== '$schema' && key !== '$comment' && key !== RETIRED_POLL_KEY);
  const retired = retiredPollProblem(file.values[RETIRED_POLL_KEY]);
  const oneDeploy = (key: string) => (ONE_DEPLOY_KEYS as readonly string[]).includes(key);
  const unknown = [
    ...keys.filter(oneDeploy).map((key) => `${key}: is for one deploy, not the file; give it with -c ${key}=… when you mean it`),
    ...unknownKeyProblems(
      keys.filter((key) => !oneDeploy(key)),
      CONTEXT_KEYS,
    ),
    ...(retired ? [retired] : []),
  ].map((problem) => `${file.source} at $.${problem}`);
  const raw = Object.fromEntries(CONTEXT_KEYS.map((key) => [key, file.values[key]]));
  return [...unknown, ...issueProblems(settingsSchema.safeParse(raw, { reportInput: true }), raw, () => file.source)];
}

/**
 * The settings from the settings file (`file`, already parsed: see settings-file.ts) with `context` (a CDK
 * node's tryGetContext) overriding a value; relative paths resolve against `cwd`. `givenKeys`, every key in
 * the app's context, is checked against the settings table. A deploy that would unsubscribe someone the file
 * lists is refused unless `allowFewerSubscribers` (subscriber-guard.ts). Throws DeploySettingsError naming
 * every problem.
 */
export function readDeploySettings(
  context: (key: string) => unknown,
  cwd = process.cwd(),
  givenKeys: readonly string[] = [],
  file?: SettingsFileValues,
): DeploySettings {
  const given = (key: string) => context(key) !== undefined;
  const fromFile = (key: string) => (file && !given(key) && file.values[key] !== undefined ? file.source : undefined);
  const raw = Object.fromEntries(CONTEXT_KEYS.map((key) => [key, given(key) ? context(key) : file?.values[key]]));
  const unknown = unknownKeyProblems(
    givenKeys.filter((key) => key !== RETIRED_POLL_KEY),
    [...CONTEXT_KEYS, ...ONE_DEPLOY_KEYS],
  );
  const retired = given(RETIRED_POLL_KEY) ? retiredPollProblem(context(RETIRED_POLL_KEY)) : null;
  if (retired) unknown.push(retired);
  const inFile = fileProblems(file);
  const parsed = contextSchema.safeParse(raw, { reportInput: true });
  // The file's values were checked on their own above; here only what -c gave can be wrong.
  const inContext = issueProblems(parsed, raw, fromFile).filter((problem) => !file || !problem.startsWith(`${file.source} at `));
  const allowFewer = flag().default(false).safeParse(context('allowFewerSubscribers'));
  if (!allowFewer.success) unknown.push('allowFewerSubscribers: must be true or false');
  const replaceWatchConfig = flag().default(false).safeParse(context('replaceWatchConfig'));
  if (!replaceWatchConfig.success) unknown.push('replaceWatchConfig: must be true or false');
  if (unknown.length + inFile.length + inContext.length > 0 || !parsed.success) throw new DeploySettingsError([...inFile, ...unknown, ...inContext]);
  const problems: string[] = [];
  const settings = { ...settingsFrom(parsed.data, cwd, problems), replaceWatchConfig: replaceWatchConfig.data ?? false };
  if (file && problems.length === 0) {
    const fileSettings = settingsFrom(settingsSchema.parse(Object.fromEntries(CONTEXT_KEYS.map((key) => [key, file.values[key]]))), cwd, []);
    const overridden = SUBSCRIBER_KEYS.filter(given);
    const dropped = allowFewer.data ? undefined : droppedSubscribersProblem(fileSettings, settings, file.source, overridden);
    if (dropped) problems.push(dropped);
    const added = addedSubscribersWarning(fileSettings, settings, file.source, overridden);
    if (added) settings.warnings = [added];
  }
  if (problems.length > 0) throw new DeploySettingsError(problems);
  return settings;
}

function settingsFrom(values: ContextValues, cwd: string, problems: string[]): DeploySettings {
  const { subscriptions, problems: subscriptionProblems } = alertSubscriptions(values);
  problems.push(...subscriptionProblems);
  const { chat, problems: chatProblems } = chatSubscriptions(values.chat);
  problems.push(...chatProblems);
  problems.push(...latencyProblems(values));
  const apiKey = apiKeySource(values, problems);
  return {
    stackName: values.stackName,
    watchConfigPath: resolve(cwd, values.watchConfig),
    alertSubscriptions: subscriptions,
    chat,
    opsEmails: values.opsEmails,
    scheduleMinutes: values.scheduleMinutes,
    ...latencySettings(values),
    memorySize: values.memorySize ?? DEFAULT_MEMORY_MB,
    timeoutSeconds: values.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS,
    apiKey,
    deletionProtection: values.deletionProtection,
    ...(values.stacksApiUrl !== undefined ? { stacksApiUrl: values.stacksApiUrl } : {}),
    ...(values.stacksApiRpm !== undefined ? { stacksApiRpm: values.stacksApiRpm } : {}),
    lagAlarmSeconds: values.lagAlarmSeconds,
    ...(values.fetchWay !== undefined ? { fetchWay: values.fetchWay } : {}),
    logRetentionDays: values.logRetentionDays,
    logLevel: values.logLevel,
    serviceName: values.serviceName,
    metricsNamespace: values.metricsNamespace,
    reserveConcurrency: values.reserveConcurrency,
    dashboard: values.dashboard,
    encryptionKey: values.encryptionKey,
    detailedMetrics: values.detailedMetrics,
    replaceWatchConfig: false,
  };
}
