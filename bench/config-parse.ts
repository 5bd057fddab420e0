// Benchmark: reading a watch config that lists many addresses (an exchange's deposit addresses, say). Each
// address is checked (alphabet, checksum, network, written as the API writes it), so the parse grows with
// the list; it must grow linearly, with a small constant: at most 0.5 s for 100,000 addresses.
import { c32address } from 'c32check';
import { parseWatchConfigText } from '../lambda/config/watch-config';
import { fixed, table, thousands, verdict } from './markdown';

export interface ConfigParseRow {
  addresses: number;
  /** Median of the timed parses, in ms. */
  ms: number;
  bytes: number;
}

const GOAL_MS_PER_100K = 500;
const RUNS = 5;

export function measureConfigParse(counts: readonly number[] = [10_000, 100_000]): ConfigParseRow[] {
  return counts.map((count) => {
    const addresses = Array.from({ length: count }, (_, i) => c32address(22, i.toString(16).padStart(40, '0')));
    const text = JSON.stringify({ network: 'mainnet', addresses }, null, 2);
    const times: number[] = [];
    for (let run = 0; run <= RUNS; run++) {
      const started = performance.now();
      const result = parseWatchConfigText(text, 'watch.json');
      if (!result.ok) throw new Error(`the generated config is invalid: ${result.problems[0]?.message}`);
      // The first run warms the JIT, as a long-running process would have; a cold start pays it once.
      if (run > 0) times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    return { addresses: count, ms: times[Math.floor(times.length / 2)]!, bytes: Buffer.byteLength(text) };
  });
}

export function configParseSection(rows: ConfigParseRow[]): string {
  return [
    '### 9. Reading a watch config of many addresses',
    '',
    `A config listing only \`addresses\`, parsed and validated (median of ${RUNS} parses after one to warm up). ` +
      `Goal: linear, at most ${GOAL_MS_PER_100K} ms for 100,000 addresses.`,
    '',
    table(
      ['addresses', 'file size', 'parse time', 'µs per address', 'goal'],
      rows.map((r) => [
        thousands(r.addresses),
        `${fixed(r.bytes / 1024 / 1024, 1)} MiB`,
        `${fixed(r.ms, 0)} ms`,
        fixed((r.ms * 1000) / r.addresses, 1),
        verdict(r.ms <= (GOAL_MS_PER_100K * r.addresses) / 100_000),
      ]),
    ),
  ].join('\n');
}
