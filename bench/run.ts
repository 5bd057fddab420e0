// `npm run bench`: runs every benchmark, prints the markdown tables and writes them into docs/benchmarks.md
// between its result markers (the notes around them are kept). `npm run bench -- --only requests,bundle`
// runs some of them and only prints (`--only subjects`: tables 1d to 1g, reading per subject).
import { readFile, writeFile } from 'node:fs/promises';
import { measureAlertLatency, type LatencyMode } from './alert-latency';
import { latencyFloor } from './latency-floor';
import { clockRows, clocksSection, floodBill } from './loop-clocks';
import { measureWindowItemCost } from './window-item-cost';
import { DEFAULT_LOOP_DELAY_SECONDS } from '../infra/settings/latency-settings';
import { measureBundles } from './bundle';
import { measureCatchUp } from './catch-up';
import { DEFAULT_CYCLE_OPTIONS, measureCycleCosts, type CycleCosts } from './cycle-cost';
import { measureMemory, type MemoryRun } from './memory';
import { heapLimitMb } from '../infra/settings/deploy-settings';
import { measureBigBlockMemory } from './big-block-memory';
import { priceTemplate, synthTemplate, watcherFunction, type MeasuredCycles } from './monthly-bill';
import { stepFunctionsBill } from './step-functions-bill';
import { measureFollowingTip } from './following-tip';
import { CONFIG_NAMES, mainnetWorkload, type Workload } from './mainnet-workload';
import { measureMatching } from './matching-throughput';
import { renderResults, type BenchResults } from './report';
import { measureRequestsPerBlock } from './requests-per-block';
import { measureRetiredRoutes } from './retired-routes';
import { measureSubjectBench } from './subject-tables';
import { measureStateFile } from './state-file';
import { measureConfigParse } from './config-parse';
import { measureBalanceRequests } from './balance-requests';
import { measureConfigStore } from './config-store-read';
import { measureConfigCeilings } from './config-ceilings';
import type { CycleCost } from './cycle-cost';
import { measureSbtcEmily, sbtcEmilySection } from './sbtc-emily';

/** The store's lines of the bill do not depend on the cycles: any figures price them. */
const ZERO_CYCLE: CycleCost = {
  scenario: 'none',
  blocksPerCycle: 0,
  alertsPerCycle: 0,
  requestsPerCycle: 0,
  durationMs: 0,
  gbSeconds: 0,
  readUnits: 0,
  writeUnits: 0,
  writeUnitsByItem: {},
  snsMessages: 0,
  logBytes: 0,
  quietTurnLogBytes: 0,
  emfBytes: 0,
  metricSeriesPerRun: 0,
  metricSeries: [],
};

const DOC = 'docs/benchmarks.md';
const START = '<!-- bench:results:start -->';
const END = '<!-- bench:results:end -->';
const SEED = 20261122;

/** The stacks the bill prices: [name, CDK context, goal in dollars, a pending rule in the watch config]. */
const BILLED_STACKS: [string, Record<string, unknown>, number?, 'pending'?][] = [
  ['default (1-minute schedule, no API key)', {}, 1],
  ['default with an API key', { createApiKeySecret: true }],
  ['every option on: dashboard, customer key, detailed metrics', { dashboard: true, encryptionKey: 'customer', detailedMetrics: true }],
  ['loop, a turn every 6 s (latency=loop), no API key', { latency: 'loop', loopDelaySeconds: 6 }],
  [`loop, a turn every ${DEFAULT_LOOP_DELAY_SECONDS} s (latency=loop), no API key`, { latency: 'loop' }],
  ['loop, a turn every 10 s (latency=loop), no API key', { latency: 'loop', loopDelaySeconds: 10 }],
  [`loop, a turn every ${DEFAULT_LOOP_DELAY_SECONDS} s, with a pending rule (new waiting transactions every turn)`, { latency: 'loop' }, undefined, 'pending'],
  [
    'default with Slack and PagerDuty (1,000 alerts a month each)',
    { chat: JSON.stringify([{ slack: 'ssm:/stacks-watch/slack' }, { pagerduty: 'ssm:/stacks-watch/pagerduty' }]) },
  ],
];

/** The modes the latency table compares: the schedule, the loop at a few delays. */
const LATENCY_MODES: LatencyMode[] = [
  { kind: 'schedule' },
  { kind: 'loop', delaySeconds: 6 },
  { kind: 'loop', delaySeconds: DEFAULT_LOOP_DELAY_SECONDS },
  { kind: 'loop', delaySeconds: 10 },
  // The pickup is assumed (LOOP_PICKUP_MS): how far the p90 moves if it is slower.
  { kind: 'loop', delaySeconds: DEFAULT_LOOP_DELAY_SECONDS, pickupMs: 1_500 },
  { kind: 'loop', delaySeconds: DEFAULT_LOOP_DELAY_SECONDS, pickupMs: 3_000 },
  // The doorbell with a push source ringing 2 s and 5 s after each block.
  { kind: 'doorbell', pushDelayMs: 2_000 },
  { kind: 'doorbell', pushDelayMs: 5_000 },
];

/** Table 5e compares the clocks at the longest turn whose p90 stays within 10 s (the latency table). */
const CLOCKS_DELAY_SECONDS = 10;
/** What the doorbell's one slot is billed for refusing an unsigned ring (assumed, table 5e says so). */
const FLOOD_REFUSAL_MS = 2;

/** Following the tip: the 1-minute schedule (0) and the loop at its default turn. */
const FOLLOWING_MODES = [0, DEFAULT_LOOP_DELAY_SECONDS];

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

/** Table 5: a cycle's cost, and each billed stack priced from its synthesized template with measured cycles. */
async function measureCosts(prefix: (blocks: number) => Workload, results: BenchResults): Promise<void> {
  progress('5. cost of a cycle, and the monthly bill from the template');
  results.cost = await measureCycleCosts(prefix(200));
  const measured = new Map<string, CycleCosts>([['50/lean', results.cost]]);
  const cyclesFor = async (withApiKey: boolean, detailedMetrics: boolean, pending: boolean): Promise<MeasuredCycles> => {
    const requestsPerMinute = withApiKey ? 500 : DEFAULT_CYCLE_OPTIONS.requestsPerMinute;
    const key = `${requestsPerMinute}/${detailedMetrics ? 'detailed' : 'lean'}`;
    if (!measured.has(key)) measured.set(key, await measureCycleCosts(prefix(200), { requestsPerMinute, detailedMetrics }));
    const costs = measured.get(key)!;
    return { run: costs.following, poll: pending ? costs.pollPending : costs.poll };
  };
  results.bills = [];
  for (const [name, context, goalDollars, pending] of BILLED_STACKS) {
    const template = synthTemplate(context);
    // Measure first what the template asks for, then price it with those figures.
    const env = watcherFunction(template)[1].Properties!.Environment.Variables;
    const cycles = await cyclesFor(env.STACKS_API_KEY_SECRET_ARN !== undefined, env.DETAILED_METRICS === 'true', pending === 'pending');
    const bill = priceTemplate(template, () => cycles);
    results.bills.push({ name, bill, ...(goalDollars !== undefined ? { goalDollars } : {}) });
    if (pending) continue;
    if (bill.loop?.delaySeconds === DEFAULT_LOOP_DELAY_SECONDS) results.floor = latencyFloor(`loop at a turn every ${DEFAULT_LOOP_DELAY_SECONDS} s`, bill);
    // Step Functions as the timer instead of the queue: the same turns, priced from the same model.
    if (bill.loop?.delaySeconds === DEFAULT_LOOP_DELAY_SECONDS) {
      for (const kind of ['standard', 'express'] as const) {
        results.bills.push({
          name: `Step Functions ${kind} as the loop's timer, a turn every ${DEFAULT_LOOP_DELAY_SECONDS} s (priced, not deployable)`,
          bill: stepFunctionsBill(bill, kind),
        });
      }
    }
  }
}

/** Table 10, rendered beside its benchmark and put after the others (report.ts stays within its size). */
async function sbtcTable(): Promise<string> {
  progress('10. Emily (sBTC) requests a run');
  return sbtcEmilySection(await measureSbtcEmily());
}

async function main(): Promise<void> {
  const only = selected(process.argv.slice(2));
  const started = performance.now();
  progress('generating the mainnet-like chain');
  const workload = mainnetWorkload({ seed: SEED, blocks: 1_500 });
  const prefix = (blocks: number) => ({ ...workload, blocks: workload.blocks.slice(0, blocks) });
  const results: BenchResults = {};

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
  if (only.has('cost')) await measureCosts(prefix, results);
  if (only.has('clocks')) await measureClocks(prefix, results);
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
    const bill = priceTemplate(synthTemplate(), () => ({ run: ZERO_CYCLE, poll: ZERO_CYCLE }), figures.bytes).lines;
    const sum = (pattern: RegExp) => bill.filter((line) => pattern.test(line.item)).reduce((total, line) => total + line.dollars, 0);
    results.configStore = { figures, monthly: { gets: sum(/^S3 GET/), storage: sum(/^S3 storage/) } };
  }
  if (only.has('config-ceilings')) {
    progress('9c. the watch config at its ceilings, 128 MB to 1 GB');
    results.configCeilings = measureConfigCeilings();
  }

  const sbtc = only.has('sbtc') ? await sbtcTable() : undefined;
  const markdown = [renderResults(results, { date: new Date().toISOString().slice(0, 10), seconds: (performance.now() - started) / 1000 }), sbtc]
    .filter(Boolean)
    .join('\n\n');
  process.stdout.write(`${markdown}\n`);
  if (only.size === BENCHMARKS.length) {
    await writeResults(markdown);
    progress(`written to ${DOC}`);
  }
}

/** Table 5e: the loop's clock designs side by side, at a turn every CLOCKS_DELAY_SECONDS, with their p90s. */
async function measureClocks(prefix: (blocks: number) => Workload, results: BenchResults): Promise<void> {
  progress("5e. the loop's clock designs side by side");
  const costs = results.cost ?? (await measureCycleCosts(prefix(200)));
  const price = (context: Record<string, unknown>, run = costs.following) => priceTemplate(synthTemplate(context), () => ({ run, poll: costs.poll }));
  const loop = { latency: 'loop', loopDelaySeconds: CLOCKS_DELAY_SECONDS };
  const latency = async (mode: LatencyMode) => measureAlertLatency({ mode, apiMinutes: 8, timeScale: 1 / 30 });
  const rows = clockRows({
    loopBill: price(loop),
    loopBill128: price({ ...loop, memorySize: 128 }),
    scheduleBill: price({}),
    idleScheduleBill: price({}, costs.idle),
    ring: costs.ring,
    latency: {
      loop: await latency({ kind: 'loop', delaySeconds: CLOCKS_DELAY_SECONDS }),
      noPickup: await latency({ kind: 'loop', delaySeconds: CLOCKS_DELAY_SECONDS, pickupMs: 0 }),
      schedule: await latency({ kind: 'schedule' }),
      doorbell: [await latency({ kind: 'doorbell', pushDelayMs: 2_000 }), await latency({ kind: 'doorbell', pushDelayMs: 5_000 })],
    },
  });
  const memoryMb = Number(watcherFunction(synthTemplate())[1].Properties!.MemorySize);
  results.clocks = clocksSection(rows, { ...floodBill(memoryMb, FLOOD_REFUSAL_MS, 1_000), refusalMs: FLOOD_REFUSAL_MS, memoryMb });
}

/** Table 7 as each function of the stack runs (its NODE_OPTIONS and memory), beside Node's defaults and the 128 MB function before its bounds; 7b. */
async function measureMemories(workload: Workload, results: BenchResults): Promise<void> {
  progress('7. memory over a heavy catch-up');
  const asDeployed = (context: Record<string, unknown>, label: string): MemoryRun => {
    const fn = watcherFunction(synthTemplate(context))[1].Properties!;
    return { label, memoryMb: Number(fn.MemorySize), nodeOptions: String(fn.Environment.Variables.NODE_OPTIONS ?? '') };
  };
  results.memory = await measureMemory(workload, [
    { label: 'Node default', memoryMb: null, nodeOptions: '--enable-source-maps' },
    asDeployed({}, "the schedule's function (default)"),
    { label: '128 MB before its bounds (read-ahead up to 64)', memoryMb: null, nodeOptions: `--enable-source-maps --max-old-space-size=${heapLimitMb(128)}` },
    asDeployed({ latency: 'loop' }, "the loop's function (latency=loop)"),
  ]);
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
