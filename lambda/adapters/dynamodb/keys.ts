// Where each kind of state lives in the single table. Everything is scoped by network, so mainnet and
// testnet watchers can share a table without seeing each other.
//
// - cursor and lease: two items of one small partition, read and written once or twice a run;
// - scanned blocks: one partition, sorted by zero-padded height, so a height range is one Query;
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
    lease: { pk: base, sk: 'LEASE' } satisfies ItemKey,
    blocksPk,
    block: (height: number): ItemKey => ({ pk: blocksPk, sk: heightSortKey(height) }),
    contractsPk,
    contract: (contractId: string): ItemKey => ({ pk: contractsPk, sk: contractId }),
    alert: (alertKey: string): ItemKey => ({ pk: `${base}#ALERT#${alertKey}`, sk: 'ALERT' }),
  };
}

export type StateKeys = ReturnType<typeof stateKeys>;
