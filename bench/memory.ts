// The function's memory, sized from measurement: the handler bundled as the stack bundles it runs in a
// fresh Node process (as a Lambda container runs it) through one heavy catch-up invocation, against the
// fake Hiro API, dynalite and a local SNS endpoint served from this process. The child reports its peak
// resident set (getrusage's maxRSS, which catches the peak between samples) after the invocation, and its
// resident set after loading the bundle alone.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { FakeChain } from '../test/support/fake-hiro';
import { startDynalite } from '../test/support/dynalite';
import { bundle } from './bundle';
import { startFakeSns } from './fake-sns';
import { watchConfig, type Workload } from './mainnet-workload';
import { startFakeApi } from './watcher-harness';

const run = promisify(execFile);
const TOPIC_ARN = 'arn:aws:sns:us-east-1:123456789012:stacks-watch-alerts';
/** Three full read-ahead batches (64 blocks each) of the heaviest generated blocks. */
export const HEAVY_BLOCKS = 192;

export interface MemoryFigures {
  /** V8's old-space limit given to the child (--max-old-space-size), or null for Node's default. */
  oldSpaceLimitMb: number | null;
  blocks: number;
  transactions: number;
  alerts: number;
  /** After importing the bundle, before any invocation. */
  loadedRssMb: number;
  /** Peak over the process's life, the invocation included. */
  peakRssMb: number;
  peakHeapMb: number;
}

const CHILD = `
const mb = (bytes) => bytes / 1024 / 1024;
const { handler } = await import(process.argv[2]);
const loadedRssMb = mb(process.memoryUsage().rss);
let peakHeapMb = 0;
const sampler = setInterval(() => { peakHeapMb = Math.max(peakHeapMb, mb(process.memoryUsage().heapUsed)); }, 5);
const context = { awsRequestId: 'memory', functionName: 'stacks-watch', getRemainingTimeInMillis: () => 900000 };
const summary = await handler({}, context);
clearInterval(sampler);
const peakRssMb = process.resourceUsage().maxRSS / 1024;
process.stderr.write('\\n' + JSON.stringify({ loadedRssMb, peakRssMb, peakHeapMb, blocks: summary.blocksScanned, alerts: summary.alertsPublished }) + '\\n');
`;

/** The heaviest blocks of the workload, by the size of their transactions and events. */
function heaviest(workload: Workload, count: number): Workload['blocks'] {
  return [...workload.blocks].sort((a, b) => JSON.stringify(b).length - JSON.stringify(a).length).slice(0, count);
}

/**
 * One heavy catch-up invocation per old-space limit: with Node's default limit the heap grows lazily and the
 * peak shows what the run holds plus garbage not yet collected; under a tight limit V8 collects sooner, and
 * the run either completes (that much memory suffices, at some CPU cost) or fails.
 */
export async function measureMemory(workload: Workload, oldSpaceLimitsMb: readonly (number | null)[] = [null, 96, 64]): Promise<MemoryFigures[]> {
  const rows: MemoryFigures[] = [];
  for (const limit of oldSpaceLimitsMb) rows.push(await measureOnce(workload, limit));
  return rows;
}

/**
 * A loop turn's memory: one invocation that finds this many ordinary blocks (the workload's first ones, as a
 * turn following the tip finds one or two), in a fresh process under the old-space limit the stack would set
 * for a function of twice that memory. Whether the turn fits a smaller function is its peak RSS against it.
 */
export function measureTurnMemory(workload: Workload, oldSpaceLimitMb: number, blocks = 2): Promise<MemoryFigures> {
  return measureOnce(workload, oldSpaceLimitMb, workload.blocks.slice(0, blocks));
}

async function measureOnce(workload: Workload, oldSpaceLimitMb: number | null, chosen?: Workload['blocks']): Promise<MemoryFigures> {
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
    const limit = oldSpaceLimitMb === null ? [] : [`--max-old-space-size=${oldSpaceLimitMb}`];
    const { stderr } = await run(process.execPath, [...limit, '--enable-source-maps', childFile, pathToFileURL(handlerFile).href], {
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
        AWS_ACCESS_KEY_ID: 'bench',
        AWS_SECRET_ACCESS_KEY: 'bench',
      },
    });
    const last = stderr.trim().split('\n').at(-1) ?? '';
    const figures = JSON.parse(last) as Omit<MemoryFigures, 'transactions' | 'oldSpaceLimitMb'>;
    if (figures.blocks !== blocks.length) throw new Error(`the memory run scanned ${figures.blocks} of ${blocks.length} blocks: ${stderr.slice(-2000)}`);
    return { oldSpaceLimitMb, ...figures, transactions: blocks.reduce((sum, txs) => sum + txs.length, 0) };
  } finally {
    await api.server.close();
    await sns.close();
    await dynamo.close();
    await rm(dir, { recursive: true, force: true });
  }
}
