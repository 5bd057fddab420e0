// Tables 5 and 5b of docs/benchmarks.md: what one cycle costs, and the monthly bill of each billed stack,
// summed by category beside every line of the first.
import { PRICES } from './aws-prices';
import { FEW_SUBJECTS, FOLLOWING_BLOCKS, FOLLOWING_RUN_GOAL_MS, HIRO_LATENCY_MS, type CycleCost, type CycleCosts } from './cycle-cost';
import { cpuStretch, ONE_VCPU_MB } from './event-clock';
import { totalWithAlwaysFreeTiers } from './free-tier';
import { ESM_POLLERS, WATCHDOG_TICK_SECONDS } from './loop-month';
import { dollars, fixed, table, thousands, verdict } from './markdown';
import type { MonthlyBill } from './monthly-bill';
import { READ_COLUMN_NOTE, waysCell } from './fetch-ways';

const SCENARIOS = ['idle', 'following', 'followingFew', 'withAlerts', 'withWindow', 'poll', 'pollPending'] as const;

/** How a cycle's billed time is reckoned, for the notes of table 5 (the model is bench/event-clock.ts's). */
export function billedTimeNote(memories: number[]): string {
  const stretches = memories.map((mb) => `${mb} MB: ${fixed(mb / ONE_VCPU_MB, 3)} of a vCPU, its work ${fixed(cpuStretch(mb), 1)} times as long`).join('; ');
  return (
    "Billed time: the waits on the critical path with each stretch of the function's own CPU work lasting as long as it would at the function's memory. " +
    `Lambda "allocates CPU power in proportion to the amount of memory configured" and "at ${thousands(ONE_VCPU_MB)} MB, a function has the equivalent of one vCPU" ` +
    `(Lambda developer guide, configuring memory): ${stretches}; at ${thousands(ONE_VCPU_MB)} MB and above, one core (the cycle's work runs on one thread). ` +
    "The function's own CPU is this process's (process.cpuUsage(), user + system) over the cycle: the cycle, the SDK clients, parsing, logging; dynalite and the fake API " +
    "run in a child process (bench/stand-ins.ts), their work is not counted (the column of their CPU: what they spent answering the cycle, which was timed as the function's own work when they ran in the same process), and their answers cost the assumed round trip alone. " +
    'The clock runs on that CPU time, stretched: a timer due during stretched work fires with no wait (work and waits overlap as they would)'
  );
}

export function costSection(cost: CycleCosts, cost128?: CycleCosts): string {
  const scenarios = SCENARIOS.map((name) => cost[name]);
  const at128 = (name: (typeof SCENARIOS)[number]): CycleCost | undefined => cost128?.[name];
  const memoryMb = cost.following.memoryMb;
  const a = cost.perAlert;
  const perAlertDollars =
    a.gbSeconds * PRICES.lambdaGbSecond + a.readUnits * PRICES.dynamoReadUnit + a.writeUnits * PRICES.dynamoWriteUnit + a.snsMessages * PRICES.snsPublish;
  return [
    `### 5. Cost of a cycle`,
    '',
    `Real cycles: DynamoDB store on dynalite (capacity units as DynamoDB reports them), SNS publisher on a metered client, Hiro client paced for 50 requests a minute. ` +
      `Duration on an event clock: rate-limit waits and assumed round trips (Hiro ${HIRO_LATENCY_MS} ms, DynamoDB 5 ms, SNS 30 ms) are timers that overlap as they would ` +
      `(requests sent together wait together). ${billedTimeNote(cost128 ? [memoryMb, 128] : [memoryMb])}; GB-s at ${memoryMb} MB. Mean of 5 cycles each. ` +
      "Log bytes and metric series: the real Powertools logger and lean metrics (the stack's default) of an invocation running that cycle. " +
      `The cycles with alerts watch ${cost.subjects} subjects (addresses, contracts' logs, a treasury's outflows); those without watch as many that never appear on the chain, ` +
      `so that the fetch plan reads both the same way, except the one of ${FEW_SUBJECTS} subjects: what a short watch list costs. ${READ_COLUMN_NOTE}`,
    '',
    table(
      [
        'cycle',
        'read',
        'blocks',
        'alerts',
        'API requests',
        'CPU (one core)',
        "stand-ins' CPU, not billed",
        `billed at ${memoryMb} MB`,
        'GB-s',
        ...(cost128 ? ['billed at 128 MB'] : []),
        'read units',
        'write units',
        'SNS publishes',
        'log bytes',
        'metric series',
      ],
      scenarios.map((c, i) => [
        c.scenario,
        c.read ? waysCell(c.read) : '',
        fixed(c.blocksPerCycle, 0),
        fixed(c.alertsPerCycle, 1),
        fixed(c.requestsPerCycle, 1),
        `${fixed(c.cpuMs, 1)} ms`,
        c.standInsCpuMs === undefined ? '' : `${fixed(c.standInsCpuMs, 1)} ms`,
        `${fixed(c.durationMs / 1000, 2)} s`,
        fixed(c.gbSeconds, 3),
        ...(cost128 ? [`${fixed(at128(SCENARIOS[i]!)!.durationMs / 1000, 2)} s`] : []),
        fixed(c.readUnits, 1),
        fixed(c.writeUnits, 1),
        fixed(c.snsMessages, 1),
        thousands(c.logBytes),
        fixed(c.metricSeriesPerRun, 1),
      ]),
    ),
    '',
    `Billed time of a run following the tip (${FOLLOWING_BLOCKS} new blocks, ${HIRO_LATENCY_MS} ms a request) at ${memoryMb} MB: ${fixed(cost.following.durationMs / 1000, 2)} s ` +
      `(${fixed(cost.following.cpuMs, 0)} ms of its own CPU on one core${cost128 ? `; ${fixed(cost128.following.durationMs / 1000, 2)} s at 128 MB` : ''}), ` +
      `${fixed(cost.following.requestsPerCycle / FOLLOWING_BLOCKS, 2)} requests a block with the tip and the contract statuses. ` +
      `Goal: at most ${FOLLOWING_RUN_GOAL_MS / 1000} s ${verdict(cost.following.durationMs <= FOLLOWING_RUN_GOAL_MS)}.`,
    '',
    `Write units a cycle by item: ${scenarios
      .map(
        (c) =>
          `${c.scenario}: ${
            Object.entries(c.writeUnitsByItem)
              .map(([kind, units]) => `${kind} ${fixed(units, 1)}`)
              .join(', ') || 'none'
          }`,
      )
      .join('; ')}.`,
    '',
    `Per alert (the difference between the two ${FOLLOWING_BLOCKS}-block cycles, per alert): ${fixed(a.writeUnits, 2)} write units, ${fixed(a.readUnits, 2)} read units, ` +
      `${fixed(a.snsMessages, 2)} SNS publish, ${fixed(a.gbSeconds, 4)} GB-s: ${dollars(perAlertDollars * 1000)} per 1,000 alerts, plus delivery: ` +
      `email ${dollars(PRICES.snsEmailDelivery * 1000)} per 1,000 per subscriber, SMS about ${dollars(PRICES.snsSmsUs)} each in the US (varies by country).`,
    '',
    `With a window (an hour-long count over the watched deposits, docs/windows.md): ${fixed(cost.windowWriteUnitsPerAlert, 2)} write units per alert against ` +
      `${fixed(a.writeUnits, 2)} without; the window's counts ride on the cursor write, which costs ` +
      `${fixed(cost.withWindow.writeUnitsByItem['cursor and lease'] ?? 0, 1)} units a cycle against ${fixed(cost.withAlerts.writeUnitsByItem['cursor and lease'] ?? 0, 1)}.`,
  ].join('\n');
}

export interface NamedBill {
  name: string;
  bill: MonthlyBill;
  /** The goal this bill is held to, if any. */
  goalDollars?: number;
}

const CATEGORIES: [RegExp, string][] = [
  [/^Lambda/, 'Lambda'],
  [/^EventBridge/, 'Scheduler'],
  [/^DynamoDB/, 'DynamoDB'],
  [/^CloudWatch custom/, 'metrics'],
  [/^CloudWatch Logs/, 'logs'],
  [/^CloudWatch (alarm|dashboard)/, 'alarms, dashboard'],
  [/^KMS/, 'KMS'],
  [/^(SNS|SQS|Secrets)/, 'SNS, SQS, Secrets Manager'],
  [/^Step Functions/, 'Step Functions'],
  [/^S3/, 'config store (S3)'],
];

function byCategory(bill: MonthlyBill): Map<string, number> {
  const sums = new Map<string, number>(CATEGORIES.map(([, name]) => [name, 0]));
  for (const line of bill.lines) {
    const name = CATEGORIES.find(([pattern]) => pattern.test(line.item))?.[1];
    if (!name) throw new Error(`bill line "${line.item}" has no category in the report`);
    sums.set(name, sums.get(name)! + line.dollars);
  }
  return sums;
}

export function billSection(bills: NamedBill[]): string {
  const first = bills[0]!;
  const categories = CATEGORIES.map(([, name]) => name);
  return [
    `### 5b. The monthly bill, from the synthesized template`,
    '',
    `Every resource of the stack's template (\`bench/monthly-bill.ts\` synthesizes it for each setting and fails on a resource type it cannot price), ` +
      `priced at ${PRICES.region} list prices read ${PRICES.readOn}, free tiers not deducted, 30-day month, about ${FOLLOWING_BLOCKS} blocks a minute, no alerts. ` +
      "Per run: billed time (timed at the stack's own memory: its CPU work at that share of a vCPU, table 5's cycles at 256 MB or at 128 MB), capacity units, log bytes (real Powertools output; Lambda's own START, END and REPORT lines, about 350 B, only where the function's system log level lets them through: not at the default's WARN) and metric series as measured in table 5 " +
      '(client paced at 50 requests a minute without a key, 500 with). ' +
      `Prices: Lambda arm64 $${PRICES.lambdaGbSecond}/GB-s, $0.20 per million requests; Scheduler $1.00 per million; DynamoDB $0.625 / $0.125 per million write / read units, ` +
      `$${PRICES.dynamoStorageGb}/GB storage, $${PRICES.dynamoPitrGb}/GB PITR; CloudWatch $${PRICES.cloudWatchMetric} per metric series, $${PRICES.cloudWatchAlarm} per alarm, ` +
      `$${PRICES.cloudWatchDashboard} per dashboard, $${PRICES.cloudWatchLogsGb}/GB logs ingested, $${PRICES.cloudWatchLogsStoredGb}/GB kept; KMS $${PRICES.kmsKey} per key, ` +
      `$0.03 per 10,000 requests; SNS $0.50 per million publishes; SQS $0.40 per million requests; Secrets Manager $${PRICES.secretsManagerSecret} per secret, $0.05 per 10,000 calls. ` +
      "Loop: a turn every `loopDelaySeconds` plus 0.5 s of pickup, each a measured 2-block poll (the chain brings about one block a turn; no contract status check: about one turn a minute makes it, priced as one more 100 ms round trip) logged as a quiet turn (its invocation line at debug, its EMF record once a minute), the schedule's ticks finding the loop alive " +
      `(two reads, the cursor item and the SMS record, ${WATCHDOG_TICK_SECONDS} s billed, no log line; the watch config read by their conditional GET alone, a turn asking only for a version a tick flagged on the cursor item), and the turns queue's requests: each turn the loop's one message received and hidden again (2 requests; a fresh one sent every 13 days), plus the empty 20 s long polls of the event source's ${ESM_POLLERS} idle pollers ` +
      '(Lambda keeps "as few as 2" on a quiet queue; 5 would add about $0.16). Step Functions rows: the same turns with a state machine as the timer instead of the queue (Standard: 2 transitions a turn at $0.025 per 1,000; ' +
      'Express: one execution always waiting, 64 MB, $0.00001667/GB-s, $1 per million executions). Last column: the total in an account whose always-free tiers nothing else uses (Lambda 1 M requests and 400,000 GB-s, SQS and SNS 1 M requests, ' +
      'CloudWatch 10 metrics, 10 alarms, 5 GB of logs, Scheduler 14 M; DynamoDB on-demand and S3 requests have none). Goal: the default deploy (deploy.json as shipped) at most $1.00 a month.',
    '',
    table(
      ['stack', 'billed s / run', 'memory', 'write units / run', 'metric series', 'log bytes / run', ...categories, 'total', 'goal', 'with always-free tiers'],
      bills.map(({ name, bill, goalDollars }) => {
        const sums = byCategory(bill);
        return [
          name,
          fixed(bill.perRun.billedSeconds, 2),
          `${bill.perRun.memoryMb} MB`,
          fixed(bill.perRun.writeUnits, 1),
          bill.perRun.metricSeries.length,
          thousands(bill.perRun.logBytes),
          ...categories.map((c) => dollars(sums.get(c)!)),
          `**${dollars(bill.total)}**`,
          goalDollars === undefined ? '' : `${verdict(bill.total <= goalDollars)} ≤ ${dollars(goalDollars)}`,
          dollars(totalWithAlwaysFreeTiers(bill)),
        ];
      }),
    ),
    '',
    `Every line of the first (${first.name}):`,
    '',
    table(
      ['resource', 'item', 'quantity a month', 'cost'],
      first.bill.lines.map((line) => [line.resource, line.item, line.quantity, dollars(line.dollars)]),
    ),
  ].join('\n');
}
