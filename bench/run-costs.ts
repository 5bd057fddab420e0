// The cost tables of `npm run bench` (bench/run.ts): the cycles measured once (table 5), each billed stack
// priced from its synthesized template with them (5b, with the latency floor and the Step Functions rows),
// the loop's clock designs side by side (5e), and what the live watch config costs a month in S3 (9b).
import { measureAlertLatency, type LatencyMode } from './alert-latency';
import type { ConfigStoreFigures } from './config-store-read';
import { DEFAULT_CYCLE_OPTIONS, measureCycleCosts, type CycleCost, type CycleCosts } from './cycle-cost';
import { latencyFloor } from './latency-floor';
import { clockRows, clocksSection, floodBill } from './loop-clocks';
import type { Workload } from './mainnet-workload';
import { priceTemplate, synthTemplate, watcherFunction, type MeasuredCycles } from './monthly-bill';
import type { BenchResults } from './report';
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

/** The stacks the bill prices: [name, CDK context, goal in dollars, a pending rule in the watch config]. */
const BILLED_STACKS: [string, Record<string, unknown>, number?, 'pending'?][] = [
  ['default (1-minute schedule, no API key)', {}, 1],
  ['default with an API key', { createApiKeySecret: true }],
  ['every option on: dashboard, customer key, detailed metrics', { dashboard: true, encryptionKey: 'customer', detailedMetrics: true }],
  ['loop, a turn every 6 s (latency=loop), no API key', { latency: 'loop', loopDelaySeconds: 6 }],
  [`loop, a turn every ${DEFAULT_LOOP_DELAY_SECONDS} s (latency=loop), no API key`, { latency: 'loop' }],
  ['loop, a turn every 10 s (latency=loop), no API key', { latency: 'loop', loopDelaySeconds: 10 }],
  ['the same at 128 MB (memorySize: 128)', { latency: 'loop', loopDelaySeconds: 10, memorySize: 128 }],
  ['default at 128 MB (memorySize: 128)', { memorySize: 128 }],
  [`loop, a turn every ${DEFAULT_LOOP_DELAY_SECONDS} s, with a pending rule (new waiting transactions every turn)`, { latency: 'loop' }, undefined, 'pending'],
  [
    'default with Slack and PagerDuty (1,000 alerts a month each)',
    { chat: JSON.stringify([{ slack: 'ssm:/stacks-watch/slack' }, { pagerduty: 'ssm:/stacks-watch/pagerduty' }]) },
  ],
];

/** Table 5e compares the clocks at the longest turn whose p90 stays within 10 s (the latency table). */
const CLOCKS_DELAY_SECONDS = 10;
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
  results.bills = [];
  for (const [name, context, goalDollars, pending] of BILLED_STACKS) {
    const template = synthTemplate(context);
    // Measure first what the template asks for, then price it with those figures.
    const env = watcherFunction(template)[1].Properties!.Environment.Variables;
    const cycles = await cyclesFor(env.STACKS_API_KEY_SECRET_ARN !== undefined, env.DETAILED_METRICS === 'true', pending === 'pending', memoryOf(template));
    const bill = priceTemplate(template, () => cycles);
    results.bills.push({ name, bill, ...(goalDollars !== undefined ? { goalDollars } : {}) });
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
  const loop = { latency: 'loop', loopDelaySeconds: CLOCKS_DELAY_SECONDS };
  const latency = async (mode: LatencyMode) => measureAlertLatency({ mode, apiMinutes: 8, timeScale: 1 / 30 });
  const rows = clockRows({
    loopBill: price(loop),
    loopBill128: price({ ...loop, memorySize: 128 }),
    scheduleBill: price({}),
    idleScheduleBill: price({}, (timed) => timed.idle),
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

/** Table 9b's monthly figures: the bill's S3 lines for a watch config of the measured size. */
export function configStoreMonthly(figures: ConfigStoreFigures): { gets: number; storage: number } {
  const bill = priceTemplate(synthTemplate(), () => ({ run: ZERO_CYCLE, poll: ZERO_CYCLE }), figures.bytes).lines;
  const sum = (pattern: RegExp) => bill.filter((line) => pattern.test(line.item)).reduce((total, line) => total + line.dollars, 0);
  return { gets: sum(/^S3 GET/), storage: sum(/^S3 storage/) };
}
