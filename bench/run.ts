// `npm run bench`: runs every benchmark, prints the markdown tables and writes them into docs/benchmarks.md
// between its result markers (the notes around them are kept). `npm run bench -- --only requests,bundle`
// runs some of them and only prints (`--only subjects`: tables 1d to 1g, reading per subject).
import { readFile, writeFile } from 'node:fs/promises';
import { measureAlertLatency, type LatencyMode } from './alert-latency';
import { measureWindowItemCost } from './window-item-cost';
import { measureBundles } from './bundle';
import { measureCatchUp } from './catch-up';
import { measureMemory, measureTurnMemory, type MemoryRun } from './memory';
import { heapLimitMb } from '../infra/settings/deploy-settings';
import { measureBigBlockMemory } from './big-block-memory';
import { synthTemplate, watcherFunction } from './monthly-bill';
import { shippedLoopDelaySeconds } from './stack-template';
import { measureFollowingTip } from './following-tip';
import { CONFIG_NAMES, mainnetWorkload, type Workload } from './mainnet-workload';
import { measureMatching } from './matching-throughput';
import { renderResults, type BenchResults } from './report';
import { measureRequestsPerBlock } from './requests-per-block';
import { measureRetiredRoutes } from './retired-routes';
import { configStoreMonthly, measureClocks, measureCosts } from './run-costs';
import { measureSubjectBench } from './subject-tables';
import { measureStateFile } from './state-file';
import { measureConfigParse } from './config-parse';
import { measureBalanceRequests } from './balance-requests';
import { measureConfigStore } from './config-store-read';
import { measureConfigCeilings } from './config-ceilings';
import { measureSbtcEmily, sbtcEmilySection } from './sbtc-emily';

const DOC = 'docs/benchmarks.md';
const START = '<!-- bench:results:start -->';
const END = '<!-- bench:results:end -->';
const SEED = 20261122;

/** The loop's delay in the shipped deploy.json: the default deploy's turn. */
const SHIPPED_DELAY = shippedLoopDelaySeconds();

/** The modes the latency table compares: the schedule, the loop at a few delays (the shipped one among them). */
const LATENCY_MODES: LatencyMode[] = [
  { kind: 'schedule' },
  ...[...new Set([6, 8, SHIPPED_DELAY, 10])].sort((a, b) => a - b).map((delaySeconds): LatencyMode => ({ kind: 'loop', delaySeconds })),
  // The pickup is assumed (LOOP_PICKUP_MS): how far the p90 moves if it is slower.
  { kind: 'loop', delaySeconds: SHIPPED_DELAY, pickupMs: 1_500 },
  { kind: 'loop', delaySeconds: SHIPPED_DELAY, pickupMs: 3_000 },
  // The doorbell with a push source ringing 2 s and 5 s after each block.
  { kind: 'doorbell', pushDelayMs: 2_000 },
  { kind: 'doorbell', pushDelayMs: 5_000 },
];

/** Following the tip: the 1-minute schedule (0) and the loop at the shipped turn. */
const FOLLOWING_MODES = [0, SHIPPED_DELAY];

const BENCHMARKS = [
  'requests',
  'subjects',
  'balances',
  'catch-up',
  'following',
  'bundle',
  'cost',
  'clocks',
  'latency',
  'matching',
  'memory',
  'state-file',
  'config-parse',
  'config-ceilings',
  'sbtc',
] as const;
type Benchmark = (typeof BENCHMARKS)[number];

function selected(argv: readonly string[]): Set<Benchmark> {
  const at = argv.indexOf('--only');
  if (at < 0) return new Set(BENCHMARKS);
  const names = (argv[at + 1] ?? '').split(',').filter(Boolean);
  const unknown = names.filter((name) => !(BENCHMARKS as readonly string[]).includes(name));
  if (names.length === 0 || unknown.length > 0) {
    throw new Error(`--only takes a comma-separated list of: ${BENCHMARKS.join(', ')}${unknown.length ? ` (unknown: ${unknown.join(', ')})` : ''}`);
  }
  return new Set(names as Benchmark[]);
}

function progress(message: string): void {
  process.stderr.write(`bench: ${message}\n`);
}

/** Table 10, rendered beside its benchmark and put after the others (report.ts stays within its size). */
async function sbtcTable(): Promise<string> {
  progress('10. Emily (sBTC) requests a run');
  return sbtcEmilySection(await measureSbtcEmily());
}

/** What one `npm run bench` measures: the benchmarks selected, the generated chain, the results filled in as they come. */
interface BenchRun {
  only: Set<Benchmark>;
  workload: Workload;
  /** The chain's first `blocks` blocks. */
  prefix: (blocks: number) => Workload;
  results: BenchResults;
}

async function main(): Promise<void> {
  const only = selected(process.argv.slice(2));
  const started = performance.now();
  progress('generating the mainnet-like chain');
  const workload = mainnetWorkload({ seed: SEED, blocks: 1_500 });
  const run: BenchRun = { only, workload, prefix: (blocks) => ({ ...workload, blocks: workload.blocks.slice(0, blocks) }), results: {} };
  await measureReading(run);
  await measureRunning(run);

  const sbtc = only.has('sbtc') ? await sbtcTable() : undefined;
  const markdown = [renderResults(run.results, { date: new Date().toISOString().slice(0, 10), seconds: (performance.now() - started) / 1000 }), sbtc]
    .filter(Boolean)
    .join('\n\n');
  process.stdout.write(`${markdown}\n`);
  if (only.size === BENCHMARKS.length) {
    await writeResults(markdown);
    progress(`written to ${DOC}`);
  }
}

/** Tables 1 to 4: what the watcher asks of the API, how it catches up and follows the tip, and its bundle. */
async function measureReading({ only, workload, prefix, results }: BenchRun): Promise<void> {
  if (only.has('requests')) {
    progress('1. requests per block');
    results.requests = await measureRequestsPerBlock(prefix(600));
    progress('1b. requests per block with deprecated routes retired');
    results.retiredRoutes = await measureRetiredRoutes(prefix(300));
  }
  if (only.has('subjects')) results.subjectRoutes = await measureSubjectBench(workload, progress);
  if (only.has('balances')) {
    progress('1c. requests per run with 10 balance rules');
    results.balances = await measureBalanceRequests(workload);
  }
  if (only.has('catch-up')) {
    progress('2. catch-up at 50 and 500 requests a minute');
    results.catchUp = [
      await measureCatchUp(workload, { config: 'both', requestsPerMinute: 50, apiMinutes: 4, timeScale: 1 / 20 }),
      await measureCatchUp(workload, { config: 'both', requestsPerMinute: 500, apiMinutes: 2, timeScale: 1 / 10 }),
    ];
  }
  if (only.has('following')) {
    progress('3. following the tip');
    results.following = [];
    for (const config of CONFIG_NAMES) {
      for (const loopDelaySeconds of FOLLOWING_MODES) results.following.push(await measureFollowingTip(prefix(400), config, { loopDelaySeconds, minutes: 20 }));
    }
    for (const loopDelaySeconds of FOLLOWING_MODES)
      results.following.push(await measureFollowingTip(prefix(400), 'both', { loopDelaySeconds, minutes: 20, pending: true }));
  }
  if (only.has('bundle')) {
    progress('4. bundle size and init time');
    results.bundle = await measureBundles();
  }
}

/** Tables 5 to 9: what it costs, how soon alerts arrive, how fast it matches, the memory it takes and the state and config it keeps. */
async function measureRunning({ only, workload, prefix, results }: BenchRun): Promise<void> {
  if (only.has('cost')) await measureCosts(prefix, results, progress);
  if (only.has('clocks')) await measureClocks(prefix, results, progress);
  if (only.has('cost')) {
    progress("5d. a window's entries on every write of the cursor item");
    results.windowItem = await measureWindowItemCost();
  }
  if (only.has('latency')) {
    progress('alert latency on the schedule and in the loop');
    results.latency = [];
    for (const mode of LATENCY_MODES) results.latency.push(await measureAlertLatency({ mode, apiMinutes: 8, timeScale: 1 / 30 }));
  }
  if (only.has('memory')) await measureMemories(workload, results);
  if (only.has('matching')) {
    progress('6. matching throughput');
    results.matching = measureMatching(prefix(600));
  }
  if (only.has('state-file')) {
    progress('8. the local state file over 10,000 alerts');
    results.stateFile = [await measureStateFile(10_000)];
  }
  if (only.has('config-parse')) {
    progress('9. reading a watch config of 10,000 and 100,000 addresses');
    results.configParse = measureConfigParse();
    progress('9b. the live watch config of 100,000 addresses through S3');
    const figures = await measureConfigStore();
    results.configStore = { figures, monthly: configStoreMonthly(figures) };
  }
  if (only.has('config-ceilings')) {
    progress('9c. the watch config at its ceilings, 128 MB to 1 GB');
    results.configCeilings = measureConfigCeilings();
  }
}

/** Table 7 as each function of the stack runs (its NODE_OPTIONS and memory), beside Node's defaults and the 128 MB function before its bounds; 7b. */
async function measureMemories(workload: Workload, results: BenchResults): Promise<void> {
  progress('7. memory over a heavy catch-up');
  const asDeployed = (context: Record<string, unknown>, label: string): MemoryRun => {
    const fn = watcherFunction(synthTemplate(context))[1].Properties!;
    const variables = fn.Environment.Variables as Record<string, unknown>;
    // glibc's settings (MALLOC_*) are read at the process's start: the child gets them as the function does.
    const malloc = Object.fromEntries(
      Object.entries(variables)
        .filter(([name]) => name.startsWith('MALLOC_'))
        .map(([name, value]) => [name, String(value)]),
    );
    return {
      label,
      memoryMb: Number(fn.MemorySize),
      nodeOptions: String(variables.NODE_OPTIONS ?? ''),
      ...(Object.keys(malloc).length ? { env: malloc } : {}),
    };
  };
  results.memory = await measureMemory(workload, [
    { label: 'Node default', memoryMb: null, nodeOptions: '--enable-source-maps' },
    asDeployed({}, "the schedule's function (default)"),
    { label: '128 MB before its bounds (read-ahead up to 64)', memoryMb: null, nodeOptions: `--enable-source-maps --max-old-space-size=${heapLimitMb(128)}` },
    asDeployed({ latency: 'loop' }, "the loop's function (latency=loop)"),
    asDeployed({ latency: 'loop', memorySize: 128 }, "the loop's function at 128 MB (memorySize=128)"),
  ]);
  // What a turn following the tip holds: the loop's function at 128 MB finding 2 ordinary blocks.
  const smallest = asDeployed(
    { latency: 'loop', memorySize: 128 },
    "the loop's turns at 128 MB: one cycle of 2 ordinary blocks, as a turn following the tip finds them",
  );
  results.memory.push(await measureTurnMemory(workload, smallest));
  progress('7b. memory reading one big block');
  results.bigBlock = await measureBigBlockMemory();
}

/** Replaces the results between the markers, keeping the notes around them; a new file gets a title. */
async function writeResults(markdown: string): Promise<void> {
  let doc: string;
  try {
    doc = await readFile(DOC, 'utf8');
  } catch {
    doc = `# Benchmarks\n\n${START}\n${END}\n`;
  }
  const from = doc.indexOf(START);
  const to = doc.indexOf(END);
  if (from < 0 || to < from) throw new Error(`${DOC} has lost its ${START} … ${END} markers; put them back around the results`);
  await writeFile(DOC, `${doc.slice(0, from + START.length)}\n${markdown}\n${doc.slice(to)}`);
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
