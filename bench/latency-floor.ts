// The floor under the latency goal (alerts within 10 s at p90, the default stack at most $1.00 a month at list
// price): the least any design must pay on AWS to wake often enough, granting it everything else. It keeps the
// stack's own watch on itself as it is (the 1-minute tick that judges the lag and watches the loop, with its one
// read; the two alarms on AWS's free metrics; the stored config) and prices each turn at its bare minimum:
// - turns: a block lands at a random moment of a turn's period, so the wait alone has a p90 of 0.9 periods:
//   a 10 s p90 needs a turn at least every 11.1 s, even if finding, matching and publishing took no time;
// - a timer with second precision at its cheapest: one SQS message recycled by its visibility timeout (received,
//   shown again by the queue: 1 request a turn, SQS_REQUESTS_AN_ORDINARY_TURN in lambda/runtime/loop-invocation.ts). EventBridge Scheduler invokes "with 60 second precision" (its user guide, schedule types), Step
//   Functions Standard bills 2 transitions a turn ($50 a million turns), Express bills its waiting (table 5b);
// - one Lambda request, billed for one round trip to the API (the bench's 100 ms) and the turn's own CPU work (table 5's
//   poll, timed at 128 MB: its CPU 13.8 times as long as on one core) at the smallest memory, 128 MB;
// - no log line, no read (but the tick's), no idle poll of the queue;
// - and then with, or without, the one DynamoDB write a turn that moves the cursor (a turn almost always finds a
//   block: about 10 a minute).
// Beside each item: what the loop at a turn every 8 s costs for it (table 5b), so the gap is priced line by line.
import { SQS_REQUESTS_AN_ORDINARY_TURN } from '../lambda/runtime/loop-invocation';
import { PRICES } from './aws-prices';
import { HIRO_LATENCY_MS } from './cycle-cost';
import { dollars, fixed, table, thousands, verdict } from './markdown';
import { cpuStretch } from './event-clock';
import type { BillLine, MonthlyBill } from './monthly-bill';
import type { CycleCost } from './cycle-measure';

const MONTH_SECONDS = 30 * 24 * 3600;
/** A recycled timer message's requests a turn: received; the queue's visibility timeout shows it again. */
const SQS_REQUESTS_A_TURN = SQS_REQUESTS_AN_ORDINARY_TURN;
const SMALLEST_MEMORY_GB = 128 / 1024;

/** The longest period between turns that can keep the wait's p90 within `p90Seconds`. */
export const longestPeriodSeconds = (p90Seconds: number): number => p90Seconds / 0.9;

export interface FloorLine {
  item: string;
  quantity: string;
  floor: number;
  /** What the measured loop pays for the same item. */
  loop: number;
}

export interface LatencyFloor {
  p90Seconds: number;
  turns: number;
  lines: FloorLine[];
  /** Every line but the cursor write. */
  bare: number;
  /** With one write unit a turn. */
  withCursorWrite: number;
  loopName: string;
  loopTotal: number;
}

/** Which of the floor's items a line of the loop's bill pays for ('kept' when the floor keeps it as it is). */
function itemOf(line: BillLine): string {
  if (line.item === 'Lambda requests') return 'requests';
  if (line.item === 'Lambda compute (arm64)') return 'compute';
  if (line.item === 'SQS requests, loop turns') return 'timer';
  if (line.item === 'DynamoDB on-demand writes') return 'writes';
  if (line.item === 'DynamoDB on-demand reads') return 'reads';
  if (line.item.startsWith('CloudWatch Logs')) return 'logs';
  return 'kept';
}

/**
 * The floor beside a loop's bill. `turn` is a loop turn's cycle timed at 128 MB (table 5): the floor's turn does the
 * same work, its CPU as long as it takes at 128 MB's share of a vCPU, beside its one round trip.
 */
export function latencyFloor(loopName: string, loopBill: MonthlyBill, turn: Pick<CycleCost, 'cpuMs' | 'memoryMb'>, p90Seconds = 10): LatencyFloor {
  if (!loopBill.loop) throw new Error('the floor is set beside a loop-mode bill');
  if (turn.memoryMb !== SMALLEST_MEMORY_GB * 1024) throw new Error(`the floor's turn is timed at 128 MB, not ${turn.memoryMb} MB`);
  const turns = MONTH_SECONDS / longestPeriodSeconds(p90Seconds);
  const paid = new Map<string, number>();
  for (const line of loopBill.lines) paid.set(itemOf(line), (paid.get(itemOf(line)) ?? 0) + line.dollars);
  const loop = (item: string) => paid.get(item) ?? 0;
  const count = thousands(turns);
  // The round trip and the turn's own work in sequence: a turn has nothing else to do while it waits.
  const turnCpuMs = turn.cpuMs * cpuStretch(turn.memoryMb);
  const computeGbSeconds = turns * ((HIRO_LATENCY_MS + turnCpuMs) / 1000) * SMALLEST_MEMORY_GB;
  const lines: FloorLine[] = [
    {
      item: 'kept as they are: the stall watch (the 1-minute tick and its read, two alarms on free metrics), the contract statuses once a minute, the config store, storage',
      quantity: 'as table 5b',
      floor: loop('kept'),
      loop: loop('kept'),
    },
    { item: 'Lambda requests, one a turn', quantity: count, floor: turns * PRICES.lambdaRequest, loop: loop('requests') },
    {
      item: `Lambda compute: one API round trip (${HIRO_LATENCY_MS} ms) and a turn's own CPU (${fixed(turn.cpuMs, 1)} ms on one core, ${fixed(turnCpuMs, 0)} ms at 128 MB) at 128 MB`,
      quantity: `${thousands(computeGbSeconds)} GB-s`,
      floor: computeGbSeconds * PRICES.lambdaGbSecond,
      loop: loop('compute'),
    },
    {
      item: "the timer: one SQS message recycled by the queue's visibility timeout (received), no idle poll",
      quantity: thousands(turns * SQS_REQUESTS_A_TURN),
      floor: turns * SQS_REQUESTS_A_TURN * PRICES.sqsRequest,
      loop: loop('timer'),
    },
    // The tick's one read a minute is the stall watch's, kept; a turn reads nothing at the floor.
    {
      item: "DynamoDB reads: the tick's, none a turn",
      quantity: thousands(loopBill.loop.ticks),
      floor: loopBill.loop.ticks * PRICES.dynamoReadUnit,
      loop: loop('reads'),
    },
    { item: 'logs', quantity: '0 B', floor: 0, loop: loop('logs') },
  ];
  const bare = lines.reduce((sum, line) => sum + line.floor, 0);
  const cursorWrite = { item: 'DynamoDB writes: the cursor, one unit a turn', quantity: count, floor: turns * PRICES.dynamoWriteUnit, loop: loop('writes') };
  return { p90Seconds, turns, lines: [...lines, cursorWrite], bare, withCursorWrite: bare + cursorWrite.floor, loopName, loopTotal: loopBill.total };
}

export function latencyFloorSection(floor: LatencyFloor, goalDollars = 1): string {
  return [
    '### 5c. The floor under the latency goal',
    '',
    `What any design alerting within ${floor.p90Seconds} s at p90 must pay a month at list price, granting it everything else ` +
      "(bench/latency-floor.ts): the stack's watch on itself kept as it is (the 1-minute tick judging the lag with one read, two alarms on AWS's free metrics); a turn at least every " +
      `${longestPeriodSeconds(floor.p90Seconds).toFixed(1)} s (a block lands at a random moment of the period, so the wait alone has a p90 of 0.9 periods), ` +
      `${thousands(floor.turns)} turns a month; the cheapest timer with second precision (SQS; EventBridge Scheduler invokes with 60 s precision, ` +
      "Step Functions Standard costs 2 transitions a turn, Express bills its waiting); one Lambda request billed for one API round trip and the measured loop turn's own CPU (table 5), " +
      "that CPU stretched to 128 MB's share of a vCPU (1,769 / 128 = 13.8 times as long as on one core); " +
      `no log, no read but the tick's, no idle poll. Beside it, the same items as the ${floor.loopName} pays them (table 5b).`,
    '',
    table(
      ['item', 'floor quantity a month', 'floor', 'the loop'],
      floor.lines.map((line) => [line.item, line.quantity, dollars(line.floor), dollars(line.loop)]),
    ),
    '',
    table(
      ['', 'a month', `goal ≤ ${dollars(goalDollars)}`],
      [
        ['the floor, storing nothing a turn', `**${dollars(floor.bare)}**`, verdict(floor.bare <= goalDollars)],
        ['the floor with the cursor written each turn', `**${dollars(floor.withCursorWrite)}**`, verdict(floor.withCursorWrite <= goalDollars)],
        [floor.loopName, `**${dollars(floor.loopTotal)}**`, verdict(floor.loopTotal <= goalDollars)],
      ],
    ),
  ].join('\n');
}
