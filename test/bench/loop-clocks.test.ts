// Table 5e (bench/loop-clocks.ts) prices each clock for the loop from the loop's own bill: each design must swap
// only the timer's lines, and the flood's bound must follow from the one slot reserved concurrency leaves.
import { describe, expect, it } from 'vitest';
import { PRICES } from '../../bench/aws-prices';
import type { LatencyRow } from '../../bench/alert-latency';
import type { CycleCost } from '../../bench/cycle-cost';
import { BLOCKS_A_MONTH, clockRows, floodBill } from '../../bench/loop-clocks';
import type { MonthlyBill } from '../../bench/monthly-bill';

const turns = 250_000;
const emptyReceives = 100_000;
const line = (item: string, dollars: number) => ({ resource: 'r', item, quantity: '', dollars });
const perRun = { billedSeconds: 0.5, memoryMb: 256, writeUnits: 1, readUnits: 2, logBytes: 350, metricSeries: [], snsPublishes: 0 };
const bill = (lines: MonthlyBill['lines'], loop = true): MonthlyBill => ({
  lines,
  total: lines.reduce((sum, l) => sum + l.dollars, 0),
  runs: turns,
  perRun,
  ...(loop ? { loop: { delaySeconds: 10, turns, ticks: 43_200, sqs: { perTurn: 1, turnRequests: turns, sends: 2, emptyReceives } } } : {}),
});
const loopBill = bill([
  line('SQS requests, loop turns', (turns + 2 + emptyReceives) * PRICES.sqsRequest),
  line('Lambda compute (arm64)', 0.4),
  line('Lambda requests', turns * PRICES.lambdaRequest),
  line('CloudWatch alarm (standard)', 0.3),
  line('DynamoDB on-demand reads', (turns + 2 * 43_200) * PRICES.dynamoReadUnit),
  line('S3 GET requests, the watch config (by the ticks alone)', 43_200 * PRICES.s3GetRequest),
]);
const scheduleBill = bill([line('EventBridge Scheduler invocations', 0.0432), line('CloudWatch alarm (standard)', 0.3)], false);
const ring: CycleCost = {
  scenario: 'ring',
  blocksPerCycle: 1,
  alertsPerCycle: 0,
  requestsPerCycle: 3,
  cpuMs: 0,
  memoryMb: 256,
  durationMs: 400,
  gbSeconds: 0,
  readUnits: 3,
  writeUnits: 3,
  writeUnitsByItem: {},
  snsMessages: 0,
  logBytes: 1_000,
  quietTurnLogBytes: 350,
  emfBytes: 0,
  metricSeriesPerRun: 0,
  metricSeries: [],
};
const latency = (p90Seconds: number, mode: LatencyRow['mode'] = { kind: 'loop', delaySeconds: 10 }) => ({ p90Seconds, mode }) as LatencyRow;

const rows = clockRows({
  loopBill,
  loopBill128: loopBill,
  scheduleBill,
  idleScheduleBill: scheduleBill,
  ring,
  latency: { loop: latency(9.7), noPickup: latency(9.2), schedule: latency(54.6), doorbell: [latency(3.1, { kind: 'doorbell', pushDelayMs: 2_000 })] },
});
const row = (start: string) => rows.find((r) => r.design.startsWith(start))!;
const sqsDollars = (b: MonthlyBill) => b.lines.filter((l) => l.item.startsWith('SQS')).reduce((sum, l) => sum + l.dollars, 0);

describe("the loop's clocks side by side", () => {
  it('shows the built loop (one message recycled, 1 request a turn) at its own bill, and prices the message hidden again by each turn at 2 requests and the former self-chain at 3, with the idle polls, the rest unchanged', () => {
    expect(row('SQS, one message recycled').bill).toBe(loopBill);
    expect(row('SQS, one message recycled').how).toMatch(/^built: .*1 request a turn/);
    const hiddenAgain = row('the same message hidden again').bill;
    expect(sqsDollars(hiddenAgain)).toBeCloseTo((turns * 2 + 2 + emptyReceives) * PRICES.sqsRequest, 10);
    expect(hiddenAgain.total - sqsDollars(hiddenAgain)).toBeCloseTo(loopBill.total - sqsDollars(loopBill), 10);
    const chained = row('SQS delay queue, self-chained').bill;
    expect(sqsDollars(chained)).toBeCloseTo((turns * 3 + emptyReceives) * PRICES.sqsRequest, 10);
    expect(chained.total - sqsDollars(chained)).toBeCloseTo(loopBill.total - sqsDollars(loopBill), 10);
    expect(rows.filter((r) => /not built/.test(r.how) && /recycled/.test(r.design))).toEqual([]);
  });

  it('names the leaner turn as part of the built loop and leaves no design of it priced but not built', () => {
    expect(row('SQS, one message recycled').how).toMatch(/reads one item, the cursor item/);
    expect(rows.filter((r) => /not built/.test(r.how))).toEqual([]);
  });

  it("prices one-time schedules at one invocation a turn and gives them the schedule's p90 (60 s precision)", () => {
    const scheduler = row('EventBridge Scheduler').bill;
    expect(sqsDollars(scheduler)).toBe(0);
    expect(scheduler.lines.find((l) => l.item.startsWith('EventBridge Scheduler'))!.dollars).toBeCloseTo(turns * PRICES.schedulerInvocation, 10);
    expect(row('EventBridge Scheduler').p90Seconds).toBe(54.6);
  });

  it("bills the sleeping invocation for every second of the month instead of its turns' compute, requests and queue", () => {
    const sleeping = row('one invocation sleeping').bill;
    expect(sqsDollars(sleeping)).toBe(0);
    expect(sleeping.lines.some((l) => l.item === 'Lambda compute (arm64)')).toBe(false);
    expect(sleeping.lines.find((l) => l.item.startsWith('Lambda compute, one invocation all month'))!.dollars).toBeCloseTo(
      30 * 24 * 3600 * 0.25 * PRICES.lambdaGbSecond,
      6,
    );
  });

  it('adds to the schedule a ring a block, each a measured one-block cycle', () => {
    const doorbell = row('1-minute schedule + doorbell').bill;
    const writes = doorbell.lines.find((l) => l.item.startsWith('DynamoDB writes, a ring'))!;
    expect(writes.dollars).toBeCloseTo(BLOCKS_A_MONTH * ring.writeUnits * PRICES.dynamoWriteUnit, 10);
    expect(doorbell.total).toBeGreaterThan(scheduleBill.total);
    expect(row('1-minute schedule + doorbell').p90Seconds).toBe(3.1);
  });

  it("logs each ring's own measured lines (its cycle's summary at info), not a quiet loop turn's", () => {
    const logs = row('1-minute schedule + doorbell').bill.lines.find((l) => l.item.startsWith('CloudWatch Logs, a ring'))!;
    expect(logs.dollars).toBeCloseTo(((BLOCKS_A_MONTH * ring.logBytes) / 1024 ** 3) * PRICES.cloudWatchLogsGb, 12);
  });

  it("bounds a flood by the one slot: a ring a refusal's time at most, the rest refused unbilled", () => {
    const flood = floodBill(256, 2, 1_000);
    expect(flood.accepted).toBe(500);
    expect(flood.requestsPerHour).toBe(500 * 3600);
    expect(flood.perHour).toBeCloseTo(500 * 3600 * PRICES.lambdaRequest + 3600 * 0.25 * PRICES.lambdaGbSecond, 10);
    expect(floodBill(256, 2, 10).accepted).toBe(10);
  });
});
