// Table 5e: every credible clock for a turn every few seconds, side by side, each priced resource by resource
// from the loop's synthesized template (bench/monthly-bill.ts) with the timer's own lines swapped in, and its p90
// from the latency runs (bench/alert-latency.ts). One SQS message recycled is what `latency: loop` deploys: the
// turn reports its message failed, so the event source leaves it in the queue, whose visibility timeout (the
// delay) shows it again for the next receive: SQS_REQUESTS_AN_ORDINARY_TURN, 1 request a turn. The rest are
// priced from the same measured turns:
// - the same message hidden again by each turn (ChangeMessageVisibility), as the loop was first built: 2 requests a turn;
// - the SQS self-chain before it: each turn sends the next as a new message with a delay (sent, received,
//   deleted: 3 requests a turn);
// - Step Functions Standard and Express (bench/step-functions-bill.ts);
// - EventBridge Scheduler one-shot schedules: a schedule a turn, invoked with 60 s precision (its user guide),
//   so its p90 is the 1-minute schedule's;
// - one invocation sleeping between turns: no timer at all, but every second of the month billed;
// - the 1-minute schedule with the doorbell: the schedule's ticks (finding nothing new: the measured idle cycle)
//   and a ring after each block, each ring one cycle of one block under the run lease (measured).
import { PRICES } from './aws-prices';
import type { LatencyRow } from './alert-latency';
import type { CycleCost } from './cycle-cost';
import { dollars, fixed, table, thousands, verdict } from './markdown';
import type { BillLine, MonthlyBill } from './monthly-bill';
import { stepFunctionsBill } from './step-functions-bill';

const MONTH_SECONDS = 30 * 24 * 3600;
/** About 10 blocks a minute (the bill's chain). */
export const BLOCKS_A_MONTH = 10 * 30 * 24 * 60;
/** A Lambda invocation lasts at most 15 minutes: the sleeping loop starts again that often. */
const LONGEST_INVOCATION_SECONDS = 900;
const SQS_LINE = 'SQS requests, loop turns';

export interface ClockRow {
  design: string;
  how: string;
  p90Seconds: number | null;
  bill: MonthlyBill;
}

const total = (lines: BillLine[]) => lines.reduce((sum, line) => sum + line.dollars, 0);
const withLines = (bill: MonthlyBill, lines: BillLine[]): MonthlyBill => ({ ...bill, lines, total: total(lines) });
const without = (bill: MonthlyBill, items: string[]) => bill.lines.filter((line) => !items.includes(line.item));

/** The loop's bill at `perTurn` SQS requests a turn, `sends` fresh messages beside them, and the idle pollers' empty long polls. */
function sqsAt(loopBill: MonthlyBill, perTurn: number, sends: number): MonthlyBill {
  const loop = loopBill.loop!;
  const requests = loop.turns * perTurn + sends + loop.sqs.emptyReceives;
  const line = {
    resource: 'Turns queue',
    item: SQS_LINE,
    quantity: `${thousands(requests)} (${perTurn} a turn, ${thousands(loop.sqs.emptyReceives)} empty long polls)`,
    dollars: requests * PRICES.sqsRequest,
  };
  return withLines(loopBill, [...without(loopBill, [SQS_LINE]), line]);
}

function schedulerOneShot(loopBill: MonthlyBill): MonthlyBill {
  const turns = loopBill.loop!.turns;
  const line = {
    resource: 'one-time schedules',
    item: 'EventBridge Scheduler invocations, one a turn',
    quantity: thousands(turns),
    dollars: turns * PRICES.schedulerInvocation,
  };
  return withLines(loopBill, [...without(loopBill, [SQS_LINE]), line]);
}

/** One invocation all month, sleeping between its turns: the turns' own compute and requests replaced by every second billed. */
function sleepingInvocation(loopBill: MonthlyBill): MonthlyBill {
  const gb = loopBill.perRun.memoryMb / 1024;
  const starts = MONTH_SECONDS / LONGEST_INVOCATION_SECONDS;
  const lines = [
    ...without(loopBill, [SQS_LINE, 'Lambda compute (arm64)', 'Lambda requests']),
    {
      resource: 'Watcher function',
      item: 'Lambda compute, one invocation all month',
      quantity: `${thousands(MONTH_SECONDS * gb)} GB-s (${loopBill.perRun.memoryMb} MB)`,
      dollars: MONTH_SECONDS * gb * PRICES.lambdaGbSecond,
    },
    { resource: 'Watcher function', item: 'Lambda requests, one every 15 minutes', quantity: thousands(starts), dollars: starts * PRICES.lambdaRequest },
  ];
  return withLines(loopBill, lines);
}

/** The ticks' bill (each finding nothing new) and one ring a block, each a measured one-block cycle. */
export function doorbellBill(idleScheduleBill: MonthlyBill, ring: CycleCost, logBytesPerRing: number): MonthlyBill {
  const rings = BLOCKS_A_MONTH;
  const gbSeconds = rings * (ring.durationMs / 1000) * (idleScheduleBill.perRun.memoryMb / 1024);
  const resource = 'Doorbell function';
  const lines = [
    ...idleScheduleBill.lines,
    {
      resource,
      item: 'Lambda compute, a ring a block',
      quantity: `${thousands(gbSeconds)} GB-s (${fixed(ring.durationMs / 1000, 2)} s a ring)`,
      dollars: gbSeconds * PRICES.lambdaGbSecond,
    },
    { resource, item: 'Lambda requests, a ring a block (the function URL adds no charge)', quantity: thousands(rings), dollars: rings * PRICES.lambdaRequest },
    {
      resource: 'State table',
      item: 'DynamoDB writes, a ring a block',
      quantity: `${thousands(rings * ring.writeUnits)} WRU (${fixed(ring.writeUnits, 1)} a ring)`,
      dollars: rings * ring.writeUnits * PRICES.dynamoWriteUnit,
    },
    {
      resource: 'State table',
      item: 'DynamoDB reads, a ring a block',
      quantity: `${thousands(rings * ring.readUnits)} RRU`,
      dollars: rings * ring.readUnits * PRICES.dynamoReadUnit,
    },
    {
      resource: 'Watcher logs',
      item: 'CloudWatch Logs, a ring a block',
      quantity: `${fixed((rings * logBytesPerRing) / 1024 ** 2, 0)} MB`,
      dollars: ((rings * logBytesPerRing) / 1024 ** 3) * PRICES.cloudWatchLogsGb,
    },
  ];
  return withLines(idleScheduleBill, lines);
}

export interface ClockInputs {
  /** The SQS loop at the compared turn, priced from its template (at its default 256 MB, and at 128 MB). */
  loopBill: MonthlyBill;
  loopBill128: MonthlyBill;
  /** The default stack priced with its ticks finding nothing new, and as is. */
  idleScheduleBill: MonthlyBill;
  scheduleBill: MonthlyBill;
  ring: CycleCost;
  latency: { loop: LatencyRow; noPickup: LatencyRow; schedule: LatencyRow; doorbell: LatencyRow[] };
}

export function clockRows(input: ClockInputs): ClockRow[] {
  const { loopBill, latency } = input;
  const delay = loopBill.loop!.delaySeconds;
  const loopP90 = latency.loop.p90Seconds;
  return [
    {
      design: `SQS, one message recycled by its visibility timeout (latency=loop), a turn every ${delay} s`,
      how:
        `built: the queue's visibility timeout is the delay, so an ordinary turn only reports its message failed: ${loopBill.loop!.sqs.perTurn} request a turn, the receive; ` +
        'it reads one item, the cursor item (the SMS tally only to route an alert, the watch config only when a tick flagged a new version)',
      p90Seconds: loopP90,
      bill: loopBill,
    },
    {
      design: 'the same at 128 MB',
      how: 'built: memorySize 128, as the shipped deploy.json deploys it (table 7: its memory)',
      p90Seconds: loopP90,
      bill: input.loopBill128,
    },
    {
      design: 'the same message hidden again by each turn (ChangeMessageVisibility)',
      how: 'priced (the loop as first built): received, hidden again, 2 requests a turn',
      p90Seconds: loopP90,
      bill: sqsAt(loopBill, 2, loopBill.loop!.sqs.sends),
    },
    {
      design: 'SQS delay queue, self-chained: a new message a turn',
      how: 'priced (the former design): sent, received, deleted, 3 requests a turn',
      p90Seconds: loopP90,
      // Every turn's message is a new one: no renewal beside them.
      bill: sqsAt(loopBill, 3, 0),
    },
    { design: 'Step Functions Standard, Wait then Task', how: 'priced', p90Seconds: loopP90, bill: stepFunctionsBill(loopBill, 'standard') },
    { design: 'Step Functions Express, Wait then Task', how: 'priced', p90Seconds: loopP90, bill: stepFunctionsBill(loopBill, 'express') },
    {
      design: 'EventBridge Scheduler, a one-time schedule a turn',
      how: 'priced; 60 s precision',
      p90Seconds: latency.schedule.p90Seconds,
      bill: schedulerOneShot(loopBill),
    },
    {
      design: 'one invocation sleeping between turns',
      how: 'priced: billed every second',
      p90Seconds: latency.noPickup.p90Seconds,
      bill: sleepingInvocation(loopBill),
    },
    { design: '1-minute schedule alone (no latency set)', how: 'built', p90Seconds: latency.schedule.p90Seconds, bill: input.scheduleBill },
    ...latency.doorbell.map((row) => ({
      design: `1-minute schedule + doorbell, rung ${row.mode.kind === 'doorbell' ? row.mode.pushDelayMs / 1000 : '?'} s after each block`,
      how: 'built (doorbell: true); a push source rings it',
      p90Seconds: row.p90Seconds,
      // A ring is a cycle of the schedule's kind, its summary logged at info; the doorbell logs as the watcher does,
      // without Lambda's own lines (infra/constructs/watcher-function.ts, watcherLogging).
      bill: doorbellBill(input.idleScheduleBill, input.ring, input.ring.logBytes),
    })),
  ];
}

/**
 * A flood of rings (docs/doorbell.md): Lambda answers rings beyond the reserved concurrency of 1 with 429 and
 * bills them nothing; the one slot is billed for each ring it refuses (401), at Lambda's 1 ms granularity.
 */
export function floodBill(memoryMb: number, refusalMs: number, ringsPerSecond: number) {
  const accepted = Math.min(ringsPerSecond, 1000 / refusalMs);
  const hour = 3600;
  const requests = accepted * hour;
  const compute = Math.min(1, (accepted * refusalMs) / 1000) * hour * (memoryMb / 1024) * PRICES.lambdaGbSecond;
  return { accepted, perHour: requests * PRICES.lambdaRequest + compute, requestsPerHour: requests };
}

export function clocksSection(rows: ClockRow[], flood: ReturnType<typeof floodBill> & { refusalMs: number; memoryMb: number }, goalDollars = 1): string {
  return [
    "### 5e. The loop's clock: every credible design side by side",
    '',
    "Each design at list price, resource by resource from the synthesized template with the timer's own lines swapped in (bench/loop-clocks.ts), its p90 from the latency runs " +
      "(the loop's measured turn; the sleeping invocation as the loop with no pickup; one-time schedules as the 1-minute schedule, since Scheduler invokes with 60 s precision; " +
      "the doorbell with the push source's stated delay). The doorbell's bill: the ticks finding nothing new, and a ring a block (about 10 a minute), each a measured cycle of one block under the run lease. " +
      `Goal: p90 ≤ 10 s at ≤ ${dollars(goalDollars)} a month.`,
    '',
    table(
      ['design', 'how', 'p90', 'a month', 'goal'],
      rows.map((row) => [
        row.design,
        row.how,
        row.p90Seconds === null ? '–' : `${fixed(row.p90Seconds, 1)} s`,
        `**${dollars(row.bill.total)}**`,
        row.p90Seconds !== null && row.p90Seconds <= 10 && row.bill.total <= goalDollars
          ? verdict(true)
          : `❌ ${row.bill.total > goalDollars ? `${dollars(row.bill.total - goalDollars)} over` : ''}${row.p90Seconds !== null && row.p90Seconds > 10 ? ` p90 ${fixed(row.p90Seconds - 10, 1)} s over` : ''}`,
      ]),
    ),
    '',
    `A flood of 1,000 rings a second: Lambda refuses all but one at a time with 429 (reserved concurrency 1) and bills those nothing; the one slot refuses each unsigned ring (401) in about ${flood.refusalMs} ms ` +
      `(assumed: an HMAC over at most 64 KiB, billed at Lambda's 1 ms granularity), so at most ${thousands(flood.accepted)} rings a second are billed: ` +
      `${thousands(flood.requestsPerHour)} requests an hour, **${dollars(flood.perHour)} an hour** (${dollars(flood.perHour * 24)} a day) at ${flood.memoryMb} MB, no cycle started, nothing written.`,
  ].join('\n');
}
