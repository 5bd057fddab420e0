// Finding where the chain we scanned and the canonical chain part ways. The API takes each new block as
// canonical at once, so a block we scanned can be replaced later, and a fork caused by Bitcoin can replace
// hundreds of Stacks blocks.
import { UNKNOWN_BLOCK_HASH } from '../domain';
import type { ChainApi, Cursor, ScannedBlock, StateStore } from '../ports';

/** How many scanned blocks the state keeps for the fork search (about 1.5 hours of Nakamoto blocks). */
export const REMEMBERED_BLOCKS = 1000;

export interface ForkSearch {
  /** The highest remembered block still canonical, or null when none in the window is (a deep reorg). */
  forkPoint: ScannedBlock | null;
  /** The fork point's block time, from the header that showed it canonical; null with no fork point. */
  forkPointTime: number | null;
  /** Every remembered block above the fork point: their alerts may no longer be on the canonical chain. */
  orphaned: ScannedBlock[];
  /** The lowest height remembered (the window's floor). */
  windowFloor: number;
}

/**
 * The fork point, found with as few header requests as possible: gallop down from the cursor (1, 2, 4, ...
 * blocks) until a remembered block is still canonical, then binary search between. A fork of depth d costs
 * about 2·log2(d) requests: one for the usual depth-1 reorg, about 17 for 300 blocks.
 */
export async function findForkPoint(cursor: Cursor, chain: ChainApi, state: StateStore, window = REMEMBERED_BLOCKS): Promise<ForkSearch> {
  const remembered = await state.getScannedBlocks(Math.max(0, cursor.height - window), cursor.height);
  const windowFloor = remembered[0]?.height ?? cursor.height;
  if (remembered.length === 0) return { forkPoint: null, forkPointTime: null, orphaned: [], windowFloor };

  const canonicalTimes = new Map<number, number>();
  const isCanonical = async (index: number): Promise<boolean> => {
    const block = remembered[index]!;
    const header = await chain.getBlockHeader(block.height);
    // A block nothing named (UNKNOWN_BLOCK_HASH) cannot be shown canonical: rescanning it is the safe side.
    if (header === null || block.hash === UNKNOWN_BLOCK_HASH || header.hash !== block.hash) return false;
    canonicalTimes.set(index, header.time);
    return true;
  };

  // Invariant: remembered[bad] is not canonical; remembered[good] is (or good = -1: none known to be).
  let bad = remembered.length - 1;
  if (remembered[bad]!.height !== cursor.height || remembered[bad]!.hash !== cursor.hash) {
    // The cursor block itself is not remembered (a crash between the two writes): start from it anyway.
    bad = remembered.length;
  }
  let good = -1;
  for (let step = 1; ; step *= 2) {
    const probe = bad - step;
    if (probe < 0) {
      if (await isCanonical(0)) good = 0;
      else bad = 0;
      break;
    }
    if (await isCanonical(probe)) {
      good = probe;
      break;
    }
    bad = probe;
  }
  if (good === -1) return { forkPoint: null, forkPointTime: null, orphaned: remembered, windowFloor };
  while (bad - good > 1) {
    const mid = Math.floor((good + bad) / 2);
    if (await isCanonical(mid)) good = mid;
    else bad = mid;
  }
  return {
    forkPoint: remembered[good]!,
    forkPointTime: canonicalTimes.get(good) ?? null,
    orphaned: remembered.slice(good + 1),
    windowFloor,
  };
}
