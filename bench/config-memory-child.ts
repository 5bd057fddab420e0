// Run in a child process with the watcher's heap limit (`--max-old-space-size`, as the stack sets it) and
// --expose-gc: parses a config of N addresses (argv[2]) the way the function does and prints the heap the
// text and the parsed config hold, and the process's peak RSS.
import { c32address } from 'c32check';
import { parseWatchConfigText } from '../lambda/config/watch-config';
import { ownPeakRssMb } from './own-peak-rss';

const count = Number(process.argv[2] ?? 100_000);
const gc = (globalThis as { gc?: () => void }).gc!;
const makeText = () =>
  JSON.stringify({ network: 'mainnet', addresses: Array.from({ length: count }, (_, i) => c32address(22, i.toString(16).padStart(40, '0'))) }, null, 2);
gc();
const empty = process.memoryUsage().heapUsed;
// The text as the S3 adapter holds it (a string of the body), then the config validated from it.
const text = makeText();
gc();
const withText = process.memoryUsage().heapUsed;
const result = parseWatchConfigText(text, 'watch.json');
if (!result.ok) throw new Error('invalid generated config');
gc();
const withConfig = process.memoryUsage().heapUsed;
const mb = (bytes: number) => bytes / 2 ** 20;
process.stdout.write(
  JSON.stringify({
    textMb: mb(withText - empty),
    configMb: mb(withConfig - withText),
    maxRssMb: ownPeakRssMb(),
    kept: [text.length, result.config.addresses.length],
  }),
);
