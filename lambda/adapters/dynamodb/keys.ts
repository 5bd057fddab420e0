// Where each kind of state lives in the single table. Everything is scoped by network, so mainnet and
// testnet watchers can share a table without seeing each other.
//
// - cursor and lease: one item (the lease is attributes of the cursor item), so that the cycle's cursor
//   write gives the lease back in the same write;
// - scanned blocks: stretches of blocks, one item per cursor write, in one partition sorted by the
//   zero-padded height of their first block, so a height range is one Query (block-stretches.ts); alert key
//   lists too long for a stretch in part items of a second partition, which also holds the one-item-per-height
//   blocks of the older layout;
// - contract statuses: one partition, read whole in one Query (the watch list is small);
// - alert records: one partition per alert key, so claims on different alerts never contend.
import type { Network } from '../../core/domain';

export interface ItemKey {
  pk: string;
  sk: string;
}

/** Heights are sort keys, compared as strings: 12 digits keep them in numeric order for ~30,000 years of blocks. */
const HEIGHT_DIGITS = 12;
const MAX_HEIGHT = 10 ** HEIGHT_DIGITS - 1;

export function heightSortKey(height: number): string {
  if (!Number.isSafeInteger(height) || height < 0 || height > MAX_HEIGHT) {
    throw new RangeError(`block height must be an integer from 0 to ${MAX_HEIGHT}, got ${height}`);
  }
  return String(height).padStart(HEIGHT_DIGITS, '0');
}

export function stateKeys(network: Network) {
  const base = `NET#${network}`;
  const blocksPk = `${base}#BLOCKS`;
  const contractsPk = `${base}#CONTRACTS`;
  return {
    cursor: { pk: base, sk: 'CURSOR' } satisfies ItemKey,
    blocksPk,
    chainPk: `${base}#CHAIN`,
    block: (height: number): ItemKey => ({ pk: blocksPk, sk: heightSortKey(height) }),
    contractsPk,
    contract: (contractId: string): ItemKey => ({ pk: contractsPk, sk: contractId }),
    alert: (alertKey: string): ItemKey => ({ pk: `${base}#ALERT#${alertKey}`, sk: 'ALERT' }),
  };
}

export type StateKeys = ReturnType<typeof stateKeys>;
