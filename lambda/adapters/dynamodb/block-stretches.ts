// Scanned blocks, kept compactly: the blocks one cursor write passes are one item (a "stretch"), not one item
// each. A quiet cycle following the tip (about a dozen blocks, none with alerts) costs one write unit for its
// blocks instead of one per block: heights are implied by the first one, each parent is the hash before it,
// and 0x-prefixed 32-byte hashes are packed as binary (32 bytes each instead of 66 characters), so about 25
// blocks fit in the 1 KB a write unit buys. Alert keys are kept only for the blocks that had alerts (they are
// what a reorg must recheck), inline while they fit and in part items (key-lists.ts) beyond.
//
// A height can be in several stretches (a rescan after a reorg writes it again): the stretch written for
// the highest cursor version wins, as a rewrite of a single item would. Items of the older layout (one per
// height, in the BLOCKS partition) are still read, below every stretch, until the TTL removes them.
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { ScannedBlock } from '../../core/ports';
import * as z from '../../zod-mini';
import { parseItem, scannedBlockItem, scannedBlockPartItem, toScannedBlock } from './items';
import { assembleParts, listBytes, MAX_KEY_LIST_BYTES, readKeyListParts, splitKeyList, writeKeyListParts } from './key-lists';
import { heightSortKey, type StateKeys } from './keys';
import { callTable, expiresAtFrom, type TableAccess } from './table-access';

/** The most blocks one stretch item holds (the scan writes its cursor at least every 50 blocks). */
export const MAX_STRETCH_BLOCKS = 100;

const PACKABLE_HASH = /^0x[0-9a-f]{64}$/;
const HASH_BYTES = 32;

const height = z.int().check(z.nonnegative());

export const stretchItem = z.object({
  first: height,
  /** The cursor version written right after this stretch: a later rescan of a height has a higher one. */
  version: z.int().check(z.nonnegative()),
  parentHash: z.string(),
  /** The hashes in height order, packed 32 bytes each (when every hash is 0x and 64 lower-case hex digits)... */
  packed: z.optional(z.custom<Uint8Array>((value) => value instanceof Uint8Array)),
  /** ...or as strings otherwise. */
  hashes: z.optional(z.array(z.string())),
  /** Alert keys of the blocks that had any, by height (as a string). */
  alertKeys: z.optional(z.record(z.string(), z.array(z.string()))),
  /** Blocks whose keys were too many for this item: how many part items hold them, by height. */
  keyParts: z.optional(z.record(z.string(), z.int().check(z.positive()))),
});

type Stretch = z.infer<typeof stretchItem>;

/** Blocks cut where one does not build on the one before (or a stretch is full): each run is one item. */
function stretchesOf(blocks: readonly ScannedBlock[]): ScannedBlock[][] {
  const runs: ScannedBlock[][] = [];
  for (const block of blocks) {
    const run = runs.at(-1);
    const last = run?.at(-1);
    if (run && last && run.length < MAX_STRETCH_BLOCKS && block.height === last.height + 1 && block.parentHash === last.hash) run.push(block);
    else runs.push([block]);
  }
  return runs;
}

export function packHashes(hashes: readonly string[]): Uint8Array | null {
  if (!hashes.every((hash) => PACKABLE_HASH.test(hash))) return null;
  const packed = new Uint8Array(hashes.length * HASH_BYTES);
  hashes.forEach((hash, i) => packed.set(Buffer.from(hash.slice(2), 'hex'), i * HASH_BYTES));
  return packed;
}

export function unpackHashes(stretch: Pick<Stretch, 'hashes' | 'packed'>): string[] {
  if (stretch.hashes) return stretch.hashes;
  const packed = stretch.packed ?? new Uint8Array();
  const hashes: string[] = [];
  for (let at = 0; at < packed.length; at += HASH_BYTES) hashes.push(`0x${Buffer.from(packed.subarray(at, at + HASH_BYTES)).toString('hex')}`);
  return hashes;
}

const partsOwner = (keys: StateKeys, block: { height: number; hash: string }) => ({
  pk: keys.blocksPk,
  sk: `${heightSortKey(block.height)}#${block.hash}`,
});

/** Writes each stretch as one item; key lists that do not fit beside the others go to parts first. */
export async function writeStretches(table: TableAccess, keys: StateKeys, blocks: readonly ScannedBlock[], version: number): Promise<void> {
  for (const run of stretchesOf(blocks)) {
    const hashes = run.map((b) => b.hash);
    const packed = packHashes(hashes);
    const alertKeys: Record<string, string[]> = {};
    const keyParts: Record<string, number> = {};
    let inlineBytes = 0;
    for (const block of run) {
      if (block.alertKeys.length === 0) continue;
      const bytes = listBytes(block.alertKeys);
      if (inlineBytes + bytes <= MAX_KEY_LIST_BYTES) {
        alertKeys[String(block.height)] = block.alertKeys;
        inlineBytes += bytes;
        continue;
      }
      const parts = splitKeyList(block.alertKeys);
      await writeKeyListParts(table, partsOwner(keys, block), parts, { hash: block.hash });
      keyParts[String(block.height)] = parts.length;
    }
    const first = run[0]!;
    await callTable(table, 'PutItem', () =>
      table.doc.send(
        new PutCommand({
          TableName: table.tableName,
          Item: {
            pk: keys.chainPk,
            sk: heightSortKey(first.height),
            first: first.height,
            version,
            parentHash: first.parentHash,
            ...(packed ? { packed } : { hashes }),
            ...(Object.keys(alertKeys).length > 0 ? { alertKeys } : {}),
            ...(Object.keys(keyParts).length > 0 ? { keyParts } : {}),
            expiresAt: expiresAtFrom(table, table.now()),
          },
        }),
      ),
    );
  }
}

type QueryAll = (pk: string, fromSk: string, toSk: string) => Promise<Record<string, unknown>[]>;

/** Remembered blocks from `from` to `to`, ascending, the latest written at each height. */
export async function readStretches(table: TableAccess, keys: StateKeys, queryAll: QueryAll, from: number, to: number): Promise<ScannedBlock[]> {
  const chosen = new Map<number, { version: number; block: ScannedBlock; parts?: number }>();
  const choose = (version: number, block: ScannedBlock, parts?: number) => {
    if (block.height < from || block.height > to) return;
    const seen = chosen.get(block.height);
    if (!seen || seen.version <= version) chosen.set(block.height, { version, block, ...(parts ? { parts } : {}) });
  };

  for (const block of await readLegacyBlocks(table, keys, queryAll, from, to)) choose(0, block);

  const items = await queryAll(keys.chainPk, heightSortKey(Math.max(0, from - MAX_STRETCH_BLOCKS + 1)), heightSortKey(to));
  for (const item of items) {
    const stretch = parseItem(stretchItem, item, table.tableName);
    let parentHash = stretch.parentHash;
    unpackHashes(stretch).forEach((hash, i) => {
      const at = String(stretch.first + i);
      const block = { height: stretch.first + i, hash, parentHash, alertKeys: stretch.alertKeys?.[at] ?? [] };
      choose(stretch.version, block, stretch.keyParts?.[at]);
      parentHash = hash;
    });
  }

  const blocks: ScannedBlock[] = [];
  for (const height of [...chosen.keys()].sort((a, b) => a - b)) {
    const { block, parts } = chosen.get(height)!;
    if (parts) block.alertKeys = await readKeyListParts(table, partsOwner(keys, block), parts);
    blocks.push(block);
  }
  return blocks;
}

/** One item per height, as written before stretches (with '#' parts right after their block's item). */
async function readLegacyBlocks(table: TableAccess, keys: StateKeys, queryAll: QueryAll, from: number, to: number): Promise<ScannedBlock[]> {
  const items = await queryAll(keys.blocksPk, heightSortKey(from), `${heightSortKey(to)}#~`);
  const parts = new Map<string, z.infer<typeof scannedBlockPartItem>[]>();
  const blocks: { sk: string; item: z.infer<typeof scannedBlockItem> }[] = [];
  for (const item of items) {
    const sk = String(item.sk);
    const [owner, ...partName] = sk.split('#');
    // Parts of a stretch's block carry its hash after the height: `<height>#<hash>#<part>`, like legacy ones.
    if (partName.length === 0) blocks.push({ sk, item: parseItem(scannedBlockItem, item, table.tableName) });
    else parts.set(owner!, [...(parts.get(owner!) ?? []), parseItem(scannedBlockPartItem, item, table.tableName)]);
  }
  return blocks.map(({ sk, item }) => {
    const block = toScannedBlock(item);
    if (item.parts) {
      const own = (parts.get(sk) ?? []).filter((p) => p.hash === item.hash);
      block.alertKeys = assembleParts(own, item.parts, table.tableName, { pk: keys.blocksPk, sk });
    }
    return block;
  });
}
