// The self-rescheduling loop's test bench (docs/latency.md): the real handler over a fake Hiro server and
// DynamoDB on dynalite (handler-environment.ts), SQS mocked at the SDK client, time moved with a fake Date. A
// test plays SQS by delivering the loop's message to the handler once more (`turnEvent(loop.lastTurn())`, its
// receive count one higher each time, as SQS counts a message it shows again) and plays the schedule with
// `scheduleTick`.
import type { SNSClient } from '@aws-sdk/client-sns';
import {
  ChangeMessageVisibilityCommand,
  type ChangeMessageVisibilityCommandInput,
  SendMessageCommand,
  type SQSClient,
  type SendMessageCommandInput,
} from '@aws-sdk/client-sqs';
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

/** What SQS knows of each message body: its id, when it was sent, how many times it was received. */
const messages = new Map<string, { messageId: string; sentAt: number; receives: number }>();

function messageOf(body: string) {
  let message = messages.get(body);
  if (!message) {
    message = { messageId: `m-${messages.size + 1}`, sentAt: Date.now(), receives: 0 };
    messages.set(body, message);
  }
  return message;
}

function recordOf(body: string, receives: number) {
  const { messageId, sentAt } = messageOf(body);
  const attributes = { ApproximateReceiveCount: String(receives), SentTimestamp: String(sentAt) };
  return { eventSource: 'aws:sqs', messageId, body, receiptHandle: `${messageId}-${receives}`, attributes };
}

/** An SQS event source batch delivering these messages once more each (a receive more of each). */
export const turnEvent = (...bodies: string[]) => ({ Records: bodies.map((body) => recordOf(body, ++messageOf(body).receives)) });

/** A second copy of the message's last delivery, at the same receive count (SQS delivers at least once). */
export const copyOfLastDelivery = (body: string) => ({ Records: [recordOf(body, messageOf(body).receives)] });

/** The id SQS gave the message with this body. */
export const messageIdOf = (body: string) => messageOf(body).messageId;

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
  /** The turn messages sent since the test began (emptied before each test): a new loop's, or a renewed one. */
  sent: SendMessageCommandInput[];
  /** The turn messages hidden again for the next turn since the test began (emptied before each test). */
  hidden: ChangeMessageVisibilityCommandInput[];
  /** The failure reports sent to the dead-letter queue since the test began. */
  deadLetters: SendMessageCommandInput[];
  /** The body of the last turn message sent, across the tests: the live loop's message. */
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
  const hidden: ChangeMessageVisibilityCommandInput[] = [];
  const deadLetters: SendMessageCommandInput[] = [];
  let lastTurn = '';
  let runs = 0;
  let now = Date.parse(options.startAt);

  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(now);
    options.sqs.reset();
    sent.length = 0;
    hidden.length = 0;
    deadLetters.length = 0;
    options.sqs.on(SendMessageCommand).callsFake((input: SendMessageCommandInput) => {
      if (input.QueueUrl === DEAD_LETTER_QUEUE_URL) {
        deadLetters.push(input);
        return { MessageId: `dead-${deadLetters.length}` };
      }
      sent.push(input);
      lastTurn = input.MessageBody!;
      return { MessageId: messageOf(lastTurn).messageId };
    });
    options.sqs.on(ChangeMessageVisibilityCommand).callsFake((input: ChangeMessageVisibilityCommandInput) => {
      hidden.push(input);
      return {};
    });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  return {
    lambda,
    sent,
    hidden,
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
