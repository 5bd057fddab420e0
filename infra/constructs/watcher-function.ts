// The watcher Lambda: lambda/handler.ts bundled by esbuild (ESM, minified, source maps, the AWS SDK inside);
// it reads the watch config from the config store each run, so no config is baked in. One run at a time; a run the schedule missed
// is not retried, since the next scheduled run covers it, but every lost invocation lands in a queue. In the loop
// mode the turns run the same bundle in a second function (its role, log group and environment the same), whose
// timeout is the loop's delay: see `turnsFunction`.
import { join } from 'node:path';
import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { ApplicationLogLevel, Architecture, type IDestination, LoggingFormat, RecursiveLoop, Runtime, SystemLogLevel } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, type NodejsFunctionProps } from 'aws-cdk-lib/aws-lambda-nodejs';
import { ESM_BUNDLING } from './bundling';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { LogLevel } from '../settings/deploy-settings';
import { grantWatcherAccess } from './watcher-permissions';
import { WatchLoop } from './watch-loop';

export const HANDLER_ENTRY = 'lambda/handler.ts';

/**
 * How the watcher's functions log: JSON, the application's lines at the deploy's level, and Lambda's own START,
 * END and REPORT lines (about 350 B an invocation, most of a quiet loop turn's log bill) left out by the system
 * level WARN. Powertools takes the level Lambda hands it
 * (AWS_LAMBDA_LOG_LEVEL), the deploy's, as it took POWERTOOLS_LOG_LEVEL. Lambda takes a line without a level (the
 * metrics' EMF records) for INFO, so above INFO the text format stays, with Lambda's lines.
 */
export function watcherLogging(logLevel: LogLevel) {
  if (logLevel !== 'DEBUG' && logLevel !== 'INFO') return {};
  return { loggingFormat: LoggingFormat.JSON, systemLogLevelV2: SystemLogLevel.WARN, applicationLogLevelV2: ApplicationLogLevel[logLevel] };
}

/** Lambda's bounds on an asynchronous event's age. */
const MIN_EVENT_AGE = Duration.minutes(1);
const MAX_EVENT_AGE = Duration.hours(6);

export interface WatcherFunctionProps {
  /** The repository root: where package-lock.json, tsconfig.json and lambda/ are. */
  projectRoot: string;
  /** The live watch config object's ARN, which the function reads. */
  watchConfigObjectArn: string;
  table: ITableV2;
  alertsTopic: ITopic;
  /** The operations topic: operator notices go there, beside the alarms. */
  opsTopic: ITopic;
  topicKey?: IKey;
  apiKeySecret?: ISecret;
  /** Everything else the handler reads from its environment. */
  environment: Record<string, string>;
  memorySize: number;
  timeout: Duration;
  scheduleInterval: Duration;
  reserveConcurrency: boolean;
  logRetention: RetentionDays;
  /** The deploy's log level (watcherLogging). */
  logLevel: LogLevel;
  /** The self-rescheduling loop (docs/latency.md): a turn every `delaySeconds`, each working at most `turnSeconds`. */
  loop?: { delaySeconds: number; turnSeconds: number };
}

function clamp(value: Duration, min: Duration, max: Duration): Duration {
  const seconds = Math.min(Math.max(value.toSeconds(), min.toSeconds()), max.toSeconds());
  return Duration.seconds(seconds);
}

export class WatcherFunction extends Construct {
  readonly function: NodejsFunction;
  readonly deadLetterQueue: Queue;
  readonly logGroup: LogGroup;
  readonly role: Role;
  /** How old a queued invocation may get before it is dropped to the dead-letter queue. */
  readonly maxEventAge: Duration;
  /** The loop's queue, in the loop mode. */
  readonly loop: WatchLoop | undefined;
  /** The function the loop's turns run in (the queue's event source), in the loop mode. */
  readonly turns: NodejsFunction | undefined;
  /** The function's environment, for the doorbell, which runs the same cycle. */
  readonly environment: Record<string, string>;

  constructor(scope: Construct, id: string, props: WatcherFunctionProps) {
    super(scope, id);
    this.logGroup = new LogGroup(this, 'Logs', {
      retention: props.logRetention,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.deadLetterQueue = new Queue(this, 'DeadLetters', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    Validations.of(this.deadLetterQueue).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason: 'This queue is itself the dead-letter destination of the function and its schedule; nothing consumes it.',
    });
    this.role = new Role(this, 'Role', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: 'stacks-watch function: its table, its alerts and ops topics and their key, its API key secret, its logs',
    });
    grantWatcherAccess(this.role, {
      table: props.table,
      alertsTopic: props.alertsTopic,
      opsTopic: props.opsTopic,
      ...(props.topicKey ? { topicKey: props.topicKey } : {}),
      logGroup: this.logGroup,
      deadLetterQueue: this.deadLetterQueue,
      ...(props.apiKeySecret ? { apiKeySecret: props.apiKeySecret } : {}),
      watchConfigObjectArn: props.watchConfigObjectArn,
    });
    // An older queued run is worth nothing once the next scheduled one is due.
    this.maxEventAge = clamp(props.scheduleInterval, MIN_EVENT_AGE, MAX_EVENT_AGE);
    const deadLetterQueue = this.deadLetterQueue;
    // SqsDestination would also grant sqs:GetQueueAttributes and sqs:GetQueueUrl, which Lambda's
    // delivery of failed events does not use; the role gets sqs:SendMessage alone.
    const onFailure: IDestination = { bind: () => ({ destination: deadLetterQueue.queueArn }) };
    const { projectRoot } = props;
    this.loop = props.loop ? new WatchLoop(this, 'Loop', { delaySeconds: props.loop.delaySeconds }) : undefined;
    const loopEnvironment: Record<string, string> =
      this.loop && props.loop
        ? {
            LOOP_QUEUE_URL: this.loop.queue.queueUrl,
            LOOP_DELAY_SECONDS: String(props.loop.delaySeconds),
            LOOP_TURN_SECONDS: String(props.loop.turnSeconds),
            // A failed turn reports itself there: the loop's recycled message never goes to a dead-letter queue.
            DEAD_LETTER_QUEUE_URL: deadLetterQueue.queueUrl,
          }
        : {};

    const bundle = {
      entry: join(projectRoot, HANDLER_ENTRY),
      projectRoot,
      depsLockFilePath: join(projectRoot, 'package-lock.json'),
      handler: 'handler',
      runtime: Runtime.NODEJS_24_X,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize,
      role: this.role,
      logGroup: this.logGroup,
      ...watcherLogging(props.logLevel),
      environment: (this.environment = { ...props.environment, ...loopEnvironment }),
      bundling: ESM_BUNDLING,
    };
    this.function = new NodejsFunction(this, 'Function', {
      ...bundle,
      description: 'stacks-watch: scans new Stacks blocks and contract statuses, publishes alerts',
      timeout: props.timeout,
      // One run at a time (the loop's turns have a function of their own).
      ...(props.reserveConcurrency ? { reservedConcurrentExecutions: 1 } : {}),
      retryAttempts: 0,
      maxEventAge: this.maxEventAge,
      onFailure,
    });
    this.turns = this.loop && props.loop ? turnsFunction(this, bundle, props.loop.delaySeconds, props.reserveConcurrency) : undefined;
    if (this.loop && this.turns) this.loop.attach(this.turns, this.role);
  }
}

/**
 * The function the loop's turns run in: the watcher's bundle, role, log group and environment, timing out at the
 * loop's delay. Lambda refuses an SQS event source whose function's timeout exceeds the queue's visibility
 * timeout ("Lambda validates this requirement", its developer guide), and that timeout is the delay, which gives
 * an ordinary turn its next turn with no request (watch-loop.ts). The schedule's ticks keep the deploy's timeout
 * in the watcher function: a tick that restarts a dead loop, reads a new watch config's token decimals, checks a
 * long watch list's statuses or sBTC's Emily, or finds the loop dead after a minute needs more than a delay of
 * 1 to 60 s; a turn works the delay less a margin (loopTurnSeconds) and ends there, its catch-up going on in the
 * next turn at once.
 */
function turnsFunction(scope: Construct, bundle: NodejsFunctionProps, delaySeconds: number, reserveConcurrency: boolean): NodejsFunction {
  return new NodejsFunction(scope, 'Turns', {
    ...bundle,
    description: "stacks-watch loop turns: one cycle every few seconds (the schedule's ticks run in the watcher function)",
    timeout: Duration.seconds(delaySeconds),
    // The event source's least maximum concurrency (2); the loop's token and the lease keep one cycle at a time.
    ...(reserveConcurrency ? { reservedConcurrentExecutions: 2 } : {}),
    // The loop invokes this function through its own queue, which Lambda would otherwise stop.
    recursiveLoop: RecursiveLoop.ALLOW,
  });
}
