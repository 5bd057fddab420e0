// What the Lambda-path tests set up around the real handler: the environment the stack gives the function
// (table, topic, API, watch config, DynamoDB reached through AWS_ENDPOINT_URL_DYNAMODB, fake credentials,
// the Powertools names), a cold start of the handler module under that environment, and SNS mocked at the
// client recording what the handler asks it to publish. `lambdaOnDynalite` puts them together for a describe
// block; the parts stay exported for a test that needs one of them alone.
import type { PublishBatchRequestEntry, PublishCommandInput, SNSClient } from '@aws-sdk/client-sns';
import { PublishBatchCommand, PublishCommand } from '@aws-sdk/client-sns';
import { clearCaches } from '@aws-lambda-powertools/parameters';
import type { Context } from 'aws-lambda';
import type { AwsClientStub } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, beforeEach, vi } from 'vitest';
import type { InvocationResult } from '../../lambda/handler';
import { startDynalite, type LocalDynamo } from './dynalite';
import type { FakeHiro, RunningFakeHiro } from './fake-hiro';
import { captureOutput } from './lambda-invocation';

export const TOPIC_ARN = 'arn:aws:sns:us-east-1:123456789012:stacks-watch-alerts';

export interface HandlerEnvironmentOptions {
  /** The table the handler keeps its state in, and the endpoint it reaches it at. */
  dynamo: Pick<LocalDynamo, 'tableName' | 'endpoint'>;
  /** STACKS_API_URL: the fake Hiro server. */
  apiUrl: string;
  /** WATCH_CONFIG, written as JSON. Left out, WATCH_CONFIG is unset: the handler reads its config store. */
  watchConfig?: unknown;
  /** TOPIC_ARN; {@link TOPIC_ARN} unless given. */
  topicArn?: string;
  /** Any other variables of this stack (secret ARN, loop queue, config bucket, ops topic...). */
  extra?: Record<string, string>;
}

export interface HandlerEnvironment {
  /** The variables set, as the handler reads them. */
  readonly variables: Readonly<Record<string, string>>;
  /** Puts back what each variable touched held before (deleting those that were unset). */
  restore(): void;
}

/** Sets process.env for the handler; `restore()` undoes exactly that and nothing else. */
export function handlerEnvironment(options: HandlerEnvironmentOptions): HandlerEnvironment {
  const variables: Record<string, string> = {
    TABLE_NAME: options.dynamo.tableName,
    TOPIC_ARN: options.topicArn ?? TOPIC_ARN,
    STACKS_API_URL: options.apiUrl,
    STACKS_API_RPM: '100000',
    ...(options.watchConfig === undefined ? {} : { WATCH_CONFIG: JSON.stringify(options.watchConfig) }),
    AWS_ENDPOINT_URL_DYNAMODB: options.dynamo.endpoint,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    POWERTOOLS_SERVICE_NAME: 'stacks-watch',
    POWERTOOLS_METRICS_NAMESPACE: 'StacksWatch',
    ...options.extra,
  };
  const unset = options.watchConfig === undefined ? ['WATCH_CONFIG'] : [];
  const before = new Map([...Object.keys(variables), ...unset].map((name) => [name, process.env[name]]));
  Object.assign(process.env, variables);
  for (const name of unset) delete process.env[name];
  return {
    variables,
    restore() {
      for (const [name, value] of before) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    },
  };
}

export type LambdaHandler<Result = InvocationResult> = (event: unknown, context: Context) => Promise<Result>;

/**
 * What a cold start forgets: the project's modules are evaluated afresh on their next import, and Powertools'
 * parameter caches (the API key secret, the doorbell's) start empty, as in a new Lambda process. Packages stay
 * loaded (Node caches them for the worker, which runs file after file: vitest.config.ts), so a secret read by
 * an earlier suite under the same ARN must not answer this one.
 */
export function forgetWarmState(): void {
  vi.resetModules();
  clearCaches();
}

/** A cold start: the handler module evaluated afresh, reading the environment as it is now. */
export async function importHandler<Result = InvocationResult>(): Promise<LambdaHandler<Result>> {
  forgetWarmState();
  const { handler } = await import('../../lambda/handler');
  return handler as unknown as LambdaHandler<Result>;
}

export interface RecordPublishesOptions {
  /** Where to record (to keep one record across tests); a new array unless given. */
  into?: PublishBatchRequestEntry[];
  /** An error to throw for a batch instead of taking it (SNS refusing the call); nothing is recorded then. */
  refuse?: (entries: PublishBatchRequestEntry[]) => Error | undefined;
}

/** Has the mocked SNS take every PublishBatch entry, recording it in order; returns the record. */
export function recordPublishes(sns: AwsClientStub<SNSClient>, options: RecordPublishesOptions = {}): PublishBatchRequestEntry[] {
  const published = options.into ?? [];
  sns.on(PublishBatchCommand).callsFake((input: { PublishBatchRequestEntries: PublishBatchRequestEntry[] }) => {
    const entries = input.PublishBatchRequestEntries;
    const refusal = options.refuse?.(entries);
    if (refusal) throw refusal;
    published.push(...entries);
    return { Successful: entries.map((e) => ({ Id: e.Id, MessageId: `m-${e.Id}` })), Failed: [] };
  });
  return published;
}

/** The alert a published entry carries (the JSON body of its default message). */
/**
 * Records the operations topic's publishes (SNS Publish) into `into`, emptied first: the ops notices a test
 * reads; `keep` picks the ones it is about (a warm container also tells of throttling or deprecated routes).
 */
export function recordOperatorNotices(
  sns: AwsClientStub<SNSClient>,
  into: PublishCommandInput[],
  keep: (input: PublishCommandInput) => boolean = () => true,
): void {
  into.length = 0;
  sns.on(PublishCommand).callsFake((input: PublishCommandInput) => {
    if (keep(input)) into.push(input);
    return { MessageId: `ops-${into.length}` };
  });
}

/** The JSON log lines an invocation's output holds (Powertools writes one object a line), in order. */
export function logLinesOf(output: readonly string[]): Record<string, unknown>[] {
  return output
    .join('')
    .split('\n')
    .filter((l) => l.trim().startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

export function alertOf(entry: PublishBatchRequestEntry): Record<string, unknown> & { key: string } {
  return JSON.parse(JSON.parse(entry.Message!).default) as Record<string, unknown> & { key: string };
}

export interface LambdaOnDynaliteOptions {
  /** The fake Hiro API the handler reads; started before the cold start, closed after the block. */
  fake: FakeHiro;
  /** SNS mocked at the client: reset before each test, then recording every PublishBatch entry. */
  sns: AwsClientStub<SNSClient>;
  /** The state table created on dynalite for the block. */
  tableName: string;
  watchConfig?: unknown;
  /** More variables for the handler; a function is called once the servers (and `beforeColdStart`) are up. */
  extra?: Record<string, string> | (() => Record<string, string>);
  /** Run once the fake API and dynalite are up, before the environment is set: mining, other stand-ins. */
  beforeColdStart?: () => unknown;
  /** Keep one record of published entries across the block's tests (a new one per test otherwise). */
  keepPublished?: boolean;
  /** SNS refusing a batch (see recordPublishes): checked at each call, so it can read the test's own flags. */
  refuse?: RecordPublishesOptions['refuse'];
}

export interface LambdaOnDynalite<Result> {
  /** Invokes the handler of the latest cold start. */
  readonly handler: LambdaHandler<Result>;
  /** Another cold start under the environment as it is now. */
  coldStart(): Promise<void>;
  readonly server: RunningFakeHiro;
  readonly dynamo: LocalDynamo;
  readonly env: HandlerEnvironment;
  /** The PublishBatch entries SNS took (this test's, unless `keepPublished`). */
  readonly published: PublishBatchRequestEntry[];
  /** This test's stdout and stderr (Powertools logs and EMF lines). */
  readonly output: string[];
}

/**
 * Registers the hooks of a describe block that drives the real handler over the fake API and DynamoDB on
 * dynalite: servers up, environment set and a cold start before the block; SNS recorded and the output
 * captured for each test (mocks restored after it); servers closed and the environment put back after it.
 */
export function lambdaOnDynalite<Result = InvocationResult>(options: LambdaOnDynaliteOptions): LambdaOnDynalite<Result> {
  let server: RunningFakeHiro | undefined;
  let dynamo: LocalDynamo | undefined;
  let env: HandlerEnvironment | undefined;
  let current: LambdaHandler<Result> | undefined;
  let published: PublishBatchRequestEntry[] = [];
  let output: string[] = [];
  const coldStart = async () => {
    current = await importHandler<Result>();
  };

  beforeAll(async () => {
    server = await options.fake.start();
    dynamo = await startDynalite({ tableName: options.tableName });
    await options.beforeColdStart?.();
    const extra = typeof options.extra === 'function' ? options.extra() : options.extra;
    env = handlerEnvironment({ dynamo, apiUrl: server.url, watchConfig: options.watchConfig, extra });
    await coldStart();
  });
  afterAll(async () => {
    await server?.close();
    await dynamo?.close();
    env?.restore();
  });
  beforeEach(() => {
    options.sns.reset();
    published = recordPublishes(options.sns, { into: options.keepPublished ? published : [], refuse: options.refuse });
    output = captureOutput();
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  const started = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`lambdaOnDynalite: ${what} is not up (used outside the describe block's tests?)`);
    return value;
  };
  return {
    handler: (event, context) => started(current, 'the handler')(event, context),
    coldStart,
    get server() {
      return started(server, 'the fake API');
    },
    get dynamo() {
      return started(dynamo, 'dynalite');
    },
    get env() {
      return started(env, 'the environment');
    },
    get published() {
      return published;
    },
    get output() {
      return output;
    },
  };
}
