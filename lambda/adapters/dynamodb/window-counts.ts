// The windows' counts (core/stages/window-state.ts) as the cursor item stores them: JSON, brotli-compressed into one
// binary attribute. They ride on the cursor item so that a crash counts nothing twice, and DynamoDB bills every
// write of that item (the lease take included) for the whole item per KB: an hour-long sum window of a rule
// matching every block holds 720 entries, about 50 KB of JSON, which would cost some 100 write units a run.
// Compressed they take about a fifth (block heights and times repeat their digits; amounts do not); bench
// table 5d measures the write units and the time it takes. Items written before as JSON text are still read.
import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';
import * as z from '../../zod-mini';
import type { WindowStates } from '../../core/stages/window-state';

const height = z.int().check(z.nonnegative());
const windowEntry = z.object({
  h: height,
  t: z.number(),
  n: z.int().check(z.nonnegative()),
  v: z.string().check(z.regex(/^-?\d+$/)),
  c: z.int().check(z.nonnegative()),
  tx: z.array(z.string()),
  d: z.optional(height),
});
const windowStates = z.record(z.string(), z.object({ of: z.string(), entries: z.array(windowEntry), exactFrom: z.optional(height) }));

/** The stored attribute: compressed JSON, or JSON text as written before compression. */
export const storedWindows = z.union([z.string(), z.custom<Uint8Array>((value) => value instanceof Uint8Array)]);

/** Quality 4 of 11: within a few percent of the best size for this JSON at a fraction of the time. */
const QUALITY = 4;

export function encodeWindows(windows: WindowStates): Uint8Array {
  const json = JSON.stringify(windows);
  return brotliCompressSync(json, { params: { [constants.BROTLI_PARAM_QUALITY]: QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: Buffer.byteLength(json) } });
}

/** The windows' counts as stored; anything that is not that shape stops the run, naming the item. */
export function parseWindows(stored: string | Uint8Array, tableName: string): WindowStates {
  let text = typeof stored === 'string' ? stored : '';
  let value: unknown;
  try {
    if (typeof stored !== 'string') text = brotliDecompressSync(stored).toString('utf8');
    value = JSON.parse(text);
  } catch {
    value = undefined;
  }
  const parsed = windowStates.safeParse(value);
  if (!parsed.success) {
    const shown = text === '' ? `${stored.length} bytes that do not decompress` : `${text.slice(0, 80)}…`;
    throw new Error(
      `the cursor item in ${tableName} holds window counts that are not valid (windows: ${shown}); remove the attribute to start the windows afresh`,
    );
  }
  return parsed.data as WindowStates;
}
