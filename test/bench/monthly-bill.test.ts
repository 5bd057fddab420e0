// The bill of `npm run bench` prices every resource of the real synthesized template: what it counts must
// follow the template, and a resource it cannot price must stop it rather than be left out.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CycleCost } from '../../bench/cycle-cost';
import { priceTemplate, synthTemplate, type MeasuredCycles, type MeasuredFor, type TemplateJson } from '../../bench/monthly-bill';
import { stepFunctionsBill } from '../../bench/step-functions-bill';
import { LAMBDA_PLATFORM_LOG_BYTES } from '../../bench/run-telemetry';
import { PRICES } from '../../bench/aws-prices';
import { shippedName } from '../../bench/run-costs';
import { eventSourceFunctions, SHIPPED_SETTINGS } from '../../bench/stack-template';

const cycle = (durationMs: number, writeUnits: number): CycleCost => ({
  scenario: 'fixed',
  blocksPerCycle: 12,
  alertsPerCycle: 0,
  requestsPerCycle: 17,
  cpuMs: 0,
  memoryMb: 256,
  durationMs,
  gbSeconds: 0,
  readUnits: 1,
  writeUnits,
  writeUnitsByItem: { 'cursor and lease': writeUnits },
  snsMessages: 0,
  logBytes: 2_000,
  quietTurnLogBytes: 400,
  emfBytes: 300,
  metricSeriesPerRun: 1,
  metricSeries: ['ChainLagSeconds|service=stacks-watch'],
});
const measured: MeasuredCycles = { run: cycle(10_000, 20), poll: cycle(2_000, 5) };
/** The same figures, as if timed at the function's memory. */
const fixedFigures: MeasuredFor = ({ memoryMb }) => ({ run: { ...measured.run, memoryMb }, poll: { ...measured.poll, memoryMb } });
const linesOf = (template: TemplateJson, item: string) => priceTemplate(template, fixedFigures).lines.filter((line) => line.item === item);

let defaults: TemplateJson;
// A whole-stack synth: seconds alone, but past the default hook bound on a 2-core machine running the suite.
const SYNTH_BOUND_MS = 120_000;
beforeAll(() => {
  defaults = synthTemplate();
}, SYNTH_BOUND_MS);

describe('the monthly bill from the synthesized template', () => {
  it("counts the default stack's two alarms, no dashboard and no key, and adds its lines to the total", () => {
    const bill = priceTemplate(defaults, fixedFigures);
    expect(bill.lines.filter((line) => line.item.startsWith('CloudWatch alarm'))).toHaveLength(2);
    expect(bill.lines.some((line) => /dashboard|KMS customer-managed key/.test(line.item))).toBe(false);
    expect(bill.total).toBeCloseTo(
      bill.lines.reduce((sum, line) => sum + line.dollars, 0),
      10,
    );
  });

  it("prices Lambda's own START, END and REPORT lines only where the function logs them (its system log level WARN drops them)", () => {
    const logBytes = (t: TemplateJson) => priceTemplate(t, fixedFigures).perRun.logBytes;
    expect(logBytes(defaults)).toBe(2_000);
    expect(logBytes(synthTemplate({ logLevel: 'WARN' }))).toBe(2_000 + LAMBDA_PLATFORM_LOG_BYTES);
  });

  it("reads the cursor item once a schedule tick, the self-watch's read, on the schedule as in the loop", () => {
    const reads = (t: TemplateJson) => linesOf(t, 'DynamoDB on-demand reads')[0]!.quantity;
    expect(reads(defaults)).toBe('86,400 RRU'); // 43,200 runs of 1 read, and 43,200 tick reads
  });

  it("brings the lag metric's alarm, the parked alerts' alarm and the dashboard with detailed metrics only", () => {
    const detailed = priceTemplate(synthTemplate({ detailedMetrics: true }), fixedFigures);
    expect(detailed.lines.filter((line) => line.item.startsWith('CloudWatch alarm'))).toHaveLength(5);
    expect(detailed.lines.filter((line) => line.item === 'CloudWatch dashboard')).toHaveLength(1);
  });

  it("prices chat channels: one shared alarm, and each notifier at its alerts, not at the watcher's runs", () => {
    const chat = synthTemplate({ chat: JSON.stringify([{ slack: 'ssm:/a' }, { pagerduty: 'ssm:/b' }]) });
    const bill = priceTemplate(chat, fixedFigures);
    const base = priceTemplate(defaults, fixedFigures);
    expect(bill.lines.filter((line) => line.item === 'Lambda requests, chat notifier')).toHaveLength(2);
    expect(bill.lines.filter((line) => line.item.startsWith('CloudWatch alarm'))).toHaveLength(3);
    expect(bill.total - base.total).toBeGreaterThan(0.1);
    expect(bill.total - base.total).toBeLessThan(0.11);
  });

  it('adds $3 for the dashboard and $1 for the customer-managed key when the stack has them', () => {
    const withBoth = synthTemplate({ dashboard: true, encryptionKey: 'customer' });
    expect(linesOf(withBoth, 'CloudWatch dashboard').map((line) => line.dollars)).toEqual([3]);
    expect(linesOf(withBoth, 'KMS customer-managed key').map((line) => line.dollars)).toEqual([1]);
  });

  it("reads runs a month from the schedule and GB-s from the function's memory", () => {
    const base = priceTemplate(defaults, fixedFigures);
    const slower = priceTemplate(synthTemplate({ scheduleMinutes: 5, memorySize: 512 }), fixedFigures);
    expect(base.runs).toBe(43_200);
    expect(slower.runs).toBe(8_640);
    const compute = (bill: typeof base) => bill.lines.find((line) => line.item === 'Lambda compute (arm64)')!.dollars;
    expect(compute(slower) / compute(base)).toBeCloseTo(2 / 5, 6);
  });

  it("refuses cycles timed at another memory than the function's: their CPU was stretched to another share of a vCPU", () => {
    const at256 = () => measured;
    expect(() => priceTemplate(synthTemplate({ memorySize: 128 }), at256)).toThrow(/timed at 256 MB, the function has 128 MB/);
    expect(priceTemplate(synthTemplate({ memorySize: 128 }), fixedFigures).perRun.memoryMb).toBe(128);
  });

  it('prices the API key secret and its reads only when the stack has a key', () => {
    expect(linesOf(defaults, 'Secrets Manager secret')).toEqual([]);
    const withKey = synthTemplate({ createApiKeySecret: true });
    expect(linesOf(withKey, 'Secrets Manager secret').map((line) => line.dollars)).toEqual([0.4]);
    expect(linesOf(withKey, 'Secrets Manager API calls (API key)')).toHaveLength(1);
  });

  it('prices the watch config store: one conditional GET a run, and the versions the lifecycle always keeps, within $0.05 at a 1-minute schedule even for a 4.3 MB list', () => {
    const bucketLines = (bytes: number) => priceTemplate(defaults, fixedFigures, bytes).lines.filter((line) => line.item.startsWith('S3'));
    const [gets, storage] = bucketLines(4_300_000);
    expect(gets).toMatchObject({ quantity: '43,200', dollars: expect.closeTo(43_200 * 0.4e-6, 8) });
    expect(storage!.quantity).toBe('101 versions × 4199.2 KiB');
    expect(gets!.dollars + storage!.dollars).toBeLessThanOrEqual(0.05);
    expect(linesOf(synthTemplate({ scheduleMinutes: 5 }), 'S3 GET requests, the watch config (one conditional GET a run)')[0]!.quantity).toBe('8,640');
  });

  it('fails, naming the type, on a resource it has no price for', () => {
    const template = structuredClone(defaults);
    template.Resources.Extra = { Type: 'AWS::EC2::NatGateway', Properties: {} };
    expect(() => priceTemplate(template, fixedFigures)).toThrow(/does not know the price of AWS::EC2::NatGateway \(Extra\)/);
  });

  it("prices the loop mode: a turn every delay plus the pickup, each a poll, the ticks beside them, and the turns queue's requests (1 a turn) with its empty long polls", () => {
    const loop = priceTemplate(synthTemplate({ latency: 'loop', loopDelaySeconds: 8 }), fixedFigures);
    const turns = (30 * 24 * 3600) / 8.5;
    expect(loop.runs).toBeCloseTo(turns, 6);
    expect(loop.perRun.billedSeconds).toBe(2); // the measured poll, not the scheduled run
    const item = (name: string) => loop.lines.filter((line) => line.item === name);
    expect(item('Lambda requests')[0]!.dollars).toBeCloseTo(turns * 0.2e-6, 10);
    expect(item('Lambda requests, watchdog ticks')[0]!.quantity).toBe('43,200');
    // The turns run in a function of their own, the ticks in the watcher: each priced for its own invocations.
    const resourceOf = (name: string) => item(name)[0]!.resource;
    expect(resourceOf('Lambda requests')).toMatch(/^WatcherTurns/);
    expect(resourceOf('Lambda compute, contract statuses once a minute')).toMatch(/^WatcherTurns/);
    expect(resourceOf('Lambda requests, watchdog ticks')).toMatch(/^WatcherFunction/);
    expect(item('EventBridge Scheduler invocations')[0]!.quantity).toBe('43,200');
    const sqs = item('SQS requests, loop turns');
    expect(sqs).toHaveLength(1);
    const empty = (2 * 30 * 24 * 3600 - turns * 4.25) / 20;
    // A receive a turn, the queue's visibility timeout showing the message again; a fresh message every 13 days.
    expect(sqs[0]!.dollars).toBeCloseTo((turns + 30 / 13 + empty) * 0.4e-6, 10);
    // Most turns are quiet: no info line, the EMF record once a minute.
    expect(loop.perRun.logBytes).toBeCloseTo(400 + (300 * 8.5) / 60, 6);
    // The dead-letter queue stays free while runs succeed.
    expect(item('SQS requests').map((line) => line.dollars)).toEqual([0]);
    // The watch config: asked by the ticks alone, not once a turn.
    expect(item('S3 GET requests, the watch config (by the ticks alone)')[0]!.quantity).toBe('43,200');
    // The ticks read the cursor item and the SMS record, beside the turns' own reads.
    expect(item('DynamoDB on-demand reads')[0]!.dollars).toBeCloseTo((loop.perRun.readUnits * turns + 2 * 43_200) * PRICES.dynamoReadUnit, 10);
  });

  it('prices the turns queue at the SQS requests the measured turn made, when it counted them', () => {
    const template = synthTemplate({ latency: 'loop', loopDelaySeconds: 8 });
    const sqsOf = (perTurn: number | undefined) => {
      const poll = { ...measured.poll, ...(perTurn === undefined ? {} : { sqsRequestsPerTurn: perTurn }) };
      const bill = priceTemplate(template, ({ memoryMb }) => ({ run: { ...measured.run, memoryMb }, poll: { ...poll, memoryMb } }));
      return bill.lines.find((line) => line.item === 'SQS requests, loop turns')!;
    };
    const turns = (30 * 24 * 3600) / 8.5;
    expect(sqsOf(2).dollars - sqsOf(1).dollars).toBeCloseTo(turns * 0.4e-6, 10);
    expect(sqsOf(undefined).dollars).toBe(sqsOf(1).dollars);
    expect(sqsOf(1).quantity).toMatch(/1 a turn/);
  });

  it("prices Step Functions from the loop's model: Standard per transition, Express per duration, instead of the queue", () => {
    const loop = priceTemplate(synthTemplate({ latency: 'loop', loopDelaySeconds: 8 }), fixedFigures);
    const standard = stepFunctionsBill(loop, 'standard');
    const express = stepFunctionsBill(loop, 'express');
    const sqs = loop.lines.find((line) => line.item === 'SQS requests, loop turns')!.dollars;
    expect(standard.lines.some((line) => line.item.startsWith('SQS requests, loop'))).toBe(false);
    expect(standard.total - (loop.total - sqs)).toBeCloseTo(loop.runs * 2 * 0.000025, 8);
    expect(express.total - (loop.total - sqs)).toBeCloseTo(8_640 * 1e-6 + 2_592_000 * (64 / 1024) * 0.00001667, 8);
  });
});

// Table 5b's default deploy is deploy.json as shipped; every other row names its settings over the code's
// defaults, so that a change to deploy.json moves that row and no other.
describe('the stacks the bill prices', () => {
  let shipped: TemplateJson;
  beforeAll(() => {
    shipped = synthTemplate({ settingsFile: SHIPPED_SETTINGS });
  }, SYNTH_BOUND_MS);

  it("start from the code's defaults, not from the shipped deploy.json: the 1-minute schedule at 256 MB", () => {
    expect(eventSourceFunctions(defaults).size).toBe(0);
    const bill = priceTemplate(defaults, fixedFigures);
    expect([bill.runs, bill.perRun.memoryMb]).toEqual([30 * 24 * 60, 256]);
  });

  it('price the default deploy from deploy.json as shipped, at its delay and memory, and name it by them', () => {
    const { loopDelaySeconds, memorySize } = JSON.parse(readFileSync(SHIPPED_SETTINGS, 'utf8')) as { loopDelaySeconds: number; memorySize: number };
    const bill = priceTemplate(shipped, fixedFigures);
    expect([bill.loop?.delaySeconds, bill.perRun.memoryMb]).toEqual([loopDelaySeconds, memorySize]);
    expect(shippedName(bill)).toBe(`the default deploy (deploy.json as shipped: loop, a turn every ${loopDelaySeconds} s, ${memorySize} MB)`);
  });
});
