// The cost tables of `npm run bench` (bench/run.ts): the cycles measured once (table 5), each billed stack
// priced from its synthesized template with them (5b, with the latency floor and the Step Functions rows),
// the loop's clock designs side by side (5e), and what the live watch config costs a month in S3 (9b).
import { measureAlertLatency, type LatencyMode } from './alert-latency';
import type { ConfigStoreFigures } from './config-store-read';
import { DEFAULT_CYCLE_OPTIONS, measureCycleCosts, type CycleCost, type CycleCosts } from './cycle-cost';
import { latencyFloor } from './latency-floor';
import { clockRows, clocksSection, floodBill } from './loop-clocks';
import type { Workload } from './mainnet-workload';
import { priceTemplate, synthTemplate, watcherFunction, type MeasuredCycles, type MonthlyBill } from './monthly-bill';
import type { BenchResults } from './report';
import { SHIPPED_SETTINGS, shippedLoopDelaySeconds } from './stack-template';
import { stepFunctionsBill } from './step-functions-bill';
import { DEFAULT_LOOP_DELAY_SECONDS } from '../infra/settings/latency-settings';

type Progress = (message: string) => void;

/** The store's lines of the bill do not depend on the cycles: any figures price them. */
const ZERO_CYCLE: CycleCost = {
  scenario: 'none',
  blocksPerCycle: 0,
  alertsPerCycle: 0,
  requestsPerCycle: 0,
  cpuMs: 0,
  memoryMb: 256,
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

/** The 1-minute schedule at 256 MB, named rather than left to whatever settings file a row starts from. */
const SCHEDULE = { latency: 'schedule', memorySize: 256 };
/** The loop at 256 MB; each row names its delay. */
const LOOP = { latency: 'loop', memorySize: 256 };

/** The default deploy: whatever the shipped deploy.json deploys, held to the goal. */
const SHIPPED: Record<string, unknown> = { settingsFile: SHIPPED_SETTINGS };
const SHIPPED_GOAL_DOLLARS = 1;

/** The stacks the bill prices after the default deploy: [name, CDK context, a pending rule in the watch config]. */
const BILLED_STACKS: [string, Record<string, unknown>, 'pending'?][] = [
  ['1-minute schedule (latency=schedule), no API key', SCHEDULE],
  ['the schedule with an API key', { ...SCHEDULE, createApiKeySecret: true }],
  [
    'the schedule with every option on: dashboard, customer key, detailed metrics',
    { ...SCHEDULE, dashboard: true, encryptionKey: 'customer', detailedMetrics: true },
  ],
  ['loop, a turn every 6 s (latency=loop), no API key', { ...LOOP, loopDelaySeconds: 6 }],
  [`loop, a turn every ${DEFAULT_LOOP_DELAY_SECONDS} s (latency=loop), no API key`, { ...LOOP, loopDelaySeconds: DEFAULT_LOOP_DELAY_SECONDS }],
  ['loop, a turn every 10 s (latency=loop), no API key', { ...LOOP, loopDelaySeconds: 10 }],
  ['the same at 128 MB (memorySize: 128)', { ...LOOP, loopDelaySeconds: 10, memorySize: 128 }],
  ['the schedule at 128 MB (memorySize: 128)', { ...SCHEDULE, memorySize: 128 }],
  [
    `loop, a turn every ${DEFAULT_LOOP_DELAY_SECONDS} s, with a pending rule (new waiting transactions every turn)`,
    { ...LOOP, loopDelaySeconds: DEFAULT_LOOP_DELAY_SECONDS },
    'pending',
  ],
  [
    'the schedule with Slack and PagerDuty (1,000 alerts a month each)',
    { ...SCHEDULE, chat: JSON.stringify([{ slack: 'ssm:/stacks-watch/slack' }, { pagerduty: 'ssm:/stacks-watch/pagerduty' }]) },
  ],
];

/** The default deploy's row name, saying what deploy.json deploys today. */
export function shippedName(bill: MonthlyBill): string {
  const mode = bill.loop ? `loop, a turn every ${bill.loop.delaySeconds} s` : 'the schedule';
  return `the default deploy (deploy.json as shipped: ${mode}, ${bill.perRun.memoryMb} MB)`;
}

/** Table 5e compares the clocks at the shipped deploy.json's turn. */
const CLOCKS_DELAY_SECONDS = shippedLoopDelaySeconds();
/** What the doorbell's one slot is billed for refusing an unsigned ring (assumed, table 5e says so). */
const FLOOD_REFUSAL_MS = 2;

/** The memory of the watcher function a template deploys: its cycles are timed at that share of a vCPU. */
const memoryOf = (template: ReturnType<typeof synthTemplate>) => Number(watcherFunction(template)[1].Properties!.MemorySize);

/** Table 5's cycles at the default memory and at 128 MB (the smallest), measured once for the tables that need them. */
async function tableFiveCycles(prefix: (blocks: number) => Workload, results: BenchResults): Promise<{ cost: CycleCosts; cost128: CycleCosts }> {
  results.cost ??= await measureCycleCosts(prefix(200));
  results.cost128 ??= await measureCycleCosts(prefix(200), { ...DEFAULT_CYCLE_OPTIONS, memoryMb: 128 });
  return { cost: results.cost, cost128: results.cost128 };
}

/** Table 5: a cycle's cost, and each billed stack priced from its synthesized template with measured cycles. */
export async function measureCosts(prefix: (blocks: number) => Workload, results: BenchResults, progress: Progress): Promise<void> {
  progress('5. cost of a cycle, and the monthly bill from the template');
  const { cost, cost128 } = await tableFiveCycles(prefix, results);
  const measured = new Map<string, CycleCosts>([
    [`50/lean/${cost.following.memoryMb}`, cost],
    ['50/lean/128', cost128],
  ]);
  const cyclesFor = async (withApiKey: boolean, detailedMetrics: boolean, pending: boolean, memoryMb: number): Promise<MeasuredCycles> => {
    const requestsPerMinute = withApiKey ? 500 : DEFAULT_CYCLE_OPTIONS.requestsPerMinute;
    const key = `${requestsPerMinute}/${detailedMetrics ? 'detailed' : 'lean'}/${memoryMb}`;
    if (!measured.has(key)) measured.set(key, await measureCycleCosts(prefix(200), { requestsPerMinute, detailedMetrics, memoryMb }));
    const costs = measured.get(key)!;
    return { run: costs.following, poll: pending ? costs.pollPending : costs.poll };
  };
  // Measure first what a template asks for, then price it with those figures.
  const billOf = async (context: Record<string, unknown>, pending: boolean) => {
    const template = synthTemplate(context);
    const env = watcherFunction(template)[1].Properties!.Environment.Variables;
    const cycles = await cyclesFor(env.STACKS_API_KEY_SECRET_ARN !== undefined, env.DETAILED_METRICS === 'true', pending, memoryOf(template));
    return priceTemplate(template, () => cycles);
  };
  const shipped = await billOf(SHIPPED, false);
  results.bills = [{ name: shippedName(shipped), bill: shipped, goalDollars: SHIPPED_GOAL_DOLLARS }];
  for (const [name, context, pending] of BILLED_STACKS) {
    const bill = await billOf(context, pending === 'pending');
    results.bills.push({ name, bill });
    if (pending) continue;
    if (bill.loop?.delaySeconds === DEFAULT_LOOP_DELAY_SECONDS)
      results.floor = latencyFloor(`loop at a turn every ${DEFAULT_LOOP_DELAY_SECONDS} s`, bill, cost128.poll);
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

/** Table 5e: the loop's clock designs side by side, at a turn every CLOCKS_DELAY_SECONDS, with their p90s. */
export async function measureClocks(prefix: (blocks: number) => Workload, results: BenchResults, progress: Progress): Promise<void> {
  progress("5e. the loop's clock designs side by side");
  const at = await tableFiveCycles(prefix, results);
  // Each template priced with the cycles timed at its function's memory.
  const price = (context: Record<string, unknown>, run: (costs: CycleCosts) => CycleCost = (costs) => costs.following) => {
    const template = synthTemplate(context);
    const costs = memoryOf(template) === 128 ? at.cost128 : at.cost;
    return priceTemplate(template, () => ({ run: run(costs), poll: costs.poll }));
  };
  const costs = at.cost;
  const loop = { ...LOOP, loopDelaySeconds: CLOCKS_DELAY_SECONDS };
  const latency = async (mode: LatencyMode) => measureAlertLatency({ mode, apiMinutes: 8, timeScale: 1 / 30 });
  const rows = clockRows({
    loopBill: price(loop),
    loopBill128: price({ ...loop, memorySize: 128 }),
    scheduleBill: price(SCHEDULE),
    idleScheduleBill: price(SCHEDULE, (timed) => timed.idle),
    ring: costs.ring,
    latency: {
      loop: await latency({ kind: 'loop', delaySeconds: CLOCKS_DELAY_SECONDS }),
      noPickup: await latency({ kind: 'loop', delaySeconds: CLOCKS_DELAY_SECONDS, pickupMs: 0 }),
      schedule: await latency({ kind: 'schedule' }),
      doorbell: [await latency({ kind: 'doorbell', pushDelayMs: 2_000 }), await latency({ kind: 'doorbell', pushDelayMs: 5_000 })],
    },
  });
  // The doorbell rings the schedule's function (the loop needs no bell).
  const memoryMb = memoryOf(synthTemplate(SCHEDULE));
  results.clocks = clocksSection(rows, { ...floodBill(memoryMb, FLOOD_REFUSAL_MS, 1_000), refusalMs: FLOOD_REFUSAL_MS, memoryMb });
}

/** Table 9b's monthly figures: the bill's S3 lines for a watch config of the measured size. */
export function configStoreMonthly(figures: ConfigStoreFigures): { gets: number; storage: number } {
  const bill = priceTemplate(synthTemplate(SCHEDULE), () => ({ run: ZERO_CYCLE, poll: ZERO_CYCLE }), figures.bytes).lines;
  const sum = (pattern: RegExp) => bill.filter((line) => pattern.test(line.item)).reduce((total, line) => total + line.dollars, 0);
  return { gets: sum(/^S3 GET/), storage: sum(/^S3 storage/) };
}
