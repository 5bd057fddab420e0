// The benchmark results as the markdown section of docs/benchmarks.md: one table per benchmark, each with
// the goal it is held to.
import { LOG_BYTES_PER_CYCLE, LOG_BYTES_PER_INVOCATION, METRICS_EVERY_RUN, PRICES, RUNS_PER_MONTH } from './aws-prices';
import type { BundleComparison } from './bundle';
import type { CatchUpRow } from './catch-up';
import { FOLLOWING_BLOCKS, FOLLOWING_RUN_GOAL_MS, HIRO_LATENCY_MS, MEMORY_GB, type CycleCosts } from './cycle-cost';
import type { FollowingTipRow } from './following-tip';
import type { LatencyRow } from './alert-latency';
import { dollars, fixed, kib, percent, ratio, table, thousands, verdict } from './markdown';
import type { MatchingRow } from './matching-throughput';
import type { RequestsPerBlockRow } from './requests-per-block';

export interface BenchResults {
  requests?: RequestsPerBlockRow[];
  catchUp?: CatchUpRow[];
  following?: FollowingTipRow[];
  bundle?: BundleComparison;
  cost?: CycleCosts;
  latency?: LatencyRow[];
  matching?: MatchingRow;
}

export function requestsSection(rows: RequestsPerBlockRow[]): string {
  const first = rows[0]!;
  return [
    `### 1. API requests per scanned block`,
    '',
    `Catching up over ${first.blocks} generated blocks (${thousands(first.transactions)} transactions, ${fixed(first.transactions / first.blocks, 1)} a block). ` +
      'Lower bound: every page of every block plus the fewest `/tx/multiple` calls covering every transaction that may carry a log ' +
      '(successful calls and deploys with events), batched across all blocks at the client\'s URL budget. Naive: every page plus one event call per transaction. Goal: at most 1.05 × the lower bound.',
    '',
    table(
      ['config', 'requests / block', 'lower bound', 'naive', 'measured ÷ bound', 'goal', 'requests by route'],
      rows.map((r) => [
        r.config,
        fixed(r.perBlock, 3),
        fixed(r.lowerBoundPerBlock, 3),
        fixed(r.naivePerBlock, 2),
        fixed(r.ratio, 3),
        verdict(r.ratio <= 1.05),
        Object.entries(r.byRoute)
          .map(([route, count]) => `${route.replace('GET ', '')}: ${count}`)
          .join('<br>'),
      ]),
    ),
  ].join('\n');
}

export function catchUpSection(rows: CatchUpRow[]): string {
  return [
    `### 2. Catching up at the rate limit`,
    '',
    'The fake API enforcing the limit in fixed 60 s windows, time-scaled; back-to-back cycles. Ceiling: the limit ÷ the measured requests per block. ' +
      'Best possible: the limit ÷ the lower bound\'s requests per block. Goal: at least 0.9 of the ceiling and at most 1 % of requests answered 429.',
    '',
    table(
      ['limit', 'config', 'API minutes', 'blocks / min', 'requests / block', 'ceiling', 'of ceiling', 'best possible', '429s', 'goal'],
      rows.map((r) => [
        `${r.requestsPerMinute} / min`,
        r.config,
        fixed(r.apiMinutes, 1),
        fixed(r.blocksPerMinute, 1),
        fixed(r.requestsPerBlock, 3),
        fixed(r.ceiling, 1),
        fixed(r.ofCeiling, 3),
        fixed(r.boundCeiling, 1),
        `${r.throttled} of ${r.requests} (${percent(r.throttledShare)})`,
        verdict(r.ofCeiling >= 0.9 && r.throttledShare <= 0.01),
      ]),
    ),
  ].join('\n');
}

export function followingSection(rows: FollowingTipRow[]): string {
  return [
    `### 3. Following the tip without an API key`,
    '',
    'Blocks every 2 to 8 s (about 12 a minute), simulated time; a new client per invocation, as the handler builds one. Requests per block count every request, the tip and the contract statuses ("both" watches 8 contracts\' deployment status) included. Share of the 50 requests a minute allowed without a key.',
    '',
    table(
      ['config', 'mode', 'blocks / min', 'requests / min', 'requests / block', 'share of 50 / min', 'requests by route'],
      rows.map((r) => [
        r.config,
        r.pollSeconds === 0 ? '1-minute schedule' : `polling every ${r.pollSeconds} s`,
        fixed(r.blocksPerMinute, 1),
        fixed(r.requestsPerMinute, 1),
        fixed(r.requestsPerMinute / r.blocksPerMinute, 2),
        percent(r.budgetShare),
        Object.entries(r.byRoute)
          .map(([route, count]) => `${route.replace('GET ', '')}: ${fixed(count / r.minutes, 1)}/min`)
          .join('<br>'),
      ]),
    ),
  ].join('\n');
}

export function bundleSection(b: BundleComparison): string {
  return [
    `### 4. The Lambda bundle`,
    '',
    'esbuild with the stack\'s settings (ESM, minified, node24 target, external source map without sources, AWS SDK bundled). Init: `import()` of the bundle in a fresh ' +
      `Node ${process.version} process with \`--enable-source-maps\` (as the stack sets it), median of 20, interleaved with the baseline. Goal: at most 1.3 × the baseline.`,
    '',
    table(
      ['', 'handler', 'baseline (AWS SDK clients only)', 'ratio', 'goal'],
      [
        ['minified', kib(b.handler.minifiedBytes), kib(b.baseline.minifiedBytes), ratio(b.sizeRatio), verdict(b.sizeRatio <= 1.3)],
        ['gzip', kib(b.handler.gzipBytes), kib(b.baseline.gzipBytes), ratio(b.gzipRatio), verdict(b.gzipRatio <= 1.3)],
        ['module init (median)', `${fixed(b.handler.initMedianMs, 1)} ms`, `${fixed(b.baseline.initMedianMs, 1)} ms`, ratio(b.initRatio), verdict(b.initRatio <= 1.3)],
      ],
    ),
    '',
    `What the handler holds beyond the baseline (minified bytes): ${b.extra
      .slice(0, 12)
      .map((c) => `${c.source} ${kib(c.bytes)}`)
      .join(', ')}.`,
  ].join('\n');
}

function monthly(cost: CycleCosts): { rows: (string | number)[][]; total: number; pollingTotal: number } {
  const f = cost.following;
  const lambdaCompute = f.gbSeconds * RUNS_PER_MONTH * PRICES.lambdaGbSecond;
  const lambdaRequests = RUNS_PER_MONTH * PRICES.lambdaRequest;
  const dynamo = RUNS_PER_MONTH * (f.readUnits * PRICES.dynamoReadUnit + f.writeUnits * PRICES.dynamoWriteUnit);
  const metrics = METRICS_EVERY_RUN * PRICES.cloudWatchMetric;
  const logBytes = (cycles: number) => RUNS_PER_MONTH * (LOG_BYTES_PER_INVOCATION + cycles * LOG_BYTES_PER_CYCLE);
  const logs = (logBytes(1) / 1024 ** 3) * PRICES.cloudWatchLogsGb;
  const total = lambdaCompute + lambdaRequests + dynamo + metrics + logs;
  // Polling keeps the function running the whole minute, and runs six cycles a minute.
  const pollsPerRun = 6;
  const pollingCompute = 60 * MEMORY_GB * RUNS_PER_MONTH * PRICES.lambdaGbSecond;
  const pollingDynamo = RUNS_PER_MONTH * pollsPerRun * (cost.poll.readUnits * PRICES.dynamoReadUnit + cost.poll.writeUnits * PRICES.dynamoWriteUnit);
  const pollingLogs = (logBytes(pollsPerRun) / 1024 ** 3) * PRICES.cloudWatchLogsGb;
  const pollingTotal = pollingCompute + lambdaRequests + pollingDynamo + metrics + pollingLogs;
  const rows = [
    ['Lambda compute', `${thousands(f.gbSeconds * RUNS_PER_MONTH)} GB-s`, dollars(lambdaCompute), `${thousands(60 * MEMORY_GB * RUNS_PER_MONTH)} GB-s`, dollars(pollingCompute)],
    ['Lambda requests', thousands(RUNS_PER_MONTH), dollars(lambdaRequests), thousands(RUNS_PER_MONTH), dollars(lambdaRequests)],
    [
      'DynamoDB',
      `${thousands(f.readUnits * RUNS_PER_MONTH)} RRU, ${thousands(f.writeUnits * RUNS_PER_MONTH)} WRU`,
      dollars(dynamo),
      `${thousands(cost.poll.readUnits * pollsPerRun * RUNS_PER_MONTH)} RRU, ${thousands(cost.poll.writeUnits * pollsPerRun * RUNS_PER_MONTH)} WRU`,
      dollars(pollingDynamo),
    ],
    ['CloudWatch metrics (EMF)', `${METRICS_EVERY_RUN} series`, dollars(metrics), `${METRICS_EVERY_RUN} series`, dollars(metrics)],
    ['CloudWatch Logs ingestion', `~${thousands(logBytes(1) / 1024 ** 2)} MB`, dollars(logs), `~${thousands(logBytes(pollsPerRun) / 1024 ** 2)} MB`, dollars(pollingLogs)],
    ['**total, no alerts**', '', `**${dollars(total)}**`, '', `**${dollars(pollingTotal)}**`],
  ];
  return { rows, total, pollingTotal };
}

export function costSection(cost: CycleCosts): string {
  const scenarios = [cost.idle, cost.following, cost.withAlerts, cost.poll];
  const a = cost.perAlert;
  const perAlertDollars =
    a.gbSeconds * PRICES.lambdaGbSecond + a.readUnits * PRICES.dynamoReadUnit + a.writeUnits * PRICES.dynamoWriteUnit + a.snsMessages * PRICES.snsPublish;
  const { rows } = monthly(cost);
  return [
    `### 5. Cost of a cycle`,
    '',
    `Real cycles: DynamoDB store on dynalite (capacity units as DynamoDB reports them), SNS publisher on a metered client, Hiro client paced for 50 requests a minute. ` +
      `Duration on an event clock: rate-limit waits and assumed round trips (Hiro ${HIRO_LATENCY_MS} ms, DynamoDB 5 ms, SNS 30 ms) are timers that overlap as they would ` +
      `(requests sent together wait together), plus local work as measured; GB-s at ${MEMORY_GB * 1024} MB. Mean of 5 cycles each.`,
    '',
    table(
      ['cycle', 'blocks', 'alerts', 'API requests', 'duration', 'GB-s', 'read units', 'write units', 'SNS publishes'],
      scenarios.map((c) => [
        c.scenario,
        fixed(c.blocksPerCycle, 0),
        fixed(c.alertsPerCycle, 1),
        fixed(c.requestsPerCycle, 1),
        `${fixed(c.durationMs / 1000, 2)} s`,
        fixed(c.gbSeconds, 3),
        fixed(c.readUnits, 1),
        fixed(c.writeUnits, 1),
        fixed(c.snsMessages, 1),
      ]),
    ),
    '',
    `Billed time of a run following the tip (${FOLLOWING_BLOCKS} new blocks, ${HIRO_LATENCY_MS} ms a request): ${fixed(cost.following.durationMs / 1000, 2)} s, ` +
      `${fixed(cost.following.requestsPerCycle / FOLLOWING_BLOCKS, 2)} requests a block with the tip and the contract statuses. ` +
      `Goal: at most ${FOLLOWING_RUN_GOAL_MS / 1000} s ${verdict(cost.following.durationMs <= FOLLOWING_RUN_GOAL_MS)}.`,
    '',
    `Per alert (the difference between the two ${FOLLOWING_BLOCKS}-block cycles, per alert): ${fixed(a.writeUnits, 2)} write units, ${fixed(a.readUnits, 2)} read units, ` +
      `${fixed(a.snsMessages, 2)} SNS publish, ${fixed(a.gbSeconds, 4)} GB-s: ${dollars(perAlertDollars * 1000)} per 1,000 alerts, plus delivery: ` +
      `email ${dollars(PRICES.snsEmailDelivery * 1000)} per 1,000 per subscriber, SMS about ${dollars(PRICES.snsSmsUs)} each in the US (varies by country).`,
    '',
    `Monthly at a 1-minute schedule (${thousands(RUNS_PER_MONTH)} runs, ${FOLLOWING_BLOCKS} blocks a minute, "both" config, no alerts), ${PRICES.region} list prices read ${PRICES.readOn}: ` +
      `Lambda arm64 $${PRICES.lambdaGbSecond}/GB-s and $0.20 per million requests; DynamoDB on-demand $0.625 per million write and $0.125 per million read units; ` +
      `SNS $0.50 per million publishes; CloudWatch $0.30 per metric series a month and $0.50 per GB of logs. Free tiers not deducted; the stack's alarms and dashboard are billed apart.`,
    '',
    table(['item', '1-minute schedule', 'cost', 'polling every 10 s', 'cost'], rows),
  ].join('\n');
}

export function latencySection(rows: LatencyRow[]): string {
  return [
    `### Alert latency: polling inside the invocation`,
    '',
    'From a block being mined to its alert being published. Blocks every 4 to 12 s, one watched transfer each; invocations every 60 s; the fake API enforcing 50 requests a minute; time-scaled. ' +
      'Polling is the stack option `pollSeconds` (environment `POLL_INTERVAL_SECONDS`).',
    '',
    table(
      ['mode', 'API minutes', 'alerts', 'mean', 'p50', 'p90', 'max'],
      rows.map((r) => [
        r.pollSeconds === 0 ? '1-minute schedule' : `polling every ${r.pollSeconds} s`,
        fixed(r.apiMinutes, 0),
        r.alerts,
        `${fixed(r.meanSeconds, 1)} s`,
        `${fixed(r.p50Seconds, 1)} s`,
        `${fixed(r.p90Seconds, 1)} s`,
        `${fixed(r.maxSeconds, 1)} s`,
      ]),
    ),
  ].join('\n');
}

export function matchingSection(m: MatchingRow): string {
  return [
    `### 6. Matching throughput`,
    '',
    table(
      ['watched addresses', 'watched contracts', 'transactions', 'log events', 'alerts', 'transactions / s'],
      [[thousands(m.addresses), thousands(m.contracts), thousands(m.transactions), thousands(m.events), thousands(m.alerts), thousands(m.transactionsPerSecond)]],
    ),
  ].join('\n');
}

export function renderResults(results: BenchResults, meta: { date: string; seconds: number }): string {
  const parts = [
    `Measured ${meta.date} on ${process.platform}/${process.arch}, Node ${process.version}, in ${fixed(meta.seconds, 0)} s (\`npm run bench\`).`,
    results.requests && requestsSection(results.requests),
    results.catchUp && catchUpSection(results.catchUp),
    results.following && followingSection(results.following),
    results.bundle && bundleSection(results.bundle),
    results.cost && costSection(results.cost),
    results.latency && latencySection(results.latency),
    results.matching && matchingSection(results.matching),
  ];
  return parts.filter(Boolean).join('\n\n');
}
