// Reading per subject, beyond table 1d: the loop's figures, the designs priced for 20 subjects, the point
// where the fetch plan switches to the block scan (subjects × runs a minute), and a free-tier watcher of 20
// subjects over an hour of simulated chain. Every deprecated route answers 410 throughout.
import { blockScanCost, perSubjectCost } from '../lambda/core/follow/fetch-plan';
import { compileWatchRules } from '../lambda/core/rules/rule-lists';
import { fakeAddress } from '../test/support/fake-hiro';
import { emptyWatchConfig } from '../lambda/config/watch-config';
import { fixed, percent, table, verdict } from './markdown';
import type { Workload } from './mainnet-workload';
import { BLOCKS_PER_MINUTE, measureCadence, type CadenceResult } from './subject-cadence';
import { measureSubjectRoutes, subjectGoal, subjectRoutesSection, subjectsConfig, SUBJECT_WAYS, type SubjectRoutesRow } from './subject-routes';
import { countSubjectDesigns, type SubjectDesigns } from './subject-designs';

export const FREE_TIER_RPM = 50;
const LOOP_SECONDS = 8;
const DESIGN_MINUTES = 30;

export interface SubjectBench {
  rows: SubjectRoutesRow[];
  designs: CadenceResult[];
  /** The designs counted from the chain over the same 30 minutes: the floor, quiet subjects, transaction lists. */
  counted: SubjectDesigns;
  freeTier: CadenceResult[];
}

function loopRow(result: CadenceResult): SubjectRoutesRow {
  const { subjects, way } = result.options;
  return {
    mode: `loop, a turn every ${result.options.everySeconds} s`,
    subjects,
    way,
    read: result.read,
    blocks: result.blocks,
    requests: result.requests,
    perBlock: result.perBlock,
    goal: subjectGoal(way, subjects),
    byRoute: result.byRoute,
  };
}

export async function measureSubjectBench(workload: Workload, progress: (message: string) => void): Promise<SubjectBench> {
  progress('1d. requests per block per subject with deprecated routes retired');
  const rows = await measureSubjectRoutes(workload);
  progress('1d. the same in the loop');
  for (const subjects of [20, 2]) {
    for (const way of SUBJECT_WAYS) rows.push(loopRow(await measureCadence(workload, { subjects, way, everySeconds: LOOP_SECONDS, minutes: 20 })));
  }
  progress('1e. designs priced for 20 subjects');
  const designs: CadenceResult[] = [];
  for (const [way, everySeconds] of [
    ['per-subject', 60],
    ['per-subject', 120],
    ['block-scan', 60],
  ] as const) {
    designs.push(await measureCadence(workload, { subjects: 20, way, everySeconds, minutes: DESIGN_MINUTES }));
  }
  const config = subjectsConfig(workload, 20, 'latest');
  const subjects = { addresses: config.addresses, contracts: config.contractLogs.map((rule) => rule.contractId) };
  // The blocks the 30-minute runs above covered: the first is the warm-up run's.
  const counted = countSubjectDesigns(workload.blocks.slice(1, 1 + DESIGN_MINUTES * BLOCKS_PER_MINUTE), subjects, BLOCKS_PER_MINUTE);
  progress('1g. a free-tier watcher of 20 subjects over an hour');
  const freeTier: CadenceResult[] = [];
  for (const way of ['per-subject', 'block-scan'] as const) {
    freeTier.push(await measureCadence(workload, { subjects: 20, way, everySeconds: 60, minutes: 60, requestsPerMinute: FREE_TIER_RPM }));
  }
  return { rows, designs, counted, freeTier };
}

function designName(result: CadenceResult): string {
  const every = result.options.everySeconds === 60 ? 'a run every minute' : `a run every ${result.options.everySeconds / 60} minutes`;
  return `${result.options.way === 'per-subject' ? 'per subject' : 'block scan'}, ${every}`;
}

/** What a design gives up against reading every subject every run, in chain order. */
function givesUp(result: CadenceResult): string {
  return result.options.everySeconds === 60 ? 'nothing' : 'a minute more on every alert';
}

/** The designs counted from the chain (subject-designs.ts), not run through the watcher. */
function countedRows({ floor, quiet, txList }: SubjectDesigns): string[][] {
  const perBlock = (counts: { requests: number; blocks: number }) => counts.requests / counts.blocks;
  const perMinute = (counts: { requests: number; runs: number }) => fixed(counts.requests / counts.runs, 1);
  const row = (name: string, counts: SubjectDesigns['floor'], wait: string, gives: string) => [
    `${name} (counted from the chain)`,
    fixed(perBlock(counts), 2),
    perMinute(counts),
    wait,
    '',
    `${verdict(perBlock(counts) <= 3)} ≤ 3.0`,
    gives,
  ];
  return [
    row('the least any exact reader pays, a run every minute', floor, '60 s', 'nothing: a bound, not a design'),
    row(
      `per subject, a subject quiet for ${quiet.quietAfterRuns} reads read every other run`,
      quiet,
      '60 s; 120 s for a quiet subject',
      `${quiet.lateSubjectRuns} of ${quiet.activeSubjectRuns} subjects' runs with news alerted a run late, after later blocks (windows, balances and retractions would see blocks out of chain order)`,
    ),
    row(
      "the blocks' transaction lists pick the subjects to read",
      txList,
      '60 s',
      `misses ${txList.missed} of ${txList.items} prints and STX arrivals (${percent(txList.missed / txList.items)}): payouts from contracts, prints reached through another contract`,
    ),
  ];
}

function designsSection(bench: SubjectBench): string {
  const loop = bench.rows.find((row) => row.subjects === 20 && row.way === 'per-subject' && row.mode.startsWith('loop'));
  const floor = (everySeconds: number) => (1 + 20) / ((BLOCKS_PER_MINUTE * everySeconds) / 60);
  const rows = bench.designs.map((r) => [
    designName(r),
    fixed(r.perBlock, 2),
    fixed(r.requestsPerMinute, 1),
    `${r.options.everySeconds} s`,
    r.options.way === 'per-subject' ? fixed(floor(r.options.everySeconds), 2) : '',
    r.options.way === 'per-subject' ? `${verdict(r.perBlock <= 3)} ≤ 3.0` : '',
    givesUp(r),
  ]);
  if (loop)
    rows.push([
      `per subject, ${loop.mode}`,
      fixed(loop.perBlock, 2),
      '',
      `${LOOP_SECONDS} s`,
      fixed((1 + 20) / 1, 2),
      `${verdict(loop.perBlock <= 3)} ≤ 3.0`,
      'nothing',
    ]);
  rows.push(...countedRows(bench.counted));
  return [
    '### 1e. Reading 20 subjects: the designs priced',
    '',
    "The same chain and 20 subjects (14 addresses, 6 contracts' logs), 7 blocks a minute, simulated time, a new client a run in a warm container, 30 minutes. " +
      'Floor: one request for the header chain (the tip comes with it) and one per subject each run, nothing else. A read of every subject costs ' +
      '21 requests whatever the blocks it covers, so the cost a block falls only with more blocks a run: a run every 2 minutes meets 3.0 and makes an alert wait up to ' +
      'a minute longer; the loop pays the 21 for every block. ' +
      'The rows "counted from the chain" are designs the watcher does not implement, counted over the same blocks (bench/subject-designs.ts): ' +
      "the least any exact reader pays adds to the floor what this chain's news costs, a batch lookup a run with new prints (log items name no block) " +
      "and an events read per contract call that paid STX to a watched address (no route gives several transactions' events), so 3.0 a block is out of reach for every " +
      'exact design that reads each subject each minute; the two designs under it stay under 3.0 by giving up what the last column says. ' +
      "Not counted here: Hiro's Chainhooks 2.0 pushes matches and needs no read at all, but is a hosted beta billed in its own credits (docs/latency.md), and an API key " +
      'raises the limit tenfold without changing a request.',
    '',
    table(['design', 'requests / block', 'requests / minute', "a block's alerts wait at most about", 'floor / block', 'goal', 'gives up'], rows),
  ].join('\n');
}

/** Fewest subjects (7 addresses to 3 contracts) for which the plan picks the block scan, with `blocks` a run. */
function switchPoint(blocks: number, retired: boolean): number {
  const rules = compileWatchRules({ ...emptyWatchConfig('mainnet'), addresses: [fakeAddress('switch')] });
  const scan = blockScanCost(blocks, rules, retired);
  for (let subjects = 1; subjects <= 2_000; subjects += 1) {
    const contracts = Math.floor((subjects * 3) / 10);
    const principals = Array.from({ length: subjects - contracts }, (_, i) => `p${i}`);
    if (perSubjectCost(blocks, { contracts: Array.from({ length: contracts }, (_, i) => `c${i}`), principals }) >= scan) return subjects;
  }
  return Number.POSITIVE_INFINITY;
}

const subjectCount = (count: number) => `${count} subject${count === 1 ? '' : 's'}`;

function switchSection(): string {
  const cadences: [string, number][] = [
    ['a run every 2 minutes', 0.5],
    ['a run every minute', 1],
    ['a run every 30 s', 2],
    ['a run every 15 s', 4],
    [`the loop, a turn every ${LOOP_SECONDS} s`, 60 / LOOP_SECONDS],
  ];
  return [
    '### 1f. Where the fetch plan switches to the block scan',
    '',
    "The plan's own estimates (core/follow/fetch-plan.ts, mainnet's pace: 7 blocks a minute, 26.7 transactions and 15 with events a block, 7 addresses to every 3 contracts): " +
      'the fewest subjects for which the block scan costs no more than reading per subject, for the blocks a run covers. A turn that finds no new block costs one request either way.',
    '',
    table(
      ['runs a minute', 'blocks a run', 'while /tx/multiple answers', 'once it answers 410'],
      cadences.map(([name, runs]) => {
        const blocks = Math.max(1, Math.round(BLOCKS_PER_MINUTE / runs));
        return [`${name} (${fixed(runs, 1)})`, String(blocks), subjectCount(switchPoint(blocks, false)), subjectCount(switchPoint(blocks, true))];
      }),
    ),
  ].join('\n');
}

function freeTierSection(results: CadenceResult[]): string {
  const minutes = [1, 10, 20, 30, 40, 50, 60];
  const header = ['read', 'requests / minute', ...minutes.map((m) => `lag at ${m} min`), 'goal'];
  return [
    `### 1g. A free-tier watcher of 20 subjects over an hour (${FREE_TIER_RPM} requests a minute, 410 path)`,
    '',
    `20 subjects, a run every minute, the client paced at ${FREE_TIER_RPM} requests a minute, 7 blocks a minute, 60 minutes of simulated chain (the clock moves through ` +
      "the client's waits; nothing waits in real time). Lag: blocks between the tip and the cursor after each minute's run. Goal: flat, not growing.",
    '',
    table(
      header,
      results.map((r) => {
        const lags = minutes.map((m) => r.lagByMinute[m - 1] ?? NaN);
        const flat = Math.max(...r.lagByMinute.slice(10)) <= Math.max(BLOCKS_PER_MINUTE, r.lagByMinute[9] ?? 0);
        return [
          r.options.way,
          fixed(r.requestsPerMinute, 1),
          ...lags.map((lag) => `${lag} blocks`),
          r.options.way === 'per-subject' ? `${verdict(flat)} flat` : flat ? 'flat' : 'growing',
        ];
      }),
    ),
  ].join('\n');
}

export function subjectBenchSections(bench: SubjectBench): string {
  return [subjectRoutesSection(bench.rows), designsSection(bench), switchSection(), freeTierSection(bench.freeTier)].join('\n\n');
}
