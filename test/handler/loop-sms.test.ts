// The SMS budget of the loop mode end to end (docs/latency.md): the real handler over a fake Hiro server and
// DynamoDB on dynalite, SQS mocked at the client (a test plays SQS by handing the queued turn back), time moved
// with a fake Date. A turn comes every 8 s, yet phones get `smsPerRun` texts a minute and one digest for the
// rest, read from the `sms` attribute SNS routes by (`text`, `held`, `digest`).
import { SNSClient, type PublishBatchRequestEntry } from '@aws-sdk/client-sns';
import { SendMessageCommand, SQSClient, type SendMessageCommandInput } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LOOP_GRACE_MS } from '../../lambda/core/loop-turns';
import { createFakeHiro, fakeAddress, transfer } from '../support/fake-hiro';
import { alertOf, lambdaOnDynalite } from '../support/handler-environment';
import { lambdaContext } from '../support/lambda-invocation';

const DELAY_SECONDS = 8;
const TURN_SECONDS = 20;
const DEAD_AFTER_MS = (TURN_SECONDS + DELAY_SECONDS) * 1000 + LOOP_GRACE_MS + 1;
const SMS_PER_RUN = 2;
const treasury = fakeAddress('treasury');

const sns = mockClient(SNSClient);
const sqs = mockClient(SQSClient);
const tick = { version: '0', 'detail-type': 'Scheduled Event', source: 'aws.scheduler' };
const turnEvent = (body: string) => ({ Records: [{ eventSource: 'aws:sqs', messageId: 'm-0', body, receiptHandle: 'r', attributes: {} }] });
const route = (e: PublishBatchRequestEntry) => e.MessageAttributes?.sms?.StringValue;

describe('the loop mode texts smsPerRun alerts a minute, not a turn', () => {
  const fake = createFakeHiro();
  const lambda = lambdaOnDynalite({
    fake,
    sns,
    tableName: 'stacks-watch-loop-sms',
    beforeColdStart: () => fake.chain.mineEmpty(1),
    watchConfig: { network: 'mainnet', addresses: [treasury], addressesRule: { name: 'Treasury inflow', severity: 'critical' }, startHeight: 1, smsPerRun: SMS_PER_RUN },
    extra: {
      LOOP_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/123456789012/stacks-watch-turns',
      LOOP_DELAY_SECONDS: String(DELAY_SECONDS),
      LOOP_TURN_SECONDS: String(TURN_SECONDS),
    },
    keepPublished: true, // one record across the tests: the last checks every alert above
  });
  let sent: SendMessageCommandInput[] = [];
  let lastTurn = ''; // the loop's queued turn, across the tests
  let runs = 0;
  let now = Date.parse('2026-11-25T12:00:00Z');
  const invoke = (event: unknown) => lambda.handler(event, lambdaContext(`run-${++runs}`, 120_000));
  const nextTurn = () => invoke(turnEvent(lastTurn));
  const later = (ms: number) => {
    now += ms;
    vi.setSystemTime(now);
  };
  const busyBlock = () => fake.chain.mine([1, 2, 3].map(() => transfer({ to: treasury, amount: 1_000_000 + ++runs })));
  const routes = (from: number) => lambda.published.slice(from).map(route);

  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(now);
    sqs.reset();
    sent = [];
    sqs.on(SendMessageCommand).callsFake((input: SendMessageCommandInput) => {
      sent.push(input);
      lastTurn = input.MessageBody!;
      return { MessageId: `turn-${sent.length}` };
    });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('texts smsPerRun alerts across seven busy turns of a minute and sends one digest for the other 19 after it', async () => {
    busyBlock();
    await invoke(tick); // starts the loop: its first turn
    for (let i = 0; i < 6; i += 1) {
      later(DELAY_SECONDS * 1000);
      busyBlock();
      await nextTurn();
    }
    expect(routes(0)).toEqual([...Array(SMS_PER_RUN).fill('text'), ...Array(21 - SMS_PER_RUN).fill('held')]);

    later(DELAY_SECONDS * 1000 + 5_000); // 61 s after the first turn: a quiet turn sends the minute's digest
    await nextTurn();
    expect(routes(21)).toEqual(['digest']);
    expect(alertOf(lambda.published[21]!)).toMatchObject({ type: 'sms_digest', held: { critical: 19, warning: 0, info: 0 } });
    later(DELAY_SECONDS * 1000);
    await nextTurn();
    expect(lambda.published).toHaveLength(22);
  });

  it('sends the digest of a minute whose loop died, from the schedule tick that restarts it after the minute', async () => {
    const from = lambda.published.length;
    later(DELAY_SECONDS * 1000);
    busyBlock();
    await nextTurn(); // a new minute: two texted, one held; then the loop dies (its next turn is never delivered)
    expect(routes(from)).toEqual(['text', 'text', 'held']);

    later(DEAD_AFTER_MS); // 38 s on, a tick restarts the loop: still the same minute, no digest yet
    sent = [];
    await invoke(tick);
    expect(sent).toHaveLength(1);
    expect(routes(from + 3)).toEqual([]);

    later(DEAD_AFTER_MS); // the restarted loop died too: the next tick restarts it, past the minute
    sent = [];
    await invoke(tick);
    expect(sent).toHaveLength(1);
    expect(routes(from + 3)).toEqual(['digest']);
    expect(alertOf(lambda.published.at(-1)!)).toMatchObject({ held: { critical: 1 } });
  });

  it('never published an alert twice across every turn and tick above', () => {
    const keys = lambda.published.map((e) => alertOf(e).key);
    expect(new Set(keys).size).toBe(keys.length);
  });
});
