// The monthly bill of a deployed stack, priced from its synthesized CloudFormation template: every resource
// in it is looked up (bench/bill-lines.ts) and either priced or named free, and a resource type the bill does
// not know fails it, so a new resource can never be left out in silence. Per-run quantities (billed time,
// capacity units, log bytes, metric series, SNS publishes) come from measured cycles (bench/cycle-cost.ts);
// everything else is read from the template: the schedule or the loop, the function's memory, the key, the
// alarms, the dashboard.
import { LOOP_PICKUP_MS } from './alert-latency';
import { priceResource, type AddLine, type PerRun, type PricedMonth } from './bill-lines';
import type { CycleCost } from './cycle-cost';
import { loopMonth, type LoopMonth } from './loop-month';
import { platformLogBytes } from './run-telemetry';
import { configBytesOf, eventSourceFunctions, eventSourceQueues, minutesOf, only, watcherFunction, type TemplateJson } from './stack-template';

export { synthTemplate, watcherFunction, type TemplateJson } from './stack-template';

/** The measured cycles a bill is computed from, for the client's pace and metric mode the template sets. */
export interface MeasuredCycles {
  /** One scheduled run following the tip (12 new blocks, no alert). */
  run: CycleCost;
  /** One loop turn's cycle (2 new blocks, no alert). */
  poll: CycleCost;
}

/** The cycles measured for the template's pace, metrics and memory (the function's share of a vCPU: bench/event-clock.ts). */
export type MeasuredFor = (shape: { withApiKey: boolean; detailedMetrics: boolean; memoryMb: number }) => MeasuredCycles;

export interface BillLine {
  resource: string;
  item: string;
  quantity: string;
  dollars: number;
}

export interface MonthlyBill {
  lines: BillLine[];
  total: number;
  /** Runs a month: from the schedule, or the loop's turns. */
  runs: number;
  /** The loop mode's turns, ticks and queue requests. */
  loop?: LoopMonth;
  /** What a run does, as priced. */
  perRun: PerRun;
}

/** A month of the stack's runs, priced resource by resource. */
export function priceTemplate(template: TemplateJson, measuredFor: MeasuredFor, configBytes = configBytesOf()): MonthlyBill {
  const month = monthOf(template, measuredFor, configBytes);
  const lines: BillLine[] = [];
  const add: AddLine = (resource, item, quantity, dollars) => lines.push({ resource, item, quantity, dollars });
  for (const [id, resource] of Object.entries(template.Resources)) priceResource(id, resource, month, add);
  const total = lines.reduce((sum, line) => sum + line.dollars, 0);
  const { runs, perRun, loop } = month;
  return { lines, total, runs, perRun, ...(loop ? { loop } : {}) };
}

function monthOf(template: TemplateJson, measuredFor: MeasuredFor, configBytes: number): PricedMonth {
  const [, fn] = watcherFunction(template);
  const [, schedule] = only(template, 'AWS::Scheduler::Schedule');
  const env = (fn.Properties?.Environment?.Variables ?? {}) as Record<string, unknown>;
  const memoryMb = Number(fn.Properties?.MemorySize ?? 128);
  const scheduleMinutes = minutesOf(schedule.Properties?.ScheduleExpression);
  const ticks = (30 * 24 * 60) / scheduleMinutes;
  // The loop mode: a turn every LOOP_DELAY_SECONDS (each a measured 2-block poll); the ticks only watch the loop.
  const withApiKey = env.STACKS_API_KEY_SECRET_ARN !== undefined;
  const measured = measuredFor({ withApiKey, detailedMetrics: env.DETAILED_METRICS === 'true', memoryMb });
  // Each turn's SQS requests as the measured turn made them (its receive and its hand-on's own).
  const loop =
    env.LOOP_QUEUE_URL !== undefined ? loopMonth(Number(env.LOOP_DELAY_SECONDS), ticks, LOOP_PICKUP_MS, measured.poll.sqsRequestsPerTurn) : undefined;
  const runs = loop ? loop.turns : ticks;

  // One cycle a run: a scheduled run follows a minute of chain, a loop turn a few seconds of it.
  const perCycle = loop ? measured.poll : measured.run;
  // Its billed time holds its CPU work stretched to the function's share of a vCPU: timed at another memory, it is not this function's.
  if (perCycle.memoryMb !== memoryMb)
    throw new Error(`the ${perCycle.scenario} cycle was timed at ${perCycle.memoryMb} MB, the function has ${memoryMb} MB: measure it at ${memoryMb} MB`);
  const platform = platformLogBytes(fn);
  const perRun = {
    billedSeconds: perCycle.durationMs / 1000,
    memoryMb,
    writeUnits: perCycle.writeUnits,
    readUnits: perCycle.readUnits,
    // A loop turn: most are quiet (caught up, no alert), log no info line and send their EMF once a minute.
    logBytes: platform + (loop ? perCycle.quietTurnLogBytes + (perCycle.emfBytes * (loop.delaySeconds + LOOP_PICKUP_MS / 1000)) / 60 : perCycle.logBytes),
    metricSeries: perCycle.metricSeries,
    snsPublishes: perCycle.snsMessages,
  };
  const tickLogBytes = loop ? ticks * platform : 0;
  const logBytes = perRun.logBytes * runs + tickLogBytes;
  const turns = { turnQueues: eventSourceQueues(template), turnFunctions: eventSourceFunctions(template) };
  return { runs, ticks, scheduleMinutes, loop, perRun, logBytes, withApiKey, ...turns, configBytes };
}
