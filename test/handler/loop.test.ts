// The self-rescheduling loop end to end (docs/latency.md): the real handler over a fake Hiro server and DynamoDB
// on dynalite, with SQS mocked at the SDK client. A test plays SQS by handing a sent turn back to the handler;
// the schedule's ticks are invocations with a Scheduler-like event. Time is moved with a fake Date.
import { SNSClient } from '@aws-sdk/client-sns';
import { SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { describe, expect, it } from 'vitest';
import { createDynamoStateStore } from '../../lambda/adapters/dynamodb';
import type { InvocationResult } from '../../lambda/handler';
import { loopDeadAfterMs } from '../../lambda/core/scan/loop-turns';
import { createFakeHiro, fakeAddress, transfer } from '../support/fake-hiro';
import { alertOf } from '../support/handler-environment';
import { LOOP_QUEUE_URL as QUEUE_URL, loopOnDynalite, scheduleTick as tick, turnEvent } from '../support/loop-environment';

const DELAY_SECONDS = 8;
const TURN_SECONDS = 20;
/** Past the longest gap a healthy loop leaves between two heartbeats. */
const DEAD_AFTER_MS = loopDeadAfterMs({ turnMs: TURN_SECONDS * 1000, delayMs: DELAY_SECONDS * 1000 }) + 1;
const alice = fakeAddress('alice');

const sns = mockClient(SNSClient);
const sqs = mockClient(SQSClient);

describe('the self-rescheduling loop, end to end', () => {
  const fake = createFakeHiro();
  const loop = loopOnDynalite({
    fake,
    sns,
    sqs,
    tableName: 'stacks-watch-loop',
    watchConfig: { network: 'mainnet', addresses: [alice], startHeight: 1 },
    delaySeconds: DELAY_SECONDS,
    turnSeconds: TURN_SECONDS,
    startAt: '2026-11-25T12:00:00Z',
  });
  const { lambda, sent, deadLetters, invoke, later, lastTurn } = loop;
  const alertKeys = () => lambda.published.map((e) => alertOf(e).key);
  const skipped = (result: InvocationResult) => ('loopTurnSkipped' in result ? result.loopTurnSkipped : undefined);
  const scanned = (result: InvocationResult) => ('blocksScanned' in result ? result.blocksScanned : undefined);

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
    sent.length = 0;
    lambda.output.length = 0;
    later(5_000);
    expect(skipped(await invoke(tick))).toBe('loop-alive');
    expect(sent).toEqual([]);
    // Nothing logged at info or above, no metric: a tick reads the cursor item and the SMS record.
    expect(jsonLines(lambda.output).filter((l) => l.level !== 'DEBUG')).toEqual([]);
    expect(lambda.output.join('')).not.toMatch(/No application metrics/);
  });

  it('drops a turn delivered twice: the second finds its token stale, scans nothing and queues nothing', async () => {
    later(DELAY_SECONDS * 1000);
    const turn = JSON.stringify({ turn: (await loopToken())! });
    fake.chain.mine([transfer({ to: alice, amount: 77 })]);
    const before = lambda.published.length;
    expect(scanned(await invoke(turnEvent(turn)))).toBe(1);
    expect(skipped(await invoke(turnEvent(turn)))).toBe('stale-token');
    expect(sent).toHaveLength(1);
    expect(lambda.published.length - before).toBe(1);
  });

  it("is restarted by the first tick after it died, and the dead loop's late turn is then dropped", async () => {
    const lost = JSON.stringify({ turn: (await loopToken())! }); // never delivered: the loop died here
    later(DEAD_AFTER_MS);
    const b = fake.chain.mine([transfer({ to: alice, amount: 5_000 })]);
    const before = lambda.published.length;
    expect(scanned(await invoke(tick))).toBe(1);
    expect(sent).toHaveLength(1);
    expect(skipped(await invoke(turnEvent(lost)))).toBe('stale-token');
    expect(sent).toHaveLength(1);
    expect(alertKeys().slice(before)).toEqual([`token_transfer:${b.txs[0]!.txId}`]);
  });

  it("keeps one loop when two start at once: of two ticks finding it dead, one restarts it; of two loops' turns, one runs", async () => {
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
    const notices = () => jsonLines(lambda.output).filter((l) => l.operatorNotice === 'loop-restarts');
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

  it("puts a failed turn in the dead-letter queue with its cause, as Lambda does a failed scheduled run (its message's retry finds the token moved on)", async () => {
    later(DEAD_AFTER_MS);
    await invoke(tick);
    expect(deadLetters).toEqual([]);
    later(DELAY_SECONDS * 1000);
    fake.faults.times(20, { status: 500 });
    await expect(invoke(turnEvent(lastTurn()))).rejects.toThrow();
    fake.faults.clear();
    expect(deadLetters).toHaveLength(1);
    const report = JSON.parse(deadLetters[0]!.MessageBody!) as Record<string, unknown>;
    expect(report).toMatchObject({ failed: 'loop turn', requestId: expect.stringMatching(/^run-/), error: { message: expect.stringMatching(/\S/) } });
    // A turn that succeeds reports nothing; nor does a tick, whose failure Lambda itself sends there.
    later(DELAY_SECONDS * 1000);
    await invoke(turnEvent(lastTurn()));
    expect(deadLetters).toHaveLength(1);
  });

  it('logs a quiet turn at debug and sends no metric; a turn with an alert logs at info and counts its alert', async () => {
    later(DEAD_AFTER_MS);
    await invoke(tick);
    const metricNames = () =>
      jsonLines(lambda.output)
        .filter((l) => '_aws' in l)
        .flatMap((l) => (l._aws as { CloudWatchMetrics: { Metrics: { Name: string }[] }[] }).CloudWatchMetrics[0]!.Metrics.map((m) => m.Name));
    const infoLines = () =>
      jsonLines(lambda.output)
        .filter((l) => l.level === 'INFO')
        .map((l) => l.message);

    later(60_000 - (loop.now() % 60_000) + 30_000); // mid-minute
    lambda.output.length = 0;
    expect(scanned(await invoke(turnEvent(lastTurn())))).toBe(0);
    expect(infoLines()).toEqual([]);
    expect(metricNames()).toEqual([]);

    // A turn that reads a block through the routes Hiro marks deprecated, nothing in it watched: this warm
    // container warned about them (and saw their notices sent) in an earlier turn, so it says nothing again.
    fake.chain.mine([transfer({ to: fakeAddress('nobody-watched'), amount: 1 })]);
    later(1_000);
    lambda.output.length = 0;
    expect(scanned(await invoke(turnEvent(lastTurn())))).toBe(1);
    expect(
      jsonLines(lambda.output)
        .filter((l) => l.level === 'WARN' || l.level === 'INFO')
        .map((l) => l.message),
    ).toEqual([]);

    later(60_000 - (loop.now() % 60_000) + 1_000); // the first second of the next minute
    lambda.output.length = 0;
    await invoke(turnEvent(lastTurn()));
    expect(infoLines()).toEqual([]);
    expect(metricNames()).toEqual([]);

    later(60_000 - (loop.now() % 60_000) + 30_000);
    fake.chain.mine([transfer({ to: alice, amount: 31 })]);
    lambda.output.length = 0;
    await invoke(turnEvent(lastTurn()));
    expect(infoLines()).toEqual(['invocation done']);
    expect(metricNames()).toContain('AlertsPublished');
  });

  it('never published an alert twice across every turn, tick and duplicate above', () => {
    expect(new Set(alertKeys()).size).toBe(alertKeys().length);
  });

  async function loopToken(): Promise<string | null> {
    const store = createDynamoStateStore({ client: lambda.dynamo.client, tableName: lambda.dynamo.tableName, network: 'mainnet' });
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
