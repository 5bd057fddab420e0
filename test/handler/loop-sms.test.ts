// The SMS budget of the loop mode end to end (docs/latency.md): the real handler over a fake Hiro server and
// DynamoDB on dynalite, SQS mocked at the client (a test plays SQS by handing the queued turn back), time moved
// with a fake Date. A turn comes every 8 s, yet phones get `smsPerRun` texts a minute and one digest for the
// rest, read from the `sms` attribute SNS routes by (`text`, `held`, `digest`).
import { SNSClient, type PublishBatchRequestEntry } from '@aws-sdk/client-sns';
import { SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { describe, expect, it } from 'vitest';
import { loopDeadAfterMs } from '../../lambda/core/scan/loop-turns';
import { createFakeHiro, fakeAddress, transfer } from '../support/fake-hiro';
import { alertOf } from '../support/handler-environment';
import { loopOnDynalite, scheduleTick as tick, turnEvent } from '../support/loop-environment';

const DELAY_SECONDS = 8;
const TURN_SECONDS = 20;
const DEAD_AFTER_MS = loopDeadAfterMs({ turnMs: TURN_SECONDS * 1000, delayMs: DELAY_SECONDS * 1000 }) + 1;
const SMS_PER_RUN = 2;
const treasury = fakeAddress('treasury');

const sns = mockClient(SNSClient);
const sqs = mockClient(SQSClient);
const route = (e: PublishBatchRequestEntry) => e.MessageAttributes?.sms?.StringValue;

describe('the loop mode texts smsPerRun alerts a minute, not a turn', () => {
  const fake = createFakeHiro();
  const loop = loopOnDynalite({
    fake,
    sns,
    sqs,
    tableName: 'stacks-watch-loop-sms',
    watchConfig: {
      network: 'mainnet',
      addresses: [treasury],
      addressesRule: { name: 'Treasury inflow', severity: 'critical' },
      startHeight: 1,
      smsPerRun: SMS_PER_RUN,
    },
    delaySeconds: DELAY_SECONDS,
    turnSeconds: TURN_SECONDS,
    startAt: '2026-11-25T12:00:00Z',
  });
  const { lambda, sent, invoke, later } = loop;
  const nextTurn = () => invoke(turnEvent(loop.lastTurn()));
  let amounts = 0;
  const busyBlock = () => fake.chain.mine([1, 2, 3].map(() => transfer({ to: treasury, amount: 1_000_000 + ++amounts })));
  const routes = (from: number) => lambda.published.slice(from).map(route);

  it('texts smsPerRun alerts across seven busy turns of a minute and sends one digest for the other 19 with the turn after the next tick', async () => {
    busyBlock();
    await invoke(tick); // starts the loop: its first turn
    for (let i = 0; i < 6; i += 1) {
      later(DELAY_SECONDS * 1000);
      busyBlock();
      await nextTurn();
    }
    expect(routes(0)).toEqual([...Array(SMS_PER_RUN).fill('text'), ...Array(21 - SMS_PER_RUN).fill('held')]);

    later(DELAY_SECONDS * 1000 + 5_000); // 61 s after the first turn: a quiet turn reads no SMS record, sends nothing
    await nextTurn();
    expect(routes(21)).toEqual([]);
    later(1_000);
    await expect(invoke(tick)).resolves.toEqual({ loopTurnSkipped: 'loop-alive' }); // the tick notes the digest owed
    expect(routes(21)).toEqual([]);
    later(DELAY_SECONDS * 1000 - 1_000);
    await nextTurn(); // the next turn reads the note with the cursor item and sends it
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

    later(DEAD_AFTER_MS); // 58 s on, a tick restarts the loop: still the same minute, no digest yet
    sent.length = 0;
    await invoke(tick);
    expect(sent).toHaveLength(1);
    expect(routes(from + 3)).toEqual([]);

    later(DEAD_AFTER_MS); // the restarted loop died too: the next tick restarts it, past the minute
    sent.length = 0;
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
