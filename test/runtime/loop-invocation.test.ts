import { describe, expect, it } from 'vitest';
import { nextTurnDelaySeconds, queuedTurnTokens, statusesDue } from '../../lambda/runtime/loop-invocation';

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

  it('reads turn tokens from SQS records only, skipping bodies that are not turns', () => {
    const record = (body: string) => ({ eventSource: 'aws:sqs', body });
    expect(queuedTurnTokens({ Records: [record('{"turn":"t-1"}'), record('not json'), record('{"turn":""}')] })).toEqual(['t-1']);
    expect(queuedTurnTokens({ source: 'aws.scheduler' })).toBeNull();
    expect(queuedTurnTokens({})).toBeNull();
    expect(queuedTurnTokens({ Records: [{ eventSource: 'aws:sns', body: '{"turn":"t"}' }] })).toBeNull();
  });

  it('checks contract statuses in about one turn a minute, not in every turn', () => {
    const minute = Date.parse('2026-11-25T12:00:00Z');
    const due = Array.from({ length: 60 }, (_, i) => statusesDue(minute + i * 8_500, loop)).filter(Boolean).length;
    expect(due).toBeGreaterThanOrEqual(8);
    expect(due).toBeLessThanOrEqual(10);
  });
});
