// Which events of a transaction its entry in the block's list does not already say, whatever its type: what the
// asset kinds need read, and the one event they skip (a native transfer's own, the transaction itself).
import type { AssetEvent, Transaction } from '../domain';

// These types run contract code: any of their events may move assets.
const CONTRACT_TYPES = new Set(['contract_call', 'smart_contract']);

/**
 * Whether a transaction has events beyond what its list entry already says: any of a contract call or deploy's,
 * and past the one `stx_asset` event of a native transfer (the transfer itself, alerted as `token_transfer`)
 * for every other type: the genesis STX mints are 32 `stx_asset` mint events of block 1's token_transfer
 * transaction. Without a count (a v3 list before API 9.7.0) only the contract types are read: one request per
 * native transfer would be the price of a case only the genesis block shows.
 */
export function hasEventsBeyondList(tx: Transaction): boolean {
  if (tx.eventCount === 0) return false;
  if (CONTRACT_TYPES.has(tx.txType)) return true;
  if (tx.eventCount === null) return false;
  return tx.eventCount > (tx.txType === 'token_transfer' ? 1 : 0);
}

/** A native transfer's own `stx_asset` event: the transaction itself, which alerts once, as `token_transfer`. */
export function isOwnTransferEvent(tx: Transaction, event: AssetEvent): boolean {
  const own = tx.tokenTransfer;
  return (
    own !== undefined &&
    event.asset === 'stx' &&
    event.action === 'transfer' &&
    event.sender === tx.sender &&
    event.recipient === own.recipient &&
    event.amount === own.amount
  );
}
