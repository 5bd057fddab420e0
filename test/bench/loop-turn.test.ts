// The cost bench counts a loop turn's SQS requests as the handler makes them (bench/loop-turn.ts): the event
// source's receive, and whatever the handler's own hand-on sends for the turn (lambda/runtime/loop-invocation.ts).
import { describe, expect, it } from 'vitest';
import { BenchLoop } from '../../bench/loop-turn';
import type { CycleSummary } from '../../lambda/core/cycle-types';
import type { LoopStore } from '../../lambda/core/scan/loop-turns';

/** A store whose loop is always the one the bench's message names, and whose writes always pass. */
function acceptingStore(): LoopStore {
  let token: string | null = null;
  return {
    readLoop: async () => null,
    readTurn: async () => ({
      loop: { turn: token, beatAt: 0, startedAt: 0, restarts: 0 },
      leaseHeldBy: null,
      cursor: null,
      notes: { configVersion: null, smsDigestOwed: false },
    }),
    beatLoop: async (handover) => ((token = handover.next), true),
    takeLoopTurn: async (take) => ((token = take.next), true),
  };
}

describe("the cost bench's loop turn", () => {
  it('counts one SQS request for a caught-up turn (its receive) and a second for a turn that changes its visibility (behind the tip)', async () => {
    const count = { sqsRequests: 0 };
    const loop = { queueUrl: '', delaySeconds: 8, turnSeconds: 5 };
    const bench = new BenchLoop(acceptingStore(), { now: () => Date.now() }, { loop, count });
    const ending = (stoppedBecause: CycleSummary['stoppedBecause']) => async () => ({ stoppedBecause }) as CycleSummary;
    await bench.turn('start', ending('caught-up')); // the watchdog's start: no message yet
    expect(count.sqsRequests).toBe(0);
    await bench.turn('t-1', ending('caught-up'));
    expect(count.sqsRequests).toBe(1);
    await bench.turn('t-2', ending('time-budget'));
    expect(count.sqsRequests).toBe(3);
  });
});
