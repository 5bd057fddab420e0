// The self-rescheduling loop end to end (docs/latency.md): the real handler over a fake Hiro server and DynamoDB
// on dynalite, with SQS mocked at the SDK client. A test plays SQS by delivering the loop's one message to the
// handler again (a receive more each time); the schedule's ticks are invocations with a Scheduler-like event.
// Time is moved with a fake Date.
import { SNSClient } from '@aws-sdk/client-sns';
import { SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { describe, expect, it } from 'vitest';
import { createDynamoStateStore } from '../../lambda/adapters/dynamodb';
import type { InvocationResult } from '../../lambda/handler';
import { LOOP_TURN_MARGIN_MS, loopDeadAfterMs, loopToken, readLoopToken } from '../../lambda/core/scan/loop-turns';
import { MESSAGE_RENEW_AFTER_MS } from '../../lambda/runtime/loop-invocation';
import { createFakeHiro, fakeAddress, transfer } from '../support/fake-hiro';
import { alertOf, logLinesOf } from '../support/handler-environment';
import { lambdaContext } from '../support/lambda-invocation';
import { copyOfLastDelivery, LOOP_QUEUE_URL as QUEUE_URL, loopOnDynalite, messageIdOf, scheduleTick as tick, turnEvent } from '../support/loop-environment';
import { drawShortestBackoff } from '../support/shortest-backoff';

const DELAY_SECONDS = 8;
const TURN_SECONDS = 20;
/** Past the longest gap a healthy loop leaves between two heartbeats. */
const DEAD_AFTER_MS = loopDeadAfterMs({ turnMs: TURN_SECONDS * 1000, delayMs: DELAY_SECONDS * 1000 }) + 1;
const alice = fakeAddress('alice');
const nobody = fakeAddress('nobody-watched');

const sns = mockClient(SNSClient);
const sqs = mockClient(SQSClient);

// The failed runs and turns retry as in production, without waiting out the backoff.
drawShortestBackoff();

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
  const { lambda, sent, hidden, deadLetters, invoke, later, lastTurn } = loop;
  const alertKeys = () => lambda.published.map((e) => alertOf(e).key);
  const skipped = (result: InvocationResult) => ('loopTurnSkipped' in result ? result.loopTurnSkipped : undefined);
  const scanned = (result: InvocationResult) => ('blocksScanned' in result ? result.blocksScanned : undefined);
  /** The messages the turn told the event source to keep (shown again); the others are deleted. */
  const kept = (result: InvocationResult) => result.batchItemFailures?.map((f) => f.itemIdentifier);

  it("is started by a schedule tick that sends its message; each caught-up turn scans and keeps that message with no SQS request of its own: the queue's visibility timeout is the delay", async () => {
    const b2 = fake.chain.mine([transfer({ to: alice, amount: 2_000_000 })]);
    expect(scanned(await invoke(tick))).toBe(2);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ QueueUrl: QUEUE_URL, DelaySeconds: DELAY_SECONDS });
    const body = lastTurn();

    for (let i = 0; i < 3; i += 1) {
      later(DELAY_SECONDS * 1000);
      fake.chain.mine([transfer({ to: alice, amount: 10 + i })]);
      const event = turnEvent(body);
      const requestsBefore = sqs.calls().length;
      const result = await invoke(event);
      expect(scanned(result)).toBe(1);
      // Reported as a batch item failure, the message shows again the queue's visibility timeout after its receive.
      expect(kept(result)).toEqual([messageIdOf(body)]);
      expect(sqs.calls().length - requestsBefore).toBe(0);
      expect(hidden).toEqual([]);
      // The turn's one write stored its receive count beside the loop's id: a copy at that count is stale.
      expect(await storedToken()).toBe(loopToken(JSON.parse(body).turn, Number(event.Records[0]!.attributes.ApproximateReceiveCount)));
    }
    expect(sent).toHaveLength(1);
    expect(alertKeys()[0]).toBe(`token_transfer:${b2.txs[0]!.txId}`);
    expect(alertKeys()).toHaveLength(4);
  });

  it('hides its message for no time at all while behind the tip: the next turn follows at once', async () => {
    later(DELAY_SECONDS * 1000);
    fake.chain.mine([transfer({ to: alice, amount: 41 })]);
    fake.chain.mine([transfer({ to: alice, amount: 42 })]);
    fake.chain.mine([transfer({ to: alice, amount: 43 })]);
    // The turn's time runs out at its first API request: it stops behind the tip.
    let moved = false;
    const stop = fake.faults.use(() => {
      if (!moved) later(TURN_SECONDS * 1000 + 1_000);
      moved = true;
      return undefined;
    });
    try {
      const result = await invoke(turnEvent(lastTurn()));
      expect(result).toMatchObject({ stoppedBecause: 'time-budget' });
      expect(kept(result)).toEqual([messageIdOf(lastTurn())]);
    } finally {
      stop();
    }
    expect(hidden.map((h) => h.VisibilityTimeout)).toEqual([0]);
    expect(sent).toEqual([]);
    later(1_000);
    // Caught up again: the queue's own visibility timeout sets the next turn, no request.
    expect(scanned(await invoke(turnEvent(lastTurn())))).toBeGreaterThan(0);
    expect(hidden.map((h) => h.VisibilityTimeout)).toEqual([0]);
  });

  it("works within its function's timeout, the loop's delay: it stops at the delay less its margin, and the next turn follows at once", async () => {
    const inItsDelay = (event: unknown, id: string) => lambda.handler(event, lambdaContext(id, DELAY_SECONDS * 1000));
    /** A turn over two new blocks whose clock moves `ms` on at its first API request. */
    const turnLosing = async (ms: number, id: string) => {
      later(DELAY_SECONDS * 1000);
      // Blocks with nothing watched: no alert, so no SMS minute left owing a digest to the tests after this one.
      fake.chain.mine([transfer({ to: nobody, amount: 51 })]);
      fake.chain.mine([transfer({ to: nobody, amount: 52 })]);
      let moved = false;
      const stop = fake.faults.use(() => {
        if (!moved) later(ms);
        moved = true;
        return undefined;
      });
      try {
        return await inItsDelay(turnEvent(lastTurn()), id);
      } finally {
        stop();
      }
    };
    const workMs = DELAY_SECONDS * 1000 - LOOP_TURN_MARGIN_MS;
    const inTime = await turnLosing(workMs - 1_000, 'turn-in-time');
    expect(inTime).toMatchObject({ stoppedBecause: 'caught-up', blocksScanned: 2 });
    expect(hidden).toEqual([]);
    const late = await turnLosing(workMs + 100, 'turn-past-its-work');
    expect(late).toMatchObject({ stoppedBecause: 'time-budget', blocksScanned: 0 });
    expect(hidden.map((h) => h.VisibilityTimeout)).toEqual([0]);
    expect(kept(late)).toEqual([messageIdOf(lastTurn())]);
    later(1_000);
    expect(scanned(await inItsDelay(turnEvent(lastTurn()), 'turn-after'))).toBe(2);
  });

  it('leaves a live loop alone at a schedule tick: no cycle, nothing queued, nothing logged', async () => {
    later(DELAY_SECONDS * 1000);
    await invoke(turnEvent(JSON.stringify({ turn: (await loopId())! })));
    sent.length = 0;
    hidden.length = 0;
    lambda.output.length = 0;
    later(5_000);
    expect(skipped(await invoke(tick))).toBe('loop-alive');
    expect(sent).toEqual([]);
    expect(hidden).toEqual([]);
    // Nothing logged at info or above, no metric: a tick reads the cursor item and the SMS record.
    expect(logLinesOf(lambda.output).filter((l) => l.level !== 'DEBUG')).toEqual([]);
    expect(lambda.output.join('')).not.toMatch(/No application metrics/);
  });

  it('drops a second copy of a delivery: at the receive count the first stored it is stale, scans nothing and is deleted', async () => {
    later(DELAY_SECONDS * 1000);
    const turn = JSON.stringify({ turn: (await loopId())! });
    fake.chain.mine([transfer({ to: alice, amount: 77 })]);
    const before = lambda.published.length;
    expect(kept(await invoke(turnEvent(turn)))).toEqual([messageIdOf(turn)]);
    const copy = await invoke(copyOfLastDelivery(turn));
    expect(skipped(copy)).toBe('stale-token');
    expect(kept(copy)).toEqual([]);
    expect(hidden).toEqual([]);
    expect(sent).toEqual([]);
    // The one transfer, alerted once (beside it, the earlier minute's SMS digest a tick noted for this turn).
    expect(lambda.published.slice(before).filter((entry) => !JSON.stringify(entry).includes('sms_digest'))).toHaveLength(1);
  });

  it('ends two copies of one delivery running at once as one loop: one keeps the message, the other is deleted', async () => {
    later(DELAY_SECONDS * 1000);
    const turn = lastTurn();
    fake.chain.mine([transfer({ to: alice, amount: 78 })]);
    const before = lambda.published.length;
    const first = turnEvent(turn);
    const results = await Promise.all([invoke(first), invoke(copyOfLastDelivery(turn))]);
    expect(results.map(kept).sort()).toEqual([[], [messageIdOf(turn)]]);
    expect(lambda.published.length - before).toBe(1);
    // The copy that lost is gone; the one kept goes on, its next delivery a receive later.
    later(DELAY_SECONDS * 1000);
    expect(kept(await invoke(turnEvent(turn)))).toEqual([messageIdOf(turn)]);
  });

  it("is restarted by the first tick after it died with a new message, and the dead loop's late message is then deleted", async () => {
    const lost = JSON.stringify({ turn: (await loopId())! }); // not delivered in time: the loop died here
    later(DEAD_AFTER_MS);
    const b = fake.chain.mine([transfer({ to: alice, amount: 5_000 })]);
    const before = lambda.published.length;
    expect(scanned(await invoke(tick))).toBe(1);
    expect(sent).toHaveLength(1);
    expect(lastTurn()).not.toBe(lost);
    const late = await invoke(turnEvent(lost));
    expect(skipped(late)).toBe('stale-token');
    expect(kept(late)).toEqual([]);
    expect(hidden).toEqual([]);
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
    expect(both.map(kept)).toEqual([[], [messageIdOf(live)]]);
    expect(sent).toHaveLength(1);
    expect(hidden).toEqual([]);
  });

  it("keeps its message for the next turn when another run holds the lease (a doorbell's cycle), running nothing", async () => {
    later(DELAY_SECONDS * 1000);
    const store = createDynamoStateStore({ client: lambda.dynamo.client, tableName: lambda.dynamo.tableName, network: 'mainnet' });
    expect(await store.acquireLease('doorbell', loop.now(), 60_000)).toBe(true);
    const result = await invoke(turnEvent(lastTurn()));
    expect(skipped(result)).toBe('lease-held');
    expect(kept(result)).toEqual([messageIdOf(lastTurn())]);
    expect(hidden).toEqual([]);
    await store.releaseLease('doorbell');
  });

  it('tells the operator when the loop keeps dying young, at the third restart in a row', async () => {
    const notices = () => logLinesOf(lambda.output).filter((l) => l.operatorNotice === 'loop-restarts');
    for (let i = 0; i < 3; i += 1) {
      later(DEAD_AFTER_MS);
      expect(scanned(await invoke(tick))).toBeDefined();
    }
    expect(notices()).toHaveLength(1);
    expect(notices()[0]!.detail).toMatch(/restarted the watcher's polling loop \d+ times in a row/);
  });

  it('keeps its message for the next turn after a failed cycle too: the loop outlives a bad run', async () => {
    later(DEAD_AFTER_MS);
    await invoke(tick);
    later(DELAY_SECONDS * 1000);
    fake.faults.times(20, { status: 500 });
    // A turn that throws fails its batch: the event source leaves the message, shown again the queue's visibility
    // timeout (the delay) after its receive.
    await expect(invoke(turnEvent(lastTurn()))).rejects.toThrow();
    expect(sent).toHaveLength(1);
    expect(hidden).toEqual([]);
    fake.faults.clear();
    later(DELAY_SECONDS * 1000);
    expect(kept(await invoke(turnEvent(lastTurn())))).toEqual([messageIdOf(lastTurn())]);
  });

  it('puts a failed turn in the dead-letter queue with its cause, as Lambda does a failed scheduled run (the recycled message itself never goes there)', async () => {
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
      logLinesOf(lambda.output)
        .filter((l) => '_aws' in l)
        .flatMap((l) => (l._aws as { CloudWatchMetrics: { Metrics: { Name: string }[] }[] }).CloudWatchMetrics[0]!.Metrics.map((m) => m.Name));
    const infoLines = () =>
      logLinesOf(lambda.output)
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
      logLinesOf(lambda.output)
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

  it('replaces a message near the end of its 14 days with a fresh one, and deletes the old', async () => {
    later(DEAD_AFTER_MS);
    await invoke(tick);
    const old = lastTurn();
    sent.length = 0;
    later(MESSAGE_RENEW_AFTER_MS + 1_000);
    fake.chain.mine([transfer({ to: alice, amount: 13 })]);
    const renewing = await invoke(turnEvent(old));
    expect(scanned(renewing)).toBeGreaterThan(0);
    expect(kept(renewing)).toEqual([]);
    expect(hidden).toEqual([]);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ QueueUrl: QUEUE_URL, DelaySeconds: DELAY_SECONDS });
    const fresh = lastTurn();
    expect(JSON.parse(fresh).turn).not.toBe(JSON.parse(old).turn);
    expect(readLoopToken((await storedToken())!).loop).toBe(JSON.parse(fresh).turn);
    // The old message, should SQS show it again, is stale; the fresh one runs and is kept.
    later(DELAY_SECONDS * 1000);
    expect(kept(await invoke(turnEvent(old)))).toEqual([]);
    expect(kept(await invoke(turnEvent(fresh)))).toEqual([messageIdOf(fresh)]);
    expect(sent).toHaveLength(1);
  });

  it('replaces an old message also when the turn finds no new block, with the heartbeat write it then makes', async () => {
    later(DEAD_AFTER_MS);
    await invoke(tick);
    const old = lastTurn();
    sent.length = 0;
    later(MESSAGE_RENEW_AFTER_MS + 1_000);
    expect(scanned(await invoke(turnEvent(old)))).toBe(0);
    expect(sent).toHaveLength(1);
    expect(readLoopToken((await storedToken())!).loop).toBe(JSON.parse(lastTurn()).turn);
  });

  it('never published an alert twice across every turn, tick and duplicate above', () => {
    expect(new Set(alertKeys()).size).toBe(alertKeys().length);
  });

  async function storedToken(): Promise<string | null> {
    const store = createDynamoStateStore({ client: lambda.dynamo.client, tableName: lambda.dynamo.tableName, network: 'mainnet' });
    return (await store.readLoop())?.turn ?? null;
  }

  /** The live loop's id, which its message carries. */
  async function loopId(): Promise<string | null> {
    const token = await storedToken();
    return token === null ? null : readLoopToken(token).loop;
  }
});
