import { describe, expect, it } from 'vitest';
import { beginTurn, failedTurnQueue, loopWorkMs, nextTurn, nextTurnDelaySeconds, queuedTurnMessages, statusesDue } from '../../lambda/runtime/loop-invocation';
import { readLambdaSettings } from '../../lambda/runtime/lambda-env';
import { LOOP_TURN_MAX_SECONDS, loopDeadAfterMs, loopTurnMarginMs, loopTurnSeconds, type LoopStore } from '../../lambda/core/scan/loop-turns';
import type { OperatorChannel } from '../../lambda/core/ports';

const loop = { queueUrl: 'https://sqs.us-east-1.amazonaws.com/123456789012/turns', delaySeconds: 8, turnSeconds: 20 };

describe('the loop turn of an invocation', () => {
  it("starts turns every delaySeconds while caught up, the turn's own time taken off", () => {
    expect(nextTurnDelaySeconds(loop, true, 600)).toBe(7);
    expect(nextTurnDelaySeconds(loop, true, 0)).toBe(8);
    expect(nextTurnDelaySeconds(loop, true, 12_000)).toBe(0);
  });

  it('queues the next turn at once while behind the tip', () => {
    expect(nextTurnDelaySeconds(loop, false, 600)).toBe(0);
  });

  it('delays the next turn until the API allows requests again when the turn ended rather than wait on its rate limit', () => {
    expect(nextTurnDelaySeconds(loop, false, 600, 14_200)).toBe(15);
    expect(nextTurnDelaySeconds(loop, true, 600, 14_200)).toBe(15);
    expect(nextTurnDelaySeconds(loop, true, 600, 3_000)).toBe(7);
    expect(nextTurnDelaySeconds(loop, false, 600, -500)).toBe(0);
    expect(nextTurnDelaySeconds(loop, false, 600, 3_600_000)).toBe(900);
  });

  it("leaves a caught-up turn's next turn to the queue's visibility timeout, and changes the visibility only for another delay", () => {
    // Caught up, nothing asked by the API: the queue shows the message again the delay after its receive.
    expect(nextTurn(loop, true, 600)).toEqual({ delaySeconds: 7, byQueue: true });
    expect(nextTurn(loop, true, 600, 3_000)).toEqual({ delaySeconds: 7, byQueue: true });
    // Behind the tip: at once; on the rate limit's reset past the period: that long.
    expect(nextTurn(loop, false, 600)).toEqual({ delaySeconds: 0, byQueue: false });
    expect(nextTurn(loop, false, 600, 14_200)).toEqual({ delaySeconds: 15, byQueue: false });
    expect(nextTurn(loop, true, 600, 14_200)).toEqual({ delaySeconds: 15, byQueue: false });
  });

  it("bounds a queued turn's work by its turn length and its function's timeout less the margin, and a tick's by the longest turn, whatever the delay", () => {
    const atDelay = (delaySeconds: number) => ({ ...loop, delaySeconds, turnSeconds: loopTurnSeconds(delaySeconds) });
    // A turn: its function times out at the delay.
    expect(loopWorkMs(atDelay(8), true, 8_000)).toBe(5_000);
    expect(loopWorkMs(atDelay(1), true, 1_000)).toBe(500);
    expect(loopWorkMs(atDelay(8), true, 6_000)).toBe(3_000);
    expect(loopWorkMs(atDelay(60), true, 60_000)).toBe(20_000);
    // A tick runs in the watcher function, with the deploy's timeout: a restart's first turn works as long as a turn may at most.
    expect(loopWorkMs(atDelay(1), false, 120_000)).toBe(20_000);
    expect(loopWorkMs(atDelay(8), false, 120_000)).toBe(20_000);
  });

  it("calls the loop dead only past its longest healthy silence with a restart's 20 s turn in it, however short the turns' work", async () => {
    const nowMs = Date.parse('2026-11-25T12:00:00Z');
    const tickAfter = async (silentMs: number) => {
      const state = { turn: 'loop-1@7', beatAt: nowMs - silentMs, startedAt: nowMs - 3_600_000, restarts: 0 };
      const store = {
        readLoop: async () => state,
        takeLoopTurn: async () => true,
        readTurn: async () => ({}),
        beatLoop: async () => true,
      } as unknown as LoopStore;
      const operator = { notify: async () => undefined } as unknown as OperatorChannel;
      const at8 = { ...loop, turnSeconds: loopTurnSeconds(8) };
      return beginTurn({ source: 'aws.scheduler' }, { store, operator, loop: at8, owner: 'tick', nowMs, ttlMs: 120_000, newToken: () => 'loop-2' });
    };
    const longest = loopDeadAfterMs({ delayMs: 8_000, turnMs: LOOP_TURN_MAX_SECONDS * 1000 });
    expect(longest).toBe(58_000);
    expect(await tickAfter(longest)).toMatchObject({ run: false, why: 'loop-alive' });
    expect(await tickAfter(longest + 1)).toMatchObject({ run: true, next: 'loop-2' });
  });

  it('reads turn messages from SQS records only: the loop id, the receive count and when SQS took the message', () => {
    const attributes = { ApproximateReceiveCount: '3', SentTimestamp: '1800000000000' };
    const record = (body: string, messageId = 'm') => ({ eventSource: 'aws:sqs', messageId, receiptHandle: `r-${messageId}`, body, attributes });
    const messages = queuedTurnMessages({ Records: [record('{"turn":"t-1"}', 'a'), record('not json'), record('{"turn":""}')] });
    expect(messages?.map((m) => m.turn)).toEqual([{ loop: 't-1', receives: 3 }, null, null]);
    expect(messages?.[0]).toMatchObject({ messageId: 'a', receiptHandle: 'r-a', sentAtMs: 1_800_000_000_000 });
    expect(queuedTurnMessages({ Records: [{ ...record('{"turn":"t"}'), attributes: {} }] })?.[0]?.turn).toBeNull();
    expect(queuedTurnMessages({ source: 'aws.scheduler' })).toBeNull();
    expect(queuedTurnMessages({})).toBeNull();
    expect(queuedTurnMessages({ Records: [{ eventSource: 'aws:sns', body: '{"turn":"t"}' }] })).toBeNull();
  });

  it('checks contract statuses in about one turn a minute, not in every turn', () => {
    const minute = Date.parse('2026-11-25T12:00:00Z');
    const due = Array.from({ length: 60 }, (_, i) => statusesDue(minute + i * 8_500, loop)).filter(Boolean).length;
    expect(due).toBeGreaterThanOrEqual(8);
    expect(due).toBeLessThanOrEqual(10);
  });

  it('reports a failed queued turn to the dead-letter queue it is given, and leaves a failed tick to Lambda', () => {
    const withQueue = { ...loop, deadLetterQueueUrl: 'https://sqs.us-east-1.amazonaws.com/123456789012/dead' };
    const turn = { Records: [{ eventSource: 'aws:sqs', body: '{"turn":"t-1"}' }] };
    expect(failedTurnQueue(turn, withQueue)).toBe(withQueue.deadLetterQueueUrl);
    expect(failedTurnQueue({ source: 'aws.scheduler' }, withQueue)).toBeUndefined();
    expect(failedTurnQueue(turn, loop)).toBeUndefined();
    expect(failedTurnQueue(turn, undefined)).toBeUndefined();
  });

  it("accepts the turn's work the stack derives for every delay the deploy settings accept, each inside the function's timeout (the delay), and refuses a turn of no time", () => {
    const env = { TABLE_NAME: 't', TOPIC_ARN: 'arn:aws:sns:us-east-1:123456789012:alerts', LOOP_QUEUE_URL: loop.queueUrl };
    for (let delay = 1; delay <= 60; delay += 1) {
      const turnSeconds = loopTurnSeconds(delay);
      const settings = readLambdaSettings({ ...env, LOOP_DELAY_SECONDS: String(delay), LOOP_TURN_SECONDS: String(turnSeconds) });
      expect(settings.loop).toMatchObject({ delaySeconds: delay, turnSeconds });
      expect(turnSeconds * 1000 + loopTurnMarginMs(delay * 1000)).toBeLessThanOrEqual(delay * 1000);
    }
    expect([1, 2, 8, 10, 60].map(loopTurnSeconds)).toEqual([0.5, 1, 5, 7, 20]);
    for (const bad of ['0', '0.2', 'x', '601']) {
      expect(() => readLambdaSettings({ ...env, LOOP_TURN_SECONDS: bad })).toThrow(/LOOP_TURN_SECONDS must be a number of seconds from 0.5 to 600/);
    }
  });

  it('reads the dead-letter queue from DEAD_LETTER_QUEUE_URL, refusing one that is not a queue URL', () => {
    const env = { TABLE_NAME: 't', TOPIC_ARN: 'arn:aws:sns:us-east-1:123456789012:alerts', LOOP_QUEUE_URL: loop.queueUrl };
    const url = 'https://sqs.us-east-1.amazonaws.com/123456789012/dead';
    expect(readLambdaSettings({ ...env, DEAD_LETTER_QUEUE_URL: url }).loop?.deadLetterQueueUrl).toBe(url);
    expect(readLambdaSettings(env).loop?.deadLetterQueueUrl).toBeUndefined();
    expect(() => readLambdaSettings({ ...env, DEAD_LETTER_QUEUE_URL: 'dead' })).toThrow(/DEAD_LETTER_QUEUE_URL is not an SQS queue URL/);
  });
});
