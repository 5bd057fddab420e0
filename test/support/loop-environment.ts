// The self-rescheduling loop's test bench (docs/latency.md): the real handler over a fake Hiro server and
// DynamoDB on dynalite (handler-environment.ts), SQS mocked at the SDK client, time moved with a fake Date. A
// test plays SQS by handing a queued turn back to the handler (`turnEvent(loop.lastTurn())`) and plays the
// schedule with `scheduleTick`.
import type { SNSClient } from '@aws-sdk/client-sns';
import { SendMessageCommand, type SQSClient, type SendMessageCommandInput } from '@aws-sdk/client-sqs';
import type { AwsClientStub } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, vi } from 'vitest';
import type { WatchConfig } from '../../lambda/core/watch-config/watch-config-schema';
import type { FakeHiro } from './fake-hiro';
import { lambdaOnDynalite, type LambdaOnDynalite } from './handler-environment';
import { lambdaContext } from './lambda-invocation';
import type { InvocationResult } from '../../lambda/handler';

export const LOOP_QUEUE_URL = 'https://sqs.us-east-1.amazonaws.com/123456789012/stacks-watch-turns';
/** The function's dead-letter queue, where a failed turn reports itself. */
export const DEAD_LETTER_QUEUE_URL = 'https://sqs.us-east-1.amazonaws.com/123456789012/stacks-watch-dead-letters';

/** What EventBridge Scheduler sends the function every minute. */
export const scheduleTick = { version: '0', 'detail-type': 'Scheduled Event', source: 'aws.scheduler' };

/** An SQS event source batch carrying these turn message bodies. */
export const turnEvent = (...bodies: string[]) => ({
  Records: bodies.map((body, i) => ({ eventSource: 'aws:sqs', messageId: `m-${i}`, body, receiptHandle: 'r', attributes: {} })),
});

export interface LoopOnDynaliteOptions {
  fake: FakeHiro;
  sns: AwsClientStub<SNSClient>;
  sqs: AwsClientStub<SQSClient>;
  tableName: string;
  /** Left out, the handler reads the live store (its bucket variables in `extra`). */
  watchConfig?: Partial<WatchConfig>;
  delaySeconds: number;
  turnSeconds: number;
  /** The fake Date the first test starts at. */
  startAt: string;
  /** More variables for the handler (the ops topic, the lag limit...); a function is called once the stand-ins are up. */
  extra?: Record<string, string> | (() => Record<string, string>);
  /** Run before the cold start, after the first empty block is mined: other stand-ins (a local S3). */
  beforeColdStart?: () => unknown;
}

export interface LoopOnDynalite {
  lambda: LambdaOnDynalite<InvocationResult>;
  /** The turns queued since the test began (emptied before each test). */
  sent: SendMessageCommandInput[];
  /** The failure reports sent to the dead-letter queue since the test began. */
  deadLetters: SendMessageCommandInput[];
  /** The body of the last turn queued, across the tests. */
  lastTurn(): string;
  /** One invocation of the handler with a fresh request id. */
  invoke(event: unknown): Promise<InvocationResult>;
  /** Moves the fake Date on. */
  later(ms: number): void;
  now(): number;
}

/** Sets up a describe block's loop: the handler on dynalite, SQS's SendMessage recorded, a fake Date. */
export function loopOnDynalite(options: LoopOnDynaliteOptions): LoopOnDynalite {
  const lambda = lambdaOnDynalite({
    fake: options.fake,
    sns: options.sns,
    tableName: options.tableName,
    beforeColdStart: async () => {
      options.fake.chain.mineEmpty(1);
      await options.beforeColdStart?.();
    },
    watchConfig: options.watchConfig,
    extra: () => ({
      LOOP_QUEUE_URL,
      DEAD_LETTER_QUEUE_URL,
      LOOP_DELAY_SECONDS: String(options.delaySeconds),
      LOOP_TURN_SECONDS: String(options.turnSeconds),
      ...(typeof options.extra === 'function' ? options.extra() : options.extra),
    }),
    keepPublished: true, // one record across a block's tests: its last checks every alert above
  });
  const sent: SendMessageCommandInput[] = [];
  const deadLetters: SendMessageCommandInput[] = [];
  let lastTurn = '';
  let runs = 0;
  let now = Date.parse(options.startAt);

  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(now);
    options.sqs.reset();
    sent.length = 0;
    deadLetters.length = 0;
    options.sqs.on(SendMessageCommand).callsFake((input: SendMessageCommandInput) => {
      if (input.QueueUrl === DEAD_LETTER_QUEUE_URL) {
        deadLetters.push(input);
        return { MessageId: `dead-${deadLetters.length}` };
      }
      sent.push(input);
      lastTurn = input.MessageBody!;
      return { MessageId: `turn-${sent.length}` };
    });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  return {
    lambda,
    sent,
    deadLetters,
    lastTurn: () => lastTurn,
    invoke: (event) => lambda.handler(event, lambdaContext(`run-${++runs}`, 120_000)),
    later(ms) {
      now += ms;
      vi.setSystemTime(now);
    },
    now: () => now,
  };
}
