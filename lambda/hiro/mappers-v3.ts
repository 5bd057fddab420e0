// Validated v3 bodies into domain types, as ./mappers does for the v1 and v2 ones.
import type { AssetAction, AssetEvent, ContractLogEvent, StxLockEvent, Transaction } from '../core/domain';
import { movementParties } from './mappers';
import type { RawTransactionSummary, RawV3TransactionEvent } from './schemas-v3';

export function fromTransactionSummary(raw: RawTransactionSummary): Transaction {
  const tx: Transaction = {
    txId: raw.tx_id,
    txIndex: raw.block.tx_index,
    txType: raw.type,
    txStatus: raw.status,
    sender: raw.sender.address,
    // Every summary carries it since API 9.7.0; before that the events themselves say.
    eventCount: raw.event_count ?? null,
    ...(raw.fee_rate === undefined ? {} : { fee: raw.fee_rate }),
    sponsor: raw.sponsor?.address ?? null,
  };
  if (raw.token_transfer) {
    tx.tokenTransfer = {
      recipient: raw.token_transfer.recipient,
      amount: raw.token_transfer.amount,
      // The same stored bytes v2 returned as a bare hex string; a transfer without one has an empty memo.
      memo: raw.token_transfer.memo?.hex ?? '0x',
    };
  }
  const contractId = raw.contract_call?.contract_id ?? raw.smart_contract?.contract_id;
  if (contractId !== undefined) tx.contractId = contractId;
  // The arguments and the result are read for the calls that alert (call-details-v3.ts).
  if (raw.contract_call) {
    tx.contractCall = {
      functionName: raw.contract_call.function_name,
      args: raw.contract_call.function_args?.map((arg) => arg.repr) ?? null,
      resultRepr: null,
    };
  }
  return tx;
}

/** The log of a `contract_log` event; null for every other event type (dropped at the edge). */
export function fromV3Event(raw: RawV3TransactionEvent): ContractLogEvent | null {
  if (raw.type !== 'contract_log' || !raw.contract_log) return null;
  return {
    eventIndex: raw.event_index,
    contractId: raw.contract_log.contract_id,
    topic: raw.contract_log.topic,
    valueHex: raw.contract_log.value.hex,
    valueRepr: raw.contract_log.value.repr,
  };
}

function movement(eventIndex: number, asset: { type: AssetAction; sender?: string | null; recipient?: string | null }) {
  return { eventIndex, action: asset.type, ...movementParties(asset.type, asset.sender, asset.recipient) };
}

/**
 * The movement of an `stx_asset`, `ft_asset` or `nft_asset` event, the same value ./mappers' toAssetEvent
 * gives for its v1 twin; null for every other event type. The schema has checked what each type needs.
 */
export function fromV3AssetEvent(raw: RawV3TransactionEvent): AssetEvent | null {
  const { stx_asset: stx, ft_asset: ft, nft_asset: nft } = raw;
  switch (raw.type) {
    case 'stx_asset': {
      if (!stx) return null;
      // v1 gives the same stored bytes as a bare hex string, absent or "0x" when the transfer carried none.
      const memo = stx.memo?.hex;
      return { ...movement(raw.event_index, stx), asset: 'stx', amount: stx.amount, memo: memo && memo !== '0x' ? memo : null };
    }
    case 'ft_asset':
      return ft ? { ...movement(raw.event_index, ft), asset: 'ft', assetId: ft.asset_identifier, amount: ft.amount } : null;
    case 'nft_asset':
      return nft
        ? { ...movement(raw.event_index, nft), asset: 'nft', assetId: nft.asset_identifier, valueHex: nft.value.hex, valueRepr: nft.value.repr }
        : null;
    default:
      return null;
  }
}

/** The lock of an `stx_lock` event; null for every other event type. */
export function fromV3StxLock(raw: RawV3TransactionEvent): StxLockEvent | null {
  const lock = raw.stx_lock;
  if (raw.type !== 'stx_lock' || !lock) return null;
  return { eventIndex: raw.event_index, address: lock.address, amount: lock.amount, unlockBurnHeight: lock.unlock_bitcoin_height };
}
