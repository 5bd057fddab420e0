// Run in a child process with a function's heap limit (`--max-old-space-size`, as the stack sets it) and
// --expose-gc: builds a watch config at the ceilings of argv[2] MB of function memory (`addresses` or
// `rules`: argv[3]), checks it the way the function does, once (a cold start pays one parse), and prints the
// parse time, the heap the text and the checked config hold, and the process's RSS before and at its peak.
import { c32address } from 'c32check';
import { parseWatchConfigText } from '../lambda/config/watch-config';
import { configCeilings } from '../lambda/core/watch-config/config-ceilings';
import { ownPeakRssMb } from './own-peak-rss';

const memoryMb = Number(process.argv[2] ?? 256);
const kind = process.argv[3] === 'rules' ? 'rules' : 'addresses';
const ceilings = configCeilings(memoryMb);
const gc = (globalThis as { gc?: () => void }).gc!;
const mb = (bytes: number) => bytes / 2 ** 20;
const address = (i: number) => c32address(22, i.toString(16).padStart(40, '0'));

function makeText(): string {
  // Written one entry a line, as an editor or `JSON.stringify(…, null, 2)` leaves it.
  if (kind === 'addresses') return JSON.stringify({ network: 'mainnet', addresses: Array.from({ length: ceilings.addresses }, (_, i) => address(i)) }, null, 2);
  const contractLogs = Array.from({ length: ceilings.rules }, (_, i) => ({
    name: `vault ${i}`,
    contractId: `${address(i)}.vault`,
    where: { amount: { gte: 1_000_000 } },
  }));
  return JSON.stringify({ network: 'mainnet', contractLogs }, null, 2);
}

gc();
const rssBeforeMb = mb(process.memoryUsage().rss);
const empty = process.memoryUsage().heapUsed;
const text = makeText();
gc();
const withText = process.memoryUsage().heapUsed;
const started = performance.now();
const result = parseWatchConfigText(text, 'watch.json', ceilings);
const parseMs = performance.now() - started;
if (!result.ok) throw new Error(`the generated config is refused: ${result.problems[0]?.message}`);
gc();
process.stdout.write(
  JSON.stringify({
    count: kind === 'addresses' ? result.config.addresses.length : result.config.contractLogs.length,
    bytes: Buffer.byteLength(text),
    parseMs,
    textMb: mb(withText - empty),
    configMb: mb(process.memoryUsage().heapUsed - withText),
    rssBeforeMb,
    maxRssMb: ownPeakRssMb(),
  }),
);
