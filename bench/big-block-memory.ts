// Benchmark 7b: the heap a single big block takes to read. A block of 1,000 contract calls whose list pages are
// about 5 MB each (every call carries a 25 KB buffer argument, served as hex and as Clarity text), read by the
// Hiro client bundled as the function bundles it, in a fresh Node process under a V8 old-space limit. The pages
// are folded into the block's transactions as they arrive, so the heap holds the pages in flight and the compact
// block, not every page of the block.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { Cl } from '@stacks/transactions';
import { contractCall, fakeContractId, FakeChain } from '../test/support/fake-hiro';
import { bundle } from './bundle';
import { fixed, table, thousands } from './markdown';
import { startFakeApi } from './watcher-harness';

const run = promisify(execFile);
const TRANSACTIONS = 1_000;
/** Bytes of each call's buffer argument: its hex and its Clarity text make a 50-transaction page about 5 MB. */
const ARGUMENT_BYTES = 25_000;

export interface BigBlockMemoryRow {
  oldSpaceLimitMb: number | null;
  transactions: number;
  pageBytes: number;
  /** null when the read did not complete (the process ran out of heap). */
  peakHeapMb: number | null;
  completed: boolean;
}

const CHILD = `
const mb = (bytes) => bytes / 1024 / 1024;
const { createHiroClient } = await import(process.argv[2]);
let peakHeapMb = 0;
const sampler = setInterval(() => { peakHeapMb = Math.max(peakHeapMb, mb(process.memoryUsage().heapUsed)); }, 2);
const block = await createHiroClient({ baseUrl: process.argv[3], requestsPerMinute: 100000 }).getBlock(Number(process.argv[4]));
clearInterval(sampler);
process.stderr.write('\\n' + JSON.stringify({ peakHeapMb, transactions: block.transactions.length }) + '\\n');
`;

export async function measureBigBlockMemory(oldSpaceLimitsMb: readonly (number | null)[] = [null, 128, 64]): Promise<BigBlockMemoryRow[]> {
  const dir = await mkdtemp(join(tmpdir(), 'stacks-watch-big-block-'));
  const chain = new FakeChain({ seed: 'bench-big-block' });
  const argument = Cl.bufferFromHex('ab'.repeat(ARGUMENT_BYTES));
  const block = chain.mine(Array.from({ length: TRANSACTIONS }, () => contractCall({ contractId: fakeContractId('archive'), args: [argument] })));
  const api = await startFakeApi(chain);
  try {
    const pageBytes = (await (await fetch(`${api.server.url}/extended/v2/blocks/${block.height}/transactions?limit=50&offset=0`)).text()).length;
    const clientFile = join(dir, 'hiro.mjs');
    await bundle('lambda/hiro/index.ts', clientFile);
    const childFile = join(dir, 'child.mjs');
    await writeFile(childFile, CHILD);
    const rows: BigBlockMemoryRow[] = [];
    for (const limit of oldSpaceLimitsMb) {
      const flags = limit === null ? [] : [`--max-old-space-size=${limit}`];
      const row: BigBlockMemoryRow = { oldSpaceLimitMb: limit, transactions: TRANSACTIONS, pageBytes, peakHeapMb: null, completed: false };
      try {
        const { stderr } = await run(process.execPath, [...flags, childFile, pathToFileURL(clientFile).href, api.server.url, String(block.height)], {
          env: { PATH: process.env.PATH, NODE_NO_WARNINGS: '1' },
          maxBuffer: 16 * 1024 * 1024,
        });
        const figures = JSON.parse(stderr.trim().split('\n').at(-1) ?? '{}') as { peakHeapMb: number; transactions: number };
        rows.push({ ...row, peakHeapMb: figures.peakHeapMb, completed: figures.transactions === TRANSACTIONS });
      } catch {
        rows.push(row); // out of heap: the process died
      }
    }
    return rows;
  } finally {
    await api.server.close();
    await rm(dir, { recursive: true, force: true });
  }
}

export function bigBlockMemorySection(rows: readonly BigBlockMemoryRow[]): string {
  const first = rows[0]!;
  return [
    '### 7b. Memory reading one big block',
    '',
    `One block of ${thousands(first.transactions)} contract calls, its list pages ${fixed(first.pageBytes / 1024 / 1024, 1)} MB each (every call with a 25 KB buffer argument), ` +
      'read by the Hiro client bundled as the function bundles it, in a fresh Node process under each V8 old-space limit. Peak heap used is sampled every 2 ms. ' +
      'Goal: the read completes under 64 MB.',
    '',
    table(
      ['V8 old-space limit', 'transactions', 'page size', 'completed', 'peak heap used (sampled)'],
      rows.map((r) => [
        r.oldSpaceLimitMb === null ? 'Node default' : `${r.oldSpaceLimitMb} MB`,
        thousands(r.transactions),
        `${fixed(r.pageBytes / 1024 / 1024, 1)} MB`,
        r.completed ? '✅' : '❌ out of heap',
        r.peakHeapMb === null ? '-' : `${fixed(r.peakHeapMb, 0)} MB`,
      ]),
    ),
  ].join('\n');
}

/** `npx tsx bench/big-block-memory.ts`: this table alone. */
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.stdout.write(`${bigBlockMemorySection(await measureBigBlockMemory())}\n`);
}
