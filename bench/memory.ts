// The function's memory, sized from measurement: the handler bundled as the stack bundles it runs in a
// fresh Node process (as a Lambda container runs it) through one heavy catch-up invocation, against the
// fake Hiro API, dynalite and a local SNS endpoint served from this process. The child reports its own peak
// resident set (the kernel's high-water mark, which catches the peak between samples: bench/own-peak-rss.ts) after
// the invocation, and its resident set after loading the bundle alone.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { FakeChain } from '../test/support/fake-hiro';
import { startDynalite } from '../test/support/dynalite';
import { bundle } from './bundle';
import { fixed, ratio, table, thousands, verdict } from './markdown';
import { startFakeSns } from './fake-sns';
import { OWN_PEAK_RSS_MB_SOURCE } from './own-peak-rss';
import { watchConfig, type Workload } from './mainnet-workload';
import { startFakeApi } from './watcher-harness';
import { countWay, DEFAULT_FETCH_WAY, READ_COLUMN_NOTE, waysAsked, waysCell, type WaysTaken } from './fetch-ways';
import type { CycleSummary } from '../lambda/core/cycle-types';

const run = promisify(execFile);
const TOPIC_ARN = 'arn:aws:sns:us-east-1:123456789012:stacks-watch-alerts';
/** Three full read-ahead batches (64 blocks each) of the heaviest generated blocks. */
export const HEAVY_BLOCKS = 192;

/** How the child runs: as a function of `memoryMb` (null: no function, Node's defaults) under `nodeOptions`. */
export interface MemoryRun {
  label: string;
  memoryMb: number | null;
  /** The flags the child runs under, as NODE_OPTIONS gives them to a function. */
  nodeOptions: string;
  /** Other variables of the function's environment that the process reads at its start (glibc's MALLOC_* settings). */
  env?: Record<string, string>;
}

export interface MemoryFigures {
  run: MemoryRun;
  blocks: number;
  transactions: number;
  alerts: number;
  /** After importing the bundle, before any invocation. */
  loadedRssMb: number;
  /** Peak over the process's life, the invocation included. */
  peakRssMb: number;
  /** The invocation's CPU time (user and system, on one core), sampler included: what the memory settings cost. */
  cpuMs: number;
  peakHeapMb: number;
  /** process.memoryUsage() in MB at the sample of highest RSS: where the memory is at the peak. */
  atPeak: { rss: number; heapTotal: number; external: number };
  /** The way the invocation read the chain: the handler's, FETCH_WAY unset. */
  read: WaysTaken;
}

const CHILD = `
import { readFileSync } from 'node:fs';
${OWN_PEAK_RSS_MB_SOURCE}
const mb = (bytes) => bytes / 1024 / 1024;
const { handler } = await import(process.argv[2]);
const loadedRssMb = mb(process.memoryUsage().rss);
let peakHeapMb = 0;
let atPeak = { rss: 0, heapTotal: 0, external: 0 };
const sampler = setInterval(() => {
  const usage = process.memoryUsage();
  peakHeapMb = Math.max(peakHeapMb, mb(usage.heapUsed));
  if (usage.rss > atPeak.rss) atPeak = usage;
}, 5);
const cpuBefore = process.cpuUsage();
const context = { awsRequestId: 'memory', functionName: 'stacks-watch', getRemainingTimeInMillis: () => 900000 };
const summary = await handler({}, context);
clearInterval(sampler);
const cpu = process.cpuUsage(cpuBefore);
const peakRssMb = ownPeakRssMb();
process.stderr.write('\\n' + JSON.stringify({ loadedRssMb, peakRssMb, cpuMs: (cpu.user + cpu.system) / 1000, peakHeapMb, atPeak: { rss: mb(atPeak.rss), heapTotal: mb(atPeak.heapTotal), external: mb(atPeak.external) }, blocks: summary.blocksScanned, alerts: summary.alertsPublished, fetchPlan: summary.fetchPlan }) + '\\n');
`;

/** The heaviest blocks of the workload, by the size of their transactions and events. */
function heaviest(workload: Workload, count: number): Workload['blocks'] {
  return [...workload.blocks].sort((a, b) => JSON.stringify(b).length - JSON.stringify(a).length).slice(0, count);
}

/**
 * One heavy catch-up invocation per run: with Node's defaults the heap grows lazily and the peak shows what the
 * run holds plus garbage not yet collected; as a function (its memory told as Lambda tells it, its NODE_OPTIONS)
 * the run reads and collects as the deployed function would, and either completes or fails.
 */
export async function measureMemory(workload: Workload, runs: readonly MemoryRun[]): Promise<MemoryFigures[]> {
  const rows: MemoryFigures[] = [];
  for (const run of runs) rows.push(await measureOnce(workload, run));
  return rows;
}

/**
 * A loop turn's memory: one invocation that finds this many ordinary blocks (the workload's first ones, as a
 * turn following the tip finds one or two), in a fresh process run as `run`'s function. Whether the turn fits
 * that function is its peak RSS against it.
 */
export function measureTurnMemory(workload: Workload, run: MemoryRun, blocks = 2): Promise<MemoryFigures> {
  return measureOnce(workload, run, workload.blocks.slice(0, blocks));
}

async function measureOnce(workload: Workload, memoryRun: MemoryRun, chosen?: Workload['blocks']): Promise<MemoryFigures> {
  const dir = await mkdtemp(join(tmpdir(), 'stacks-watch-memory-'));
  const dynamo = await startDynalite({ tableName: 'stacks-watch-memory' });
  const sns = await startFakeSns();
  const chain = new FakeChain({ seed: 'bench-memory' });
  const blocks = chosen ?? heaviest(workload, HEAVY_BLOCKS);
  for (const txs of blocks) chain.mine(txs);
  const api = await startFakeApi(chain);
  try {
    const handlerFile = join(dir, 'index.mjs');
    await bundle('lambda/handler.ts', handlerFile);
    const childFile = join(dir, 'child.mjs');
    await writeFile(childFile, CHILD);
    const config = { ...watchConfig('both', workload, 1), maxBlocksPerRun: 500 };
    const flags = memoryRun.nodeOptions.split(' ').filter(Boolean);
    const { stderr } = await run(process.execPath, [...flags, childFile, pathToFileURL(handlerFile).href], {
      maxBuffer: 256 * 1024 * 1024,
      env: {
        PATH: process.env.PATH,
        NODE_NO_WARNINGS: '1',
        TABLE_NAME: dynamo.tableName,
        TOPIC_ARN,
        STACKS_API_URL: api.server.url,
        STACKS_API_RPM: '100000',
        WATCH_CONFIG: JSON.stringify(config),
        POWERTOOLS_LOG_LEVEL: 'WARN',
        AWS_ENDPOINT_URL_DYNAMODB: dynamo.endpoint,
        AWS_ENDPOINT_URL_SNS: sns.endpoint,
        AWS_REGION: 'us-east-1',
        // As Lambda tells a function its memory: the handler bounds its read-ahead by it.
        ...(memoryRun.memoryMb === null ? {} : { AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(memoryRun.memoryMb) }),
        AWS_ACCESS_KEY_ID: 'bench',
        AWS_SECRET_ACCESS_KEY: 'bench',
        ...memoryRun.env,
      },
    });
    const last = stderr.trim().split('\n').at(-1) ?? '';
    const { fetchPlan, ...figures } = JSON.parse(last) as Omit<MemoryFigures, 'transactions' | 'run' | 'read'> & Pick<CycleSummary, 'fetchPlan'>;
    if (figures.blocks !== blocks.length) throw new Error(`the memory run scanned ${figures.blocks} of ${blocks.length} blocks: ${stderr.slice(-2000)}`);
    // The child's environment sets no FETCH_WAY: the handler reads as deployed by default.
    const read = waysAsked(DEFAULT_FETCH_WAY);
    countWay(read, { fetchPlan, blocksScanned: figures.blocks });
    return { run: memoryRun, ...figures, read, transactions: blocks.reduce((sum, txs) => sum + txs.length, 0) };
  } finally {
    await api.server.close();
    await sns.close();
    await dynamo.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/** Table 7: each run's peak, and each function's memory against its own run's peak. */
export function memorySection(rows: readonly MemoryFigures[]): string {
  const first = rows[0]!;
  const functions = rows.filter((r) => r.run.memoryMb !== null);
  return [
    `### 7. Memory over a heavy catch-up`,
    '',
    `The handler bundled as the stack bundles it, in a fresh Node ${process.version} process, through one invocation catching up over the ${first.blocks} heaviest generated blocks ` +
      `(${thousands(first.transactions)} transactions), publishing every alert, against the fake API, dynalite and a local SNS endpoint. ` +
      "Peak RSS is the child's own high-water mark (VmHWM; getrusage's maximum resident set would carry the bench process's, from the fork). Each function row runs under the NODE_OPTIONS the stack gives a function of that memory and is told its memory " +
      "as Lambda tells it (a 128 MB function holds 2 blocks read ahead, block by block or per subject, instead of up to 64 or 120: lambda/runtime/memory-bounds.ts); Node's defaults (sized for this machine, collecting lazily) " +
      "and the 128 MB function as it ran before those bounds are shown beside them; the last row is one cycle of the chain's first 2 ordinary blocks (not the heavy ones), the most a turn following the tip finds. At the peak: process.memoryUsage() at the sample (every 5 ms) of highest RSS, split into V8's heap (committed), " +
      "memory outside it held by JavaScript objects (response Buffers and the like: external) and the rest (Node, the loaded code, native allocations, and 40 to 50 MB of the node binary's own pages). CPU: the invocation's user and system time on one core, the 5 ms sampler included. " +
      "Goal: each function's memory at least 1.3 × its peak (a 128 MB function: a peak of at most 98 MB); a peak under the memory is what a run needs to finish. " +
      READ_COLUMN_NOTE,
    '',
    table(
      [
        'run',
        'NODE_OPTIONS',
        'read',
        'blocks',
        'alerts',
        'RSS after load',
        'peak RSS',
        'peak heap used (sampled)',
        'at the peak: heap / external / rest',
        'CPU',
      ],
      rows.map((r) => [
        r.run.label,
        `\`${Object.entries(r.run.env ?? {})
          .map(([name, value]) => `${name}=${value} `)
          .join('')}${r.run.nodeOptions}\``,
        waysCell(r.read),
        r.blocks,
        thousands(r.alerts),
        `${fixed(r.loadedRssMb, 0)} MB`,
        `${fixed(r.peakRssMb, 0)} MB`,
        `${fixed(r.peakHeapMb, 0)} MB`,
        `${fixed(r.atPeak.heapTotal, 0)} / ${fixed(r.atPeak.external, 0)} / ${fixed(r.atPeak.rss - r.atPeak.heapTotal - r.atPeak.external, 0)} MB`,
        `${thousands(Math.round(r.cpuMs))} ms`,
      ]),
    ),
    '',
    ...functions.map(
      (r) =>
        `- ${r.run.label}: ${r.run.memoryMb} MB, ${ratio(r.run.memoryMb! / r.peakRssMb)} its peak (${fixed(r.peakRssMb, 0)} MB): ${verdict(r.run.memoryMb! >= 1.3 * r.peakRssMb)}${r.run.memoryMb! > r.peakRssMb ? '' : ' (does not fit)'}.`,
    ),
  ].join('\n');
}
