// The floor under the latency goal (bench/latency-floor.ts) is an argument the docs lean on: its turn count, its
// per-turn items and its comparison with the loop's bill must follow from the prices and the bill it is given.
import { beforeAll, describe, expect, it } from 'vitest';
import { PRICES } from '../../bench/aws-prices';
import type { CycleCost } from '../../bench/cycle-cost';
import { latencyFloor, latencyFloorSection, longestPeriodSeconds } from '../../bench/latency-floor';
import { priceTemplate, synthTemplate, type MonthlyBill } from '../../bench/monthly-bill';

const poll: CycleCost = {
  scenario: 'fixed',
  blocksPerCycle: 2,
  alertsPerCycle: 0,
  requestsPerCycle: 3,
  cpuMs: 0,
  memoryMb: 256,
  durationMs: 500,
  gbSeconds: 0,
  readUnits: 1,
  writeUnits: 3,
  writeUnitsByItem: { 'cursor and lease': 3 },
  snsMessages: 0,
  logBytes: 2_000,
  quietTurnLogBytes: 1_200,
  emfBytes: 300,
  metricSeriesPerRun: 0,
  metricSeries: [],
};

/** A loop turn doing no work of its own: the floor's compute is its round trip alone. */
const idleTurn = { cpuMs: 0, memoryMb: 128 };

let loopBill: MonthlyBill;
// A whole-stack synth: seconds alone, but past the default hook bound on a 2-core machine running the suite.
const SYNTH_BOUND_MS = 120_000;
beforeAll(() => {
  loopBill = priceTemplate(synthTemplate({ latency: 'loop', loopDelaySeconds: 8 }), () => ({ run: poll, poll }));
}, SYNTH_BOUND_MS);

describe('the floor under the latency goal', () => {
  it('needs a turn at least every 11.1 s for a 10 s p90, since the wait alone is 0.9 of the period at p90', () => {
    expect(longestPeriodSeconds(10)).toBeCloseTo(11.111, 3);
    expect(latencyFloor('loop', loopBill, idleTurn).turns).toBeCloseTo((30 * 24 * 3600) / 11.111, -1);
  });

  it('prices each turn at one Lambda request and one SQS request at the least (the recycled message, received), and the cursor write on top', () => {
    const floor = latencyFloor('loop', loopBill, idleTurn);
    const line = (start: string) => floor.lines.find((l) => l.item.startsWith(start))!;
    expect(line('Lambda requests').floor).toBeCloseTo(floor.turns * PRICES.lambdaRequest, 10);
    expect(line('the timer').floor).toBeCloseTo(floor.turns * PRICES.sqsRequest, 10);
    expect(floor.withCursorWrite - floor.bare).toBeCloseTo(floor.turns * PRICES.dynamoWriteUnit, 10);
  });

  it("bills the floor's turn for its round trip and its own CPU stretched to 128 MB's share of a vCPU (13.8 times as long)", () => {
    const compute = (floor: ReturnType<typeof latencyFloor>) => floor.lines.find((l) => l.item.startsWith('Lambda compute'))!.floor;
    const busy = latencyFloor('loop', loopBill, { cpuMs: 10, memoryMb: 128 });
    expect(compute(busy)).toBeCloseTo(busy.turns * ((100 + 10 * (1_769 / 128)) / 1000) * (128 / 1024) * PRICES.lambdaGbSecond, 10);
    expect(compute(latencyFloor('loop', loopBill, idleTurn))).toBeCloseTo(busy.turns * 0.1 * (128 / 1024) * PRICES.lambdaGbSecond, 10);
    expect(() => latencyFloor('loop', loopBill, { cpuMs: 10, memoryMb: 256 })).toThrow(/timed at 128 MB/);
  });

  it("keeps the stack's own watch on itself at what the loop pays for it, and sets every line of the loop's bill beside an item", () => {
    const floor = latencyFloor('loop', loopBill, idleTurn);
    const kept = floor.lines[0]!;
    expect(kept.floor).toBe(kept.loop);
    expect(kept.loop).toBeGreaterThan(0.2); // two alarms at least
    expect(kept.loop).toBeLessThan(0.5); // no custom metric: the tick judges the lag
    expect(floor.lines.reduce((sum, l) => sum + l.loop, 0)).toBeCloseTo(loopBill.total, 10);
  });

  it("is lower the longer the p90 allowed, and refuses a bill that is not the loop's", () => {
    expect(latencyFloor('loop', loopBill, idleTurn, 20).bare).toBeLessThan(latencyFloor('loop', loopBill, idleTurn, 10).bare);
    const schedule = priceTemplate(synthTemplate(), () => ({ run: poll, poll }));
    expect(() => latencyFloor('schedule', schedule, idleTurn)).toThrow(/loop-mode bill/);
  });

  it('prints the verdicts against the dollar', () => {
    const section = latencyFloorSection(latencyFloor('loop at 8 s', loopBill, idleTurn));
    expect(section).toContain('the floor with the cursor written each turn');
    expect(section).toMatch(/loop at 8 s \| \*\*\$\d+\.\d+\*\* \| ❌/);
  });
});
