// The Lambda's environment, read and checked before anything else happens, so a deploy mistake is a clear
// error naming the variable at the start of the invocation rather than a failure halfway through a cycle.
import type { FetchWay } from '../core/follow/fetch-choice';
import { EnvironmentError, readFetchWay } from './api-env';

export interface LambdaSettings {
  tableName: string;
  topicArn: string;
  /** The operations topic (alarms and operator notices); without it notices go to the log only. */
  opsTopicArn?: string;
  apiKeySecretArn?: string;
  /** The watch config as JSON text, when set (it overrides the store and any file). */
  watchConfigText?: string;
  /** The live watch config's versioned S3 object, which the stack creates (WATCH_CONFIG overrides it). */
  watchConfigStore?: { bucket: string; key: string };
  /** A watch config file, read when neither WATCH_CONFIG nor the store is set (local runs of the handler). */
  watchConfigPath: string;
  /**
   * How long one invocation may work, when set: the stack sets it a little under the schedule interval, so
   * a run catching up ends before the next one is due rather than overlapping (and being throttled) into it.
   */
  runSeconds?: number;
  /** DETAILED_METRICS=true: every metric on every run, not only the lag and non-zero counters. */
  detailedMetrics: boolean;
  /** The schedule interval, when set: long watch lists have their statuses checked a slice per interval. */
  scheduleSeconds?: number;
  /** The self-rescheduling loop (LOOP_QUEUE_URL set): its one message, recycled turn after turn, is on this queue. */
  loop?: LoopSettings;
  /** The last scanned block older than this is a stall the schedule's tick tells the operations topic of. */
  lagLimitSeconds: number;
  /** The function's memory in MB, as Lambda tells it (AWS_LAMBDA_FUNCTION_MEMORY_SIZE): the watch config's ceilings follow it. */
  functionMemoryMb?: number;
  /** FETCH_WAY (deploy.json's `fetchWay`): how each run reads the chain; the fetch plan's choice (`auto`) unless set. */
  fetchWay: FetchWay;
}

export interface LoopSettings {
  queueUrl: string;
  /** The period of a caught-up loop: the next turn starts this long after this one began. */
  delaySeconds: number;
  /** How long one turn may work (the delay less a margin, at most 20 s); behind the tip the next turn follows at once. */
  turnSeconds: number;
  /** DEAD_LETTER_QUEUE_URL: where a failed turn reports itself, as Lambda sends a failed scheduled run. */
  deadLetterQueueUrl?: string;
}

const QUEUE_URL = /^https:\/\/sqs\.[\w-]+\.amazonaws\.com(\.cn)?\/\d{12}\/[\w-]{1,80}$/;

function readLoopSettings(env: NodeJS.ProcessEnv, problems: string[]): LoopSettings | undefined {
  const queueUrl = env.LOOP_QUEUE_URL?.trim();
  if (!queueUrl) return undefined;
  if (!QUEUE_URL.test(queueUrl)) problems.push(`LOOP_QUEUE_URL is not an SQS queue URL: "${queueUrl}"`);
  const delayText = env.LOOP_DELAY_SECONDS?.trim() || '8';
  const delaySeconds = Number(delayText);
  if (!Number.isInteger(delaySeconds) || delaySeconds < 1 || delaySeconds > 900) {
    problems.push(`LOOP_DELAY_SECONDS must be a whole number of seconds from 1 to 900 (SQS's delay), got "${delayText}"`);
  }
  // The stack sets the delay less a margin (loopTurnSeconds), so a turn ends inside its function's timeout, the delay:
  // half a second at a delay of 1 s.
  const turnText = env.LOOP_TURN_SECONDS?.trim() || '20';
  const turnSeconds = Number(turnText);
  if (!Number.isFinite(turnSeconds) || turnSeconds < 0.5 || turnSeconds > 600) {
    problems.push(`LOOP_TURN_SECONDS must be a number of seconds from 0.5 to 600, got "${turnText}"`);
  }
  const deadLetterQueueUrl = env.DEAD_LETTER_QUEUE_URL?.trim();
  if (deadLetterQueueUrl && !QUEUE_URL.test(deadLetterQueueUrl)) problems.push(`DEAD_LETTER_QUEUE_URL is not an SQS queue URL: "${deadLetterQueueUrl}"`);
  return { queueUrl, delaySeconds, turnSeconds, ...(deadLetterQueueUrl ? { deadLetterQueueUrl } : {}) };
}

const SECRET_ARN = /^arn:aws[\w-]*:secretsmanager:[\w-]+:\d{12}:secret:[\w/+=.@-]+$/;
const TOPIC_ARN = /^arn:aws[\w-]*:sns:[\w-]+:\d{12}:[\w-]{1,256}$/;

export function readLambdaSettings(env: NodeJS.ProcessEnv): LambdaSettings {
  const problems: string[] = [];
  const tableName = env.TABLE_NAME?.trim() ?? '';
  if (!tableName) problems.push('TABLE_NAME is not set (the DynamoDB table for the watcher state)');
  const topicArn = env.TOPIC_ARN?.trim() ?? '';
  if (!topicArn) problems.push('TOPIC_ARN is not set (the SNS topic alerts are published to)');
  else if (!TOPIC_ARN.test(topicArn)) problems.push(`TOPIC_ARN is not an SNS topic ARN: "${topicArn}"`);
  const opsTopicArn = env.OPS_TOPIC_ARN?.trim() || undefined;
  if (opsTopicArn && !TOPIC_ARN.test(opsTopicArn)) problems.push(`OPS_TOPIC_ARN is not an SNS topic ARN: "${opsTopicArn}"`);
  const apiKeySecretArn = env.STACKS_API_KEY_SECRET_ARN?.trim() || undefined;
  if (apiKeySecretArn && !SECRET_ARN.test(apiKeySecretArn)) {
    problems.push(`STACKS_API_KEY_SECRET_ARN is not a Secrets Manager secret ARN: "${apiKeySecretArn}"`);
  }
  const runText = env.RUN_SECONDS?.trim();
  const runSeconds = runText ? Number(runText) : undefined;
  if (runSeconds !== undefined && (!Number.isInteger(runSeconds) || runSeconds < 10 || runSeconds > 3600)) {
    problems.push(`RUN_SECONDS must be a whole number of seconds from 10 to 3600, got "${runText}"`);
  }
  const detailedText = env.DETAILED_METRICS?.trim().toLowerCase() || 'false';
  if (detailedText !== 'true' && detailedText !== 'false') {
    problems.push(`DETAILED_METRICS must be true or false, got "${env.DETAILED_METRICS}"`);
  }
  const scheduleText = env.SCHEDULE_SECONDS?.trim();
  const scheduleSeconds = scheduleText ? Number(scheduleText) : undefined;
  if (scheduleSeconds !== undefined && (!Number.isInteger(scheduleSeconds) || scheduleSeconds < 60 || scheduleSeconds > 3600)) {
    problems.push(`SCHEDULE_SECONDS must be a whole number of seconds from 60 to 3600, got "${scheduleText}"`);
  }
  const loop = readLoopSettings(env, problems);
  const lagText = env.LAG_ALARM_SECONDS?.trim() || '600';
  const lagLimitSeconds = Number(lagText);
  if (!Number.isInteger(lagLimitSeconds) || lagLimitSeconds < 60 || lagLimitSeconds > 86_400) {
    problems.push(`LAG_ALARM_SECONDS must be a whole number of seconds from 60 to 86400, got "${lagText}"`);
  }
  let fetchWay: FetchWay = 'auto';
  try {
    fetchWay = readFetchWay(env);
  } catch (error) {
    problems.push((error as Error).message);
  }
  const bucket = env.WATCH_CONFIG_BUCKET?.trim() || undefined;
  const key = env.WATCH_CONFIG_KEY?.trim() || 'watch.json';
  if (problems.length > 0) throw new EnvironmentError(`invalid Lambda environment:\n- ${problems.join('\n- ')}`);
  const watchConfigText = env.WATCH_CONFIG?.trim() || undefined;
  const functionMemoryMb = Number(env.AWS_LAMBDA_FUNCTION_MEMORY_SIZE);
  return {
    tableName,
    topicArn,
    detailedMetrics: detailedText === 'true',
    lagLimitSeconds,
    fetchWay,
    watchConfigPath: env.WATCH_CONFIG_FILE?.trim() || `${env.LAMBDA_TASK_ROOT ?? process.cwd()}/watch.json`,
    ...(opsTopicArn ? { opsTopicArn } : {}),
    ...(apiKeySecretArn ? { apiKeySecretArn } : {}),
    ...(runSeconds !== undefined ? { runSeconds } : {}),
    ...(scheduleSeconds !== undefined ? { scheduleSeconds } : {}),
    ...(watchConfigText ? { watchConfigText } : {}),
    ...(bucket ? { watchConfigStore: { bucket, key } } : {}),
    ...(loop ? { loop } : {}),
    ...(Number.isInteger(functionMemoryMb) && functionMemoryMb > 0 ? { functionMemoryMb } : {}),
  };
}
