// Benchmark 4: the Lambda bundle, built by esbuild with the stack's NodejsFunction settings (ESM, minified,
// node24 target, external source map without sources, AWS SDK inside, the createRequire banner), against a
// baseline bundle of only the AWS SDK clients the handler uses: bytes minified and gzipped, and module init
// time (importing the bundle in a fresh Node process with --enable-source-maps, as the stack runs it).
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { build, type Metafile } from 'esbuild';

const run = promisify(execFile);
const BANNER = "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);";
export const INIT_SAMPLES = 20;

export interface BundleFigures {
  name: string;
  minifiedBytes: number;
  gzipBytes: number;
  initMedianMs: number;
  /** Bytes in the output per package (or per lambda/ folder), largest first. */
  contributors: { source: string; bytes: number }[];
}

export interface BundleComparison {
  handler: BundleFigures;
  baseline: BundleFigures;
  sizeRatio: number;
  gzipRatio: number;
  initRatio: number;
  /** What the handler holds beyond the baseline, largest first. */
  extra: { source: string; bytes: number }[];
}

export async function bundle(entry: string, outfile: string): Promise<Metafile> {
  const result = await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    mainFields: ['module', 'main'],
    minify: true,
    sourcemap: 'external',
    sourcesContent: false,
    banner: { js: BANNER },
    metafile: true,
    logLevel: 'error',
  });
  return result.metafile;
}

function contributors(metafile: Metafile): { source: string; bytes: number }[] {
  const output = Object.entries(metafile.outputs).find(([path]) => path.endsWith('.mjs'))![1];
  const bySource = new Map<string, number>();
  for (const [path, { bytesInOutput }] of Object.entries(output.inputs)) {
    const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path)?.[1];
    const source = pkg ?? path.split('/').slice(0, 2).join('/');
    bySource.set(source, (bySource.get(source) ?? 0) + bytesInOutput);
  }
  return [...bySource].map(([source, bytes]) => ({ source, bytes })).sort((a, b) => b.bytes - a.bytes);
}

/** ms from the start of `import()` to its end, in a fresh process. */
async function initTime(file: string): Promise<number> {
  const script = `const t = performance.now(); await import(${JSON.stringify(pathToFileURL(file).href)}); process.stdout.write(String(performance.now() - t));`;
  const { stdout } = await run(process.execPath, ['--enable-source-maps', '--input-type=module', '-e', script], {
    env: { ...process.env, AWS_REGION: 'us-east-1', NODE_NO_WARNINGS: '1' },
  });
  return Number(stdout);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export async function measureBundles(entries = { handler: 'lambda/handler.ts', baseline: 'bench/baseline-handler.ts' }): Promise<BundleComparison> {
  const dir = await mkdtemp(join(tmpdir(), 'stacks-watch-bundle-'));
  try {
    const files = { handler: join(dir, 'handler', 'index.mjs'), baseline: join(dir, 'baseline', 'index.mjs') };
    const metafiles = { handler: await bundle(entries.handler, files.handler), baseline: await bundle(entries.baseline, files.baseline) };
    const samples: Record<'handler' | 'baseline', number[]> = { handler: [], baseline: [] };
    // Interleaved, so that a busy moment of the machine weighs on both alike.
    for (let i = 0; i < INIT_SAMPLES; i += 1) {
      samples.baseline.push(await initTime(files.baseline));
      samples.handler.push(await initTime(files.handler));
    }
    const figures = async (name: 'handler' | 'baseline'): Promise<BundleFigures> => {
      const code = await readFile(files[name]);
      return {
        name,
        minifiedBytes: code.length,
        gzipBytes: gzipSync(code, { level: 9 }).length,
        initMedianMs: median(samples[name]),
        contributors: contributors(metafiles[name]),
      };
    };
    const handler = await figures('handler');
    const baseline = await figures('baseline');
    const inBaseline = new Map(baseline.contributors.map((c) => [c.source, c.bytes]));
    const extra = handler.contributors
      .map(({ source, bytes }) => ({ source, bytes: bytes - (inBaseline.get(source) ?? 0) }))
      .filter((c) => c.bytes > 500)
      .sort((a, b) => b.bytes - a.bytes);
    return {
      handler,
      baseline,
      sizeRatio: handler.minifiedBytes / baseline.minifiedBytes,
      gzipRatio: handler.gzipBytes / baseline.gzipBytes,
      initRatio: handler.initMedianMs / baseline.initMedianMs,
      extra,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
