// The self-rescheduling loop end to end (docs/latency.md): the real handler over a fake Hiro server and DynamoDB
// on dynalite, with SQS mocked at the SDK client. A test plays SQS by handing a sent turn back to the handler;
// the schedule's ticks are invocations with a Scheduler-like event. Time is moved with a fake Date.
import { PublishBatchCommand, SNSClient, type PublishBatchRequestEntry } from '@aws-sdk/client-sns';
import { SendMessageCommand, SQSClient, type SendMessageCommandInput } from '@aws-sdk/client-sqs';
import type { Context } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createDynamoStateStore } from '../../lambda/adapters/dynamodb';
import type { InvocationResult } from '../../lambda/handler';
import { LOOP_GRACE_MS } from '../../lambda/core/loop-turns';
import { createFakeHiro, fakeAddress, transfer, type RunningFakeHiro } from '../support/fake-hiro';
import { startDynalite, type LocalDynamo } from '../support/dynalite';
import { captureOutput, lambdaContext } from '../support/lambda-invocation';

const TOPIC_ARN = 'arn:aws:sns:us-east-1:123456789012:stacks-watch-alerts';
const QUEUE_URL = 'https://sqs.us-east-1.amazonaws.com/123456789012/stacks-watch-turns';
const DELAY_SECONDS = 8;
const TURN_SECONDS = 20;
/** Past the longest gap a healthy loop leaves between two turns. */
const DEAD_AFTER_MS = (TURN_SECONDS + DELAY_SECONDS) * 1000 + LOOP_GRACE_MS + 1;
const alice = fakeAddress('alice');

const sns = mockClient(SNSClient);
const sqs = mockClient(SQSClient);

const tick = { version: '0', 'detail-type': 'Scheduled Event', source: 'aws.scheduler' };
const turnEvent = (...bodies: string[]) => ({
  Records: bodies.map((body, i) => ({ eventSource: 'aws:sqs', messageId: `m-${i}`, body, receiptHandle: 'r', attributes: {} })),
});

describe('the self-rescheduling loop, end to end', () => {
  const fake = createFakeHiro();
  let server: RunningFakeHiro;
  let dynamo: LocalDynamo;
  let output: string[];
  let handler: (event: unknown, context: Context) => Promise<InvocationResult>;
  let sent: SendMessageCommandInput[];
  const published: PublishBatchRequestEntry[] = [];
  let runs = 0;
  let now = Date.parse('2026-11-25T12:00:00Z');
  const invoke = (event: unknown) => handler(event, lambdaContext(`run-${++runs}`, 120_000));
  const lastTurn = () => sent.at(-1)!.MessageBody!;
  const alertKeys = () => published.map((e) => (JSON.parse(JSON.parse(e.Message!).default) as { key: string }).key);
  const skipped = (result: InvocationResult) => ('loopTurnSkipped' in result ? result.loopTurnSkipped : undefined);
  const scanned = (result: InvocationResult) => ('blocksScanned' in result ? result.blocksScanned : undefined);
  const later = (ms: number) => {
    now += ms;
    vi.setSystemTime(now);
  };

  beforeAll(async () => {
    server = await fake.start();
    dynamo = await startDynalite({ tableName: 'stacks-watch-loop' });
    fake.chain.mine([]);
    Object.assign(process.env, {
      TABLE_NAME: dynamo.tableName,
      TOPIC_ARN,
      STACKS_API_URL: server.url,
      STACKS_API_RPM: '100000',
      WATCH_CONFIG: JSON.stringify({ network: 'mainnet', addresses: [alice], startHeight: 1 }),
      LOOP_QUEUE_URL: QUEUE_URL,
      LOOP_DELAY_SECONDS: String(DELAY_SECONDS),
      LOOP_TURN_SECONDS: String(TURN_SECONDS),
      AWS_ENDPOINT_URL_DYNAMODB: dynamo.endpoint,
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
    });
    vi.resetModules();
    ({ handler } = await import('../../lambda/handler'));
  });
  afterAll(async () => {
    await server?.close();
    await dynamo?.close();
    for (const key of ['TABLE_NAME', 'TOPIC_ARN', 'STACKS_API_URL', 'STACKS_API_RPM', 'WATCH_CONFIG', 'LOOP_QUEUE_URL', 'LOOP_DELAY_SECONDS', 'LOOP_TURN_SECONDS', 'AWS_ENDPOINT_URL_DYNAMODB']) {
      delete process.env[key];
    }
  });
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(now);
    sns.reset();
    sqs.reset();
    sent = [];
    sns.on(PublishBatchCommand).callsFake((input: { PublishBatchRequestEntries: PublishBatchRequestEntry[] }) => {
      published.push(...input.PublishBatchRequestEntries);
      return { Successful: input.PublishBatchRequestEntries.map((e) => ({ Id: e.Id, MessageId: `m-${e.Id}` })), Failed: [] };
    });
    sqs.on(SendMessageCommand).callsFake((input: SendMessageCommandInput) => {
      sent.push(input);
      return { MessageId: `turn-${sent.length}` };
    });
    output = captureOutput();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('is started by a schedule tick, and each turn scans and queues the next with a fresh token and the delay', async () => {
    const b2 = fake.chain.mine([transfer({ to: alice, amount: 2_000_000 })]);
    expect(scanned(await invoke(tick))).toBe(2);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ QueueUrl: QUEUE_URL, DelaySeconds: DELAY_SECONDS });
    const tokens = [JSON.parse(lastTurn()).turn as string];

    for (let i = 0; i < 3; i += 1) {
      later(DELAY_SECONDS * 1000);
      fake.chain.mine([transfer({ to: alice, amount: 10 + i })]);
      expect(scanned(await invoke(turnEvent(lastTurn())))).toBe(1);
      expect(sent).toHaveLength(2 + i);
      tokens.push(JSON.parse(lastTurn()).turn as string);
    }
    expect(new Set(tokens).size).toBe(4);
    expect(alertKeys()[0]).toBe(`token_transfer:${b2.txs[0]!.txId}`);
    expect(alertKeys()).toHaveLength(4);
  });

  it('leaves a live loop alone at a schedule tick: no cycle, nothing queued, nothing logged', async () => {
    later(DELAY_SECONDS * 1000);
    await invoke(turnEvent(JSON.stringify({ turn: (await loopToken())! })));
    sent = [];
    output.length = 0;
    later(5_000);
    expect(skipped(await invoke(tick))).toBe('loop-alive');
    expect(sent).toEqual([]);
    // Nothing logged at info or above, no metric: a tick is one read.
    expect(jsonLines(output).filter((l) => l.level !== 'DEBUG')).toEqual([]);
    expect(output.join('')).not.toMatch(/No application metrics/);
  });

  it('drops a turn delivered twice: the second finds its token stale, scans nothing and queues nothing', async () => {
    later(DELAY_SECONDS * 1000);
    const turn = JSON.stringify({ turn: (await loopToken())! });
    fake.chain.mine([transfer({ to: alice, amount: 77 })]);
    const before = published.length;
    expect(scanned(await invoke(turnEvent(turn)))).toBe(1);
    expect(skipped(await invoke(turnEvent(turn)))).toBe('stale-token');
    expect(sent).toHaveLength(1);
    expect(published.length - before).toBe(1);
  });

  it('is restarted by the first tick after it died, and the dead loop\'s late turn is then dropped', async () => {
    const lost = JSON.stringify({ turn: (await loopToken())! }); // never delivered: the loop died here
    later(DEAD_AFTER_MS);
    const b = fake.chain.mine([transfer({ to: alice, amount: 5_000 })]);
    const before = published.length;
    expect(scanned(await invoke(tick))).toBe(1);
    expect(sent).toHaveLength(1);
    expect(skipped(await invoke(turnEvent(lost)))).toBe('stale-token');
    expect(sent).toHaveLength(1);
    expect(alertKeys().slice(before)).toEqual([`token_transfer:${b.txs[0]!.txId}`]);
  });

  it('keeps one loop when two start at once: of two ticks finding it dead, one restarts it; of two loops\' turns, one runs', async () => {
    later(DEAD_AFTER_MS);
    const results = await Promise.all([invoke(tick), invoke(tick)]);
    expect(results.map(skipped).sort()).toEqual(['lost-the-restart', undefined]);
    expect(sent).toHaveLength(1);
    // A second loop's turn (a token that was never the loop's) beside the live one's: only the live one runs.
    later(DELAY_SECONDS * 1000);
    const live = lastTurn();
    const both = await Promise.all([invoke(turnEvent(JSON.stringify({ turn: 'a-second-loop' }))), invoke(turnEvent(live))]);
    expect(both.map(skipped)).toEqual(['stale-token', undefined]);
    expect(sent).toHaveLength(2);
  });

  it('tells the operator when the loop keeps dying young, at the third restart in a row', async () => {
    const notices = () => jsonLines(output).filter((l) => l.operatorNotice === 'loop-restarts');
    for (let i = 0; i < 3; i += 1) {
      later(DEAD_AFTER_MS);
      expect(scanned(await invoke(tick))).toBeDefined();
    }
    expect(notices()).toHaveLength(1);
    expect(notices()[0]!.detail).toMatch(/restarted the watcher's polling loop \d+ times in a row/);
  });

  it('queues the next turn after a failed cycle too: the loop outlives a bad run', async () => {
    later(DEAD_AFTER_MS);
    await invoke(tick);
    later(DELAY_SECONDS * 1000);
    fake.faults.times(20, { status: 500 });
    await expect(invoke(turnEvent(lastTurn()))).rejects.toThrow();
    expect(sent).toHaveLength(2);
    expect(sent[1]!.DelaySeconds).toBe(DELAY_SECONDS);
    fake.faults.clear();
  });

  it('logs a quiet turn at debug and sends its lag only in the first seconds of a minute; a turn with an alert logs at info', async () => {
    later(DEAD_AFTER_MS);
    await invoke(tick);
    const metricNames = () =>
      jsonLines(output)
        .filter((l) => '_aws' in l)
        .flatMap((l) => (l._aws as { CloudWatchMetrics: { Metrics: { Name: string }[] }[] }).CloudWatchMetrics[0]!.Metrics.map((m) => m.Name));
    const infoLines = () => jsonLines(output).filter((l) => l.level === 'INFO').map((l) => l.message);

    later(60_000 - (now % 60_000) + 30_000); // mid-minute
    output.length = 0;
    expect(scanned(await invoke(turnEvent(lastTurn())))).toBe(0);
    expect(infoLines()).toEqual([]);
    expect(metricNames()).toEqual([]);

    later(60_000 - (now % 60_000) + 1_000); // the first second of the next minute
    output.length = 0;
    await invoke(turnEvent(lastTurn()));
    expect(infoLines()).toEqual([]);
    expect(metricNames()).toEqual(['ChainLagSeconds']);

    later(60_000 - (now % 60_000) + 30_000);
    fake.chain.mine([transfer({ to: alice, amount: 31 })]);
    output.length = 0;
    await invoke(turnEvent(lastTurn()));
    expect(infoLines()).toEqual(['invocation done']);
    expect(metricNames()).toContain('ChainLagSeconds');
  });

  it('never published an alert twice across every turn, tick and duplicate above', () => {
    expect(new Set(alertKeys()).size).toBe(alertKeys().length);
  });

  async function loopToken(): Promise<string | null> {
    const store = createDynamoStateStore({ client: dynamo.client, tableName: dynamo.tableName, network: 'mainnet' });
    return (await store.readLoop())?.turn ?? null;
  }
});

function jsonLines(output: string[]): Record<string, unknown>[] {
  return output
    .join('')
    .split('\n')
    .filter((l) => l.trim().startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}
