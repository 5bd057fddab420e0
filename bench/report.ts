// The benchmark results as the markdown section of docs/benchmarks.md: one table per benchmark, each with the goal it is held to.
import type { BundleComparison } from './bundle';
import type { CatchUpRow } from './catch-up';
import type { CycleCosts } from './cycle-cost';
import { billSection, costSection, type NamedBill } from './cost-report';
import type { FollowingTipRow } from './following-tip';
import { latencySection, type LatencyRow } from './alert-latency';
import { memorySection, type MemoryFigures } from './memory';
import { fixed, kib, percent, ratio, table, thousands, verdict } from './markdown';
import { matchingSection, type MatchingRow } from './matching-throughput';
import type { RequestsPerBlockRow } from './requests-per-block';
import { retiredRoutesSection, type RetiredRoutesRow } from './retired-routes';
import { subjectBenchSections, type SubjectBench } from './subject-tables';
import { stateFileSection, type StateFileRow } from './state-file';
import { configParseSection, type ConfigParseRow } from './config-parse';
import { balanceRequestsSection, type BalanceRequestsRow } from './balance-requests';
import { configStoreSection, type ConfigStoreFigures } from './config-store-read';
import { configCeilingsSection, type CeilingRow } from './config-ceilings';
import { latencyFloorSection, type LatencyFloor } from './latency-floor';
import { windowItemCostSection, type WindowItemCostRow } from './window-item-cost';
import { READ_COLUMN_NOTE, waysCell } from './fetch-ways';
import { HEADER_CHAIN_REACH } from '../lambda/core/follow/fetch-choice';
import { bigBlockMemorySection, type BigBlockMemoryRow } from './big-block-memory';

export interface BenchResults {
  requests?: RequestsPerBlockRow[];
  retiredRoutes?: RetiredRoutesRow[];
  subjectRoutes?: SubjectBench;
  balances?: BalanceRequestsRow[];
  catchUp?: CatchUpRow[];
  following?: FollowingTipRow[];
  bundle?: BundleComparison;
  cost?: CycleCosts;
  /** The same cycles timed at 128 MB (their CPU at that share of a vCPU). */
  cost128?: CycleCosts;
  bills?: NamedBill[];
  floor?: LatencyFloor;
  clocks?: string; // table 5e, rendered (bench/loop-clocks.ts)
  windowItem?: WindowItemCostRow[];
  memory?: MemoryFigures[];
  bigBlock?: BigBlockMemoryRow[];
  latency?: LatencyRow[];
  matching?: MatchingRow;
  stateFile?: StateFileRow[];
  configParse?: ConfigParseRow[];
  configStore?: { figures: ConfigStoreFigures; monthly: { gets: number; storage: number } };
  configCeilings?: CeilingRow[];
}

export function requestsSection(rows: RequestsPerBlockRow[]): string {
  const first = rows[0]!;
  return [
    `### 1. API requests per scanned block`,
    '',
    `Catching up over ${first.blocks} generated blocks (${thousands(first.transactions)} transactions, ${fixed(first.transactions / first.blocks, 1)} a block) in one run, ` +
      "each config read as the watcher reads it by default (auto: the fetch plan chooses per subject or the block scan for the run's blocks) and by the block scan named. " +
      "Lower bound: the block scan's, every page of every block plus the fewest `/tx/multiple` calls covering every transaction that may carry a watched event, a log or " +
      "an STX or token movement (successful calls and deploys with events, read whenever addresses, transfers or logs are watched), batched across all blocks at the client's URL budget. " +
      'Naive: every page plus one event call per transaction. Goal: at most 1.05 × the lower bound (for a run that reads per subject: no dearer than the best the block scan could do). ' +
      READ_COLUMN_NOTE,
    '',
    table(
      ['config', 'read', 'requests / block', 'lower bound', 'naive', 'measured ÷ bound', 'goal', 'requests by route'],
      rows.map((r) => [
        r.config,
        waysCell(r.read),
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
    `The fake API enforcing the limit in fixed 60 s windows, time-scaled; back-to-back cycles from the chain's first block, ${thousands(rows[0]!.behindAtStart)} behind the tip, read as the watcher reads by default. ` +
      'Ceiling: the limit ÷ the measured requests per block. ' +
      "Best possible: the limit ÷ the block scan's lower bound's requests per block (table 1). Goal: at least 0.9 of the ceiling and at most 1 % of requests answered 429. " +
      `${READ_COLUMN_NOTE} A run further behind the tip than the header chain reaches (${HEADER_CHAIN_REACH} blocks) keeps the block scan whatever the way asked.`,
    '',
    table(
      ['limit', 'config', 'read', 'API minutes', 'blocks / min', 'requests / block', 'ceiling', 'of ceiling', 'best possible', '429s', 'goal'],
      rows.map((r) => [
        `${r.requestsPerMinute} / min`,
        r.config,
        waysCell(r.read),
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
    'Blocks every 2 to 8 s (about 12 a minute), simulated time; a new client per invocation, as the handler builds one. Requests per block count every request, the tip and the contract statuses ("both" watches 8 contracts\' deployment status) included. Share of the 50 requests a minute allowed without a key. ' +
      '"both + pending" adds pending rules (the treasury\'s STX outflows, every call to one watched contract): each block\'s transactions wait in the mempool from the block before, one in 25 is dropped instead of mined; the mempool routes are its whole extra cost (docs/pending.md). ' +
      READ_COLUMN_NOTE,
    '',
    table(
      ['config', 'mode', 'read', 'blocks / min', 'requests / min', 'requests / block', 'share of 50 / min', 'requests by route'],
      rows.map((r) => [
        r.pending ? `${r.config} + pending` : r.config,
        r.loopDelaySeconds === 0 ? '1-minute schedule' : `loop, a turn every ${r.loopDelaySeconds} s`,
        waysCell(r.read),
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
    "esbuild with the stack's settings (ESM, minified, node24 target, external source map without sources, AWS SDK bundled). Init: `import()` of the bundle in a fresh " +
      `Node ${process.version} process with \`--enable-source-maps\` (as the stack sets it), median of 20, interleaved with the baseline. Goal: at most 1.3 × the baseline.`,
    '',
    table(
      ['', 'handler', 'baseline (AWS SDK clients only)', 'ratio', 'goal'],
      [
        ['minified', kib(b.handler.minifiedBytes), kib(b.baseline.minifiedBytes), ratio(b.sizeRatio), verdict(b.sizeRatio <= 1.3)],
        ['gzip', kib(b.handler.gzipBytes), kib(b.baseline.gzipBytes), ratio(b.gzipRatio), verdict(b.gzipRatio <= 1.3)],
        [
          'module init (median)',
          `${fixed(b.handler.initMedianMs, 1)} ms`,
          `${fixed(b.baseline.initMedianMs, 1)} ms`,
          ratio(b.initRatio),
          verdict(b.initRatio <= 1.3),
        ],
      ],
    ),
    '',
    `What the handler holds beyond the baseline (minified bytes): ${b.extra
      .slice(0, 12)
      .map((c) => `${c.source} ${kib(c.bytes)}`)
      .join(', ')}.`,
  ].join('\n');
}

export function renderResults(results: BenchResults, meta: { date: string; seconds: number }): string {
  const parts = [
    `Measured ${meta.date} on ${process.platform}/${process.arch}, Node ${process.version}, in ${fixed(meta.seconds, 0)} s (\`npm run bench\`).`,
    results.requests && requestsSection(results.requests),
    results.retiredRoutes && retiredRoutesSection(results.retiredRoutes),
    results.subjectRoutes && subjectBenchSections(results.subjectRoutes),
    results.balances && balanceRequestsSection(results.balances),
    results.catchUp && catchUpSection(results.catchUp),
    results.following && followingSection(results.following),
    results.bundle && bundleSection(results.bundle),
    results.cost && costSection(results.cost, results.cost128),
    results.bills && billSection(results.bills),
    results.floor && latencyFloorSection(results.floor),
    results.clocks,
    results.windowItem && windowItemCostSection(results.windowItem),
    results.latency && latencySection(results.latency),
    results.matching && matchingSection(results.matching),
    results.memory && memorySection(results.memory),
    results.bigBlock && bigBlockMemorySection(results.bigBlock),
    results.stateFile && stateFileSection(results.stateFile),
    results.configParse && configParseSection(results.configParse),
    results.configStore && configStoreSection(results.configStore.figures, results.configStore.monthly),
    results.configCeilings && configCeilingsSection(results.configCeilings),
  ];
  return parts.filter(Boolean).join('\n\n');
}
