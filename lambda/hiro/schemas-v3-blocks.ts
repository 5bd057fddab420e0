// The v3 block routes (API 9.7.0): `GET /extended/v3/blocks/{height_or_hash}` and the newest-first list
// `GET /extended/v3/blocks`. Their JSON is not in the API source this client was built from, so each header
// is read in either naming the API uses: the v3 one (`index_hash`, `time`, `parent_block: {hash}`, as v3
// transactions name their block) or the v2 one (`block_time`, `parent_block_hash`). A body that has neither
// is not guessed at: the client falls back to the transaction list (block-headers-v3.ts).
import type { BlockHeader, ChainTip } from '../core/domain';
import * as z from '../zod-mini';
import { checkBody, type BodyCheck } from './validate';

const count = z.int().check(z.nonnegative());
const hash = z.string().check(z.regex(/^0x[0-9a-fA-F]{64}$/, 'expected a 0x-prefixed 32-byte hash'));

const v3Names = z.object({
  height: count,
  hash,
  time: count,
  tx_count: count,
  parent_block: z.optional(z.object({ hash })),
  // The Bitcoin anchor (STX locks end at a Bitcoin height); optional: the route's JSON is not confirmed.
  bitcoin_block: z.optional(z.object({ height: count })),
});

const v2Names = z.object({
  height: count,
  hash,
  block_time: count,
  tx_count: count,
  parent_block_hash: z.optional(hash),
  burn_block_height: z.optional(count),
});

const listPage = z.object({
  cursor: z.object({ next: z.nullable(z.string()) }),
  results: z.array(z.unknown()),
});

/** A header as the route tells it; `parentHash` null where the answer does not name the parent (list summaries). */
export function readV3BlockHeader(body: unknown): BodyCheck<BlockHeader> {
  const v3 = checkBody(v3Names, body);
  if (v3.ok) {
    const { height, hash, time, tx_count, parent_block, bitcoin_block } = v3.value;
    const burn = bitcoin_block === undefined ? {} : { burnHeight: bitcoin_block.height };
    return { ok: true, value: { height, hash, time, txCount: tx_count, parentHash: parent_block?.hash ?? null, ...burn } };
  }
  const v2 = checkBody(v2Names, body);
  if (v2.ok) {
    const { height, hash, block_time, tx_count, parent_block_hash, burn_block_height } = v2.value;
    const burn = burn_block_height === undefined ? {} : { burnHeight: burn_block_height };
    return { ok: true, value: { height, hash, time: block_time, txCount: tx_count, parentHash: parent_block_hash ?? null, ...burn } };
  }
  return v3;
}

export interface V3BlockListPage {
  next: string | null;
  /** Newest first, one height after another. */
  headers: BlockHeader[];
  /** The first summary as served, for the tip's index hash. */
  rawTop: unknown;
}

/** A list page: every summary readable, heights falling by one, or the problem found. */
export function readV3BlockListPage(body: unknown): BodyCheck<V3BlockListPage> {
  const page = checkBody(listPage, body);
  if (!page.ok) return page;
  const headers: BlockHeader[] = [];
  for (const [index, result] of page.value.results.entries()) {
    const header = readV3BlockHeader(result);
    if (!header.ok) return { ok: false, problem: `results[${index}]: ${header.problem}` };
    const above = headers.at(-1);
    if (above && header.value.height !== above.height - 1) {
      return { ok: false, problem: `results[${index}] is block ${header.value.height} after block ${above.height}, not the one below it` };
    }
    headers.push(header.value);
  }
  return { ok: true, value: { next: page.value.cursor.next, headers, rawTop: page.value.results[0] } };
}

const indexHashes = z.object({ index_hash: z.optional(hash), index_block_hash: z.optional(hash) });

/** The tip from the newest list summary (already read as a header); null before the API has a block. */
export function readV3Tip(rawTop: unknown): ChainTip | null {
  if (rawTop === undefined) return null;
  const header = readV3BlockHeader(rawTop);
  if (!header.ok) return null;
  const names = checkBody(indexHashes, rawTop);
  // The core keys nothing on the index hash; the block hash stands in where a summary names none.
  const indexBlockHash = (names.ok && (names.value.index_hash ?? names.value.index_block_hash)) || header.value.hash;
  const burn = header.value.burnHeight === undefined ? {} : { burnHeight: header.value.burnHeight };
  return { height: header.value.height, hash: header.value.hash, indexBlockHash, ...burn };
}
