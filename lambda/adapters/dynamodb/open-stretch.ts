// The open stretch: the newest scanned blocks, kept on the cursor item itself (attribute `open`) rather than in
// a stretch item of their own (block-stretches.ts), so that a loop turn passing a block or two remembers them
// with the very write that moves the cursor: one write a turn, not two. It holds at most OPEN_STRETCH_BLOCKS
// blocks that build on one another and carry no alert keys (those a reorg must recheck go to stretch items
// as before); when the next blocks do not fit, the open stretch is written out as a stretch item first, under
// the cursor version that passed it, and a crash between the two leaves the same blocks in both places.
import type { ScannedBlock } from '../../core/ports';
import * as z from '../../zod-mini';
import { packHashes, unpackHashes } from './block-stretches';

/**
 * The most blocks the open stretch holds: 12 packed hashes are 384 bytes, which leaves the cursor item
 * (cursor, loop token and heartbeat, about 400 bytes) under the 1 KB a write unit buys.
 */
export const OPEN_STRETCH_BLOCKS = 12;

export const openStretchItem = z.object({
  first: z.int().check(z.nonnegative()),
  parentHash: z.string(),
  packed: z.optional(z.custom<Uint8Array>((value) => value instanceof Uint8Array)),
  hashes: z.optional(z.array(z.string())),
});

export function encodeOpenStretch(blocks: readonly ScannedBlock[]): z.infer<typeof openStretchItem> {
  const hashes = blocks.map((b) => b.hash);
  const packed = packHashes(hashes);
  return { first: blocks[0]!.height, parentHash: blocks[0]!.parentHash, ...(packed ? { packed } : { hashes }) };
}

/** The blocks of a stored open stretch (none when the attribute is absent or not one). */
export function decodeOpenStretch(value: unknown): ScannedBlock[] {
  const parsed = openStretchItem.safeParse(value);
  if (!parsed.success) return [];
  let parentHash = parsed.data.parentHash;
  return unpackHashes(parsed.data).map((hash, i) => {
    const block = { height: parsed.data.first + i, hash, parentHash, alertKeys: [] };
    parentHash = hash;
    return block;
  });
}

export interface OpenStretchPlan {
  /** Blocks of the stored open stretch to write out as a stretch item first, under the stored cursor version. */
  flush: ScannedBlock[];
  /** Blocks to write as stretch items under the new cursor version (those with alert keys, or too many). */
  asStretches: ScannedBlock[];
  /** The open stretch the cursor write stores (empty: the attribute is removed). */
  open: ScannedBlock[];
}

const builds = (blocks: readonly ScannedBlock[]) =>
  blocks.every((b, i) => i === 0 || (b.height === blocks[i - 1]!.height + 1 && b.parentHash === blocks[i - 1]!.hash));

/**
 * Where a cursor write at `height` puts the blocks it passes. The stored open stretch keeps only heights up
 * to the new cursor and below the first new block (a rewind or a rescan replaces the rest).
 */
export function planOpenStretch(stored: readonly ScannedBlock[], blocks: readonly ScannedBlock[], height: number): OpenStretchPlan {
  const below = Math.min(height, (blocks[0]?.height ?? Infinity) - 1);
  const kept = stored.filter((b) => b.height <= below);
  if (blocks.length === 0) return { flush: [], asStretches: [], open: kept };
  const joined = [...kept, ...blocks];
  const plain = blocks.every((b) => b.alertKeys.length === 0);
  if (plain && joined.length <= OPEN_STRETCH_BLOCKS && builds(joined)) return { flush: [], asStretches: [], open: joined };
  if (plain && blocks.length <= OPEN_STRETCH_BLOCKS && builds(blocks)) return { flush: kept, asStretches: [], open: [...blocks] };
  return { flush: kept, asStretches: [...blocks], open: [] };
}
