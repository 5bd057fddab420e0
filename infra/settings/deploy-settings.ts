// The deployment's settings, read from CDK context (`-c key=value`, cdk.json or cdk.context.json) and
// checked before any construct is built, so that a mistake fails the synth with every problem named.
import { resolve } from 'node:path';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { z } from 'zod';
import { describeValue, formatPath, valueAt } from '../../lambda/core/watch-config/config-problems';
import { type AlertSubscription, alertSubscriptions, email, subscriptionContext } from './alert-subscriptions';
import { flag, stringList, wholeNumber } from './context-values';
import { unknownKeyProblems } from './unknown-keys';
import { chatContext, chatSubscriptions, type ChatSubscription } from './chat-settings';

export type ApiKeySource = { kind: 'none' } | { kind: 'existing'; secretArn: string } | { kind: 'created' };

export type LogLevel = 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';

/** `aws-managed`: the alerts topic under `aws/sns`, the operations topic plain; `customer`: one key of the stack's own for both. */
export type TopicEncryption = 'aws-managed' | 'customer';

export interface DeploySettings {
  stackName: string;
  /** Absolute path of the watch config to validate and bundle. */
  watchConfigPath: string;
  alertSubscriptions: AlertSubscription[];
  /** Chat channels fed from the alerts topic by a notifier function each. */
  chat: ChatSubscription[];
  opsEmails: string[];
  scheduleMinutes: number;
  /** 0: one cycle per invocation; > 0: keep polling this often within an invocation. */
  pollSeconds: number;
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
  logRetentionDays: RetentionDays;
  logLevel: LogLevel;
  serviceName: string;
  metricsNamespace: string;
  /** Reserve one concurrent execution, so that two runs never overlap (needs unreserved quota above 10). */
  reserveConcurrency: boolean;
  /** A CloudWatch dashboard ($3 a month beyond an account's first three). */
  dashboard: boolean;
  encryptionKey: TopicEncryption;
  /** Every metric on every run, instead of the lag and non-zero counters only. */
  detailedMetrics: boolean;
  /** Put watch.json in the config store as a new version even over a newer one pushed at runtime. */
  replaceWatchConfig: boolean;
}

export const DEFAULT_TIMEOUT_SECONDS = 120;
/**
 * Sized from measurement, not left at a default: `npm run bench -- --only memory` runs the bundled handler
 * through a catch-up over the 192 heaviest generated blocks (about 15,000 transactions and 2,250 alerts
 * published, three full read-ahead batches; table 7). With the heap limit the stack sets (`heapLimitMb`) the
 * run's RSS stays well under 256 MB; 128 MB would be exceeded by the loaded bundle and one batch. A run
 * following the tip holds far less, but a catch-up after downtime must not fail for memory. Lambda bills
 * memory x time, so more would only cost more while the run waits on the API.
 */
export const DEFAULT_MEMORY_MB = 256;

/**
 * V8's old-space limit for a function of `memoryMb`: half of it. Left to itself, V8 sizes its heap for the
 * machine and collects lazily, so a heavy catch-up's RSS grows with garbage not yet collected (bench table 7:
 * 233 MB peak at Node's default against 52 to 62 MB of heap really used). Bounding the heap makes V8 collect
 * before the function's memory is reached, leaving the other half for code, buffers and the runtime.
 */
export function heapLimitMb(memoryMb: number): number {
  return Math.floor(memoryMb / 2);
}
/** With polling on, the run ends this long after the next one is due, so no interval goes unwatched. */
export const POLL_TIMEOUT_HEADROOM_SECONDS = 30;
const LAMBDA_MAX_TIMEOUT_SECONDS = 900;

const SECRET_ARN = /^arn:aws[a-z-]*:secretsmanager:[a-z0-9-]+:\d{12}:secret:[A-Za-z0-9/_+=.@-]+-[A-Za-z0-9]{6}$/;

const RETENTION_DAYS = Object.values(RetentionDays).filter(
  (days): days is RetentionDays => typeof days === 'number' && days !== RetentionDays.INFINITE,
);

const contextSchema = z.object({
  stackName: z
    .string()
    .regex(/^[A-Za-z][A-Za-z0-9-]{0,127}$/, { error: 'must start with a letter and use only letters, digits and "-"' })
    .default('StacksWatch'),
  watchConfig: z.string().trim().min(1, { error: 'must be the path of the watch config file' }).default('watch.json'),
  ...subscriptionContext,
  ...chatContext,
  opsEmails: stringList(email, 'email addresses').default([]),
  scheduleMinutes: wholeNumber(1, 60, ' of minutes').default(1),
  pollSeconds: wholeNumber(0, 600, ' of seconds (0 turns polling off)').default(0),
  memorySize: wholeNumber(128, 10_240, ' of MB').default(DEFAULT_MEMORY_MB),
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
  replaceWatchConfig: flag().default(false),
});

export const CONTEXT_KEYS = Object.keys(contextSchema.shape) as (keyof typeof contextSchema.shape)[];

export class DeploySettingsError extends Error {
  readonly problems: string[];

  constructor(problems: string[]) {
    super(
      [
        `${problems.length === 1 ? '1 problem' : `${problems.length} problems`} in the deploy settings (CDK context):`,
        ...problems.map((problem) => `  - ${problem}`),
        'Set them with -c key=value, or under "context" in cdk.json.',
      ].join('\n'),
    );
    this.name = 'DeploySettingsError';
    this.problems = problems;
  }
}

type ContextValues = z.infer<typeof contextSchema>;

function issueProblem(issue: z.core.$ZodIssue, raw: Record<string, unknown>): string {
  const where = formatPath(issue.path).replace(/^\$\.?/, '');
  // A list item exists only after comma-separated or JSON text is split or parsed, so where the raw context
  // has nothing at the issue's path, the issue's own input is the value found.
  const asGiven = valueAt(raw, issue.path);
  const found = asGiven === undefined && 'input' in issue ? issue.input : asGiven;
  const shown = describeValue(found);
  // Messages that quote the text (E.164, email, principals) already say what was found.
  if (found === undefined || (typeof found === 'string' && issue.message.includes(shown))) return `${where}: ${issue.message}`;
  return `${where}: ${issue.message} (found: ${shown})`;
}

function timeoutFor(values: ContextValues, problems: string[]): number {
  const intervalSeconds = values.scheduleMinutes * 60;
  if (values.pollSeconds === 0) return values.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS;
  if (values.pollSeconds >= intervalSeconds) {
    problems.push(
      `pollSeconds: ${values.pollSeconds} s is not shorter than the schedule interval (${intervalSeconds} s); ` +
        'poll more often, or set pollSeconds=0 and let the schedule run the cycles',
    );
  }
  const timeout = values.timeoutSeconds ?? intervalSeconds + POLL_TIMEOUT_HEADROOM_SECONDS;
  if (timeout <= intervalSeconds) {
    problems.push(
      `timeoutSeconds: ${timeout} s must exceed the schedule interval (${intervalSeconds} s) when pollSeconds is on, ` +
        'or a polling run ends before the next one starts; raise it or leave it out',
    );
  } else if (timeout > LAMBDA_MAX_TIMEOUT_SECONDS) {
    problems.push(
      `scheduleMinutes: with pollSeconds on, the timeout must exceed the ${intervalSeconds} s interval, and Lambda ` +
        `allows at most ${LAMBDA_MAX_TIMEOUT_SECONDS} s; use scheduleMinutes=14 or less`,
    );
  }
  return timeout;
}

function apiKeySource(values: ContextValues, problems: string[]): ApiKeySource {
  if (values.apiKeySecretArn !== undefined && values.createApiKeySecret) {
    problems.push('apiKeySecretArn and createApiKeySecret=true both name the API key secret; keep one');
  }
  if (values.apiKeySecretArn !== undefined) return { kind: 'existing', secretArn: values.apiKeySecretArn };
  return values.createApiKeySecret ? { kind: 'created' } : { kind: 'none' };
}

/**
 * The settings from `context` (a CDK node's tryGetContext); relative paths resolve against `cwd`.
 * `givenKeys`, every key in the app's context, is checked against the settings table.
 * Throws DeploySettingsError naming every problem.
 */
export function readDeploySettings(context: (key: string) => unknown, cwd = process.cwd(), givenKeys: readonly string[] = []): DeploySettings {
  const raw = Object.fromEntries(CONTEXT_KEYS.map((key) => [key, context(key)]));
  const unknown = unknownKeyProblems(givenKeys, CONTEXT_KEYS);
  const parsed = contextSchema.safeParse(raw, { reportInput: true });
  if (!parsed.success) throw new DeploySettingsError([...unknown, ...parsed.error.issues.map((issue) => issueProblem(issue, raw))]);
  if (unknown.length > 0) throw new DeploySettingsError(unknown);
  const values = parsed.data;
  const problems: string[] = [];
  const { subscriptions, problems: subscriptionProblems } = alertSubscriptions(values);
  problems.push(...subscriptionProblems);
  const { chat, problems: chatProblems } = chatSubscriptions(values.chat);
  problems.push(...chatProblems);
  const timeoutSeconds = timeoutFor(values, problems);
  const apiKey = apiKeySource(values, problems);
  if (problems.length > 0) throw new DeploySettingsError(problems);
  return {
    stackName: values.stackName,
    watchConfigPath: resolve(cwd, values.watchConfig),
    alertSubscriptions: subscriptions,
    chat,
    opsEmails: values.opsEmails,
    scheduleMinutes: values.scheduleMinutes,
    pollSeconds: values.pollSeconds,
    memorySize: values.memorySize,
    timeoutSeconds,
    apiKey,
    deletionProtection: values.deletionProtection,
    ...(values.stacksApiUrl !== undefined ? { stacksApiUrl: values.stacksApiUrl } : {}),
    ...(values.stacksApiRpm !== undefined ? { stacksApiRpm: values.stacksApiRpm } : {}),
    lagAlarmSeconds: values.lagAlarmSeconds,
    logRetentionDays: values.logRetentionDays,
    logLevel: values.logLevel,
    serviceName: values.serviceName,
    metricsNamespace: values.metricsNamespace,
    reserveConcurrency: values.reserveConcurrency,
    dashboard: values.dashboard,
    encryptionKey: values.encryptionKey,
    detailedMetrics: values.detailedMetrics,
    replaceWatchConfig: values.replaceWatchConfig,
  };
}
