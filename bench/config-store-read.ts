// Benchmark: the live watch config of 100,000 addresses through the real S3 adapter against the local S3
// stand-in: a quiet run's conditional read (304) and a new version's download and validation, then the
// memory a function holds for it under the stack's heap limit (a child process, bench/config-memory-child.ts).
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { S3Client } from '@aws-sdk/client-s3';
import { c32address } from 'c32check';
import { LiveWatchConfig } from '../lambda/config/live-watch-config';
import { createS3WatchConfigSource } from '../lambda/adapters/aws/s3-watch-config';
import type { WatchConfigMemo } from '../lambda/core/watch-config/watch-config-source';
import { DEFAULT_MEMORY_MB, heapLimitMb } from '../infra/settings/deploy-settings';
import { startFakeS3 } from '../test/support/fake-s3';
import { dollars, table, verdict } from './markdown';

export interface ConfigStoreFigures {
  addresses: number;
  bytes: number;
  /** A new version: GET with its body, then validated (ms, median). */
  newVersionMs: number;
  /** A quiet run: one conditional GET answered 304 (ms, median; on loopback, so S3's own latency comes on top). */
  quietMs: number;
  requestsPerQuietRun: number;
  /** Heap held by the config's text (as downloaded) and by the validated config, after a full collection. */
  textMb: number;
  configMb: number;
  /** Peak RSS of a process that parsed it under the stack's heap limit. */
  maxRssMb: number;
  heapLimitMb: number;
  functionMemoryMb: number;
}

const RUNS = 5;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export async function measureConfigStore(count = 100_000): Promise<ConfigStoreFigures> {
  const s3 = await startFakeS3();
  const client = new S3Client({ endpoint: s3.endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  try {
    const addresses = Array.from({ length: count }, (_, i) => c32address(22, i.toString(16).padStart(40, '0')));
    const source = createS3WatchConfigSource({ client, bucket: 'config', key: 'watch.json' });
    const newVersion: number[] = [];
    const quiet: number[] = [];
    let requestsPerQuietRun = 0;
    let bytes = 0;
    for (let run = 0; run <= RUNS; run++) {
      const text = JSON.stringify({ network: 'mainnet', addresses, confirmations: run % 3 }, null, 2);
      bytes = Buffer.byteLength(text);
      let memo: WatchConfigMemo | null = null;
      const live = new LiveWatchConfig({ source, memo: { readConfigMemo: async () => memo, writeConfigMemo: async (m) => void (memo = m) } });
      const listeners = { operator: { notify: async () => {} }, log: () => {} };
      s3.put('config', 'watch.json', text);
      let started = performance.now();
      await live.current(listeners);
      const tookNew = performance.now() - started;
      const before = s3.requests.length;
      started = performance.now();
      await live.current(listeners);
      const tookQuiet = performance.now() - started;
      requestsPerQuietRun = s3.requests.length - before;
      if (run > 0) {
        newVersion.push(tookNew);
        quiet.push(tookQuiet);
      }
    }
    const child = fileURLToPath(new URL('./config-memory-child.ts', import.meta.url));
    const limit = heapLimitMb(DEFAULT_MEMORY_MB);
    const output = execFileSync(process.execPath, ['--expose-gc', `--max-old-space-size=${limit}`, '--import', 'tsx', child, String(count)], {
      encoding: 'utf8',
    });
    const memory = JSON.parse(output) as { textMb: number; configMb: number; maxRssMb: number };
    return {
      addresses: count,
      bytes,
      newVersionMs: median(newVersion),
      quietMs: median(quiet),
      requestsPerQuietRun,
      textMb: memory.textMb,
      configMb: memory.configMb,
      maxRssMb: memory.maxRssMb,
      heapLimitMb: limit,
      functionMemoryMb: DEFAULT_MEMORY_MB,
    };
  } finally {
    client.destroy();
    await s3.close();
  }
}

export function configStoreSection(f: ConfigStoreFigures, monthlyDollars: { gets: number; storage: number }): string {
  const ms = (value: number) => `${value.toFixed(0)} ms`;
  return [
    '### 9b. The live watch config of 100,000 addresses (S3)',
    '',
    `The same list (${(f.bytes / 2 ** 20).toFixed(1)} MiB) read through the function's S3 adapter and live config (\`lambda/config/live-watch-config.ts\`) from the local S3 stand-in ` +
      `(median of ${RUNS}); memory from a process with the stack's heap limit (--max-old-space-size=${f.heapLimitMb}, a ${f.functionMemoryMb} MB function). ` +
      '`npm run config -- validate` and `push` run the same validation as the parse of table 9. Storage priced for the current version and the 100 noncurrent ones the lifecycle always keeps.',
    '',
    table(
      ['what', 'figure'],
      [
        ['a quiet run: requests to the store', `${f.requestsPerQuietRun} (a conditional GET answered 304, no body)`],
        ['a quiet run: time (loopback; S3 adds its own latency)', ms(f.quietMs)],
        ['a new version: download and validate', ms(f.newVersionMs)],
        ['heap held: the text as downloaded', `${f.textMb.toFixed(1)} MB`],
        ['heap held: the validated config', `${f.configMb.toFixed(1)} MB`],
        ['peak RSS of the parse', `${f.maxRssMb.toFixed(0)} MB of ${f.functionMemoryMb} MB`],
        ['a month at a 1-minute schedule: GET requests', dollars(monthlyDollars.gets)],
        ['a month: storage of 101 versions', dollars(monthlyDollars.storage)],
        [
          'a month: the store in all',
          `**${dollars(monthlyDollars.gets + monthlyDollars.storage)}** ${verdict(monthlyDollars.gets + monthlyDollars.storage <= 0.05)} ≤ $0.05`,
        ],
      ],
    ),
  ].join('\n');
}
