// Benchmark: the watch config at its ceilings (lambda/core/watch-config/config-ceilings.ts), each parsed once
// in a child process under the heap limit of a function of that memory, as a cold start parses it: the
// default 256 MB function at its 250,000 addresses and 10,000 rules, a 1 GB one at its 1,000,000 and 40,000,
// and the smallest (128 MB). A ceiling holds when the parse ends under the heap limit and the process grew
// by less than half the function's memory (the other half is the loaded bundle and a catch-up, table 7).
import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { configCeilings } from '../lambda/core/watch-config/config-ceilings';
import { DEFAULT_MEMORY_MB, heapLimitMb } from '../infra/settings/deploy-settings';
import { fixed, table, thousands, verdict } from './markdown';

export interface CeilingRow {
  memoryMb: number;
  kind: 'addresses' | 'rules';
  count: number;
  bytes: number;
  parseMs: number;
  textMb: number;
  configMb: number;
  rssBeforeMb: number;
  maxRssMb: number;
  /** The machine's 1-minute load average when the parse ended: the parse time is CPU time shared with it. */
  load: number;
}

export const CEILING_MEMORIES = [128, DEFAULT_MEMORY_MB, 1024] as const;

export function measureConfigCeilings(memories: readonly number[] = CEILING_MEMORIES): CeilingRow[] {
  const child = fileURLToPath(new URL('./config-ceilings-child.ts', import.meta.url));
  return memories.flatMap((memoryMb) =>
    (['addresses', 'rules'] as const).map((kind) => {
      const args = ['--expose-gc', `--max-old-space-size=${heapLimitMb(memoryMb)}`, '--import', 'tsx', child, String(memoryMb), kind];
      const output = execFileSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 2 ** 20 });
      return { memoryMb, kind, ...(JSON.parse(output) as Omit<CeilingRow, 'memoryMb' | 'kind' | 'load'>), load: loadavg()[0] ?? 0 };
    }),
  );
}

export function configCeilingsSection(rows: CeilingRow[]): string {
  const sample = configCeilings(DEFAULT_MEMORY_MB);
  return [
    '### 9c. The watch config at its ceilings',
    '',
    'A config at the ceiling of each function memory (`addresses` alone, or `contractLogs` rules with a name and a `where`), written one entry a line, ' +
      "checked once by the function's validator in a process with that function's heap limit (half its memory), as a cold start checks it. " +
      `Ceilings per 256 MB: ${thousands(sample.addresses)} addresses, ${thousands(sample.rules)} rules, ${fixed(sample.bytes / 2 ** 20, 0)} MiB, ${thousands(sample.tokens)} JSON tokens, growing with the memory up to 2 GB; ` +
      "nesting at most 64 deep whatever the memory. RSS includes Node and tsx (about 100 MB before the config); the Lambda's bundle starts smaller. " +
      'Holds: the parse ended under the heap limit and the process grew by less than half the memory. ' +
      'Parse times are one cold parse on this machine at the load shown (on 2 cores); table 9 gives the idle, warmed figure per address.',
    '',
    table(
      [
        'function memory',
        'heap limit',
        'ceiling',
        'file size',
        'parse time (load)',
        'µs per entry',
        'heap held: text',
        'heap held: config',
        'RSS before → peak',
        'holds',
      ],
      rows.map((r) => [
        `${thousands(r.memoryMb)} MB${r.memoryMb === DEFAULT_MEMORY_MB ? ' (default)' : ''}`,
        `${heapLimitMb(r.memoryMb)} MB`,
        `${thousands(r.count)} ${r.kind}`,
        `${fixed(r.bytes / 2 ** 20, 1)} MiB`,
        `${fixed(r.parseMs / 1000, 2)} s (${fixed(r.load, 1)})`,
        fixed((r.parseMs * 1000) / r.count, 1),
        `${fixed(r.textMb, 1)} MB`,
        `${fixed(r.configMb, 1)} MB`,
        `${fixed(r.rssBeforeMb, 0)} → ${fixed(r.maxRssMb, 0)} MB`,
        verdict(r.maxRssMb - r.rssBeforeMb < r.memoryMb / 2),
      ]),
    ),
  ].join('\n');
}
