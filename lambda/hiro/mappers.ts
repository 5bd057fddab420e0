// Validated Hiro bodies into domain types. Nothing past this file sees an API field name.
import type { AssetAction, AssetEvent, BlockHeader, ContractLogEvent, StxLockEvent, Transaction } from '../core/domain';
import type { RawBlock, RawBlockTransaction, RawTxEvent } from './schemas';

export function toTransaction(raw: RawBlockTransaction): Transaction {
  const tx: Transaction = {
    txId: raw.tx_id,
    txIndex: raw.tx_index,
    txType: raw.tx_type,
    txStatus: raw.tx_status,
    sender: raw.sender_address,
    eventCount: raw.event_count,
    ...(raw.fee_rate === undefined ? {} : { fee: raw.fee_rate }),
    sponsor: raw.sponsor_address ? raw.sponsor_address : null,
  };
  if (raw.token_transfer) {
    tx.tokenTransfer = {
      recipient: raw.token_transfer.recipient_address,
      amount: raw.token_transfer.amount,
      memo: raw.token_transfer.memo,
    };
  }
  const contractId = raw.contract_call?.contract_id ?? raw.smart_contract?.contract_id;
  if (contractId !== undefined) tx.contractId = contractId;
  if (raw.contract_call) {
    tx.contractCall = {
      functionName: raw.contract_call.function_name,
      args: raw.contract_call.function_args?.map((arg) => arg.repr) ?? null,
      resultRepr: raw.tx_result?.repr ?? null,
    };
  }
  return tx;
}

export function toBlockHeader(raw: RawBlock): BlockHeader {
  return {
    height: raw.height,
    hash: raw.hash,
    parentHash: raw.parent_block_hash,
    time: raw.block_time ?? raw.burn_block_time,
    txCount: raw.tx_count,
    ...(raw.burn_block_height === undefined ? {} : { burnHeight: raw.burn_block_height }),
  };
}

/** The header as the block's own transactions tell it (they all carry it); txCount is the page's total. */
export function headerFromTransaction(raw: RawBlockTransaction, total: number): BlockHeader {
  return {
    height: raw.block_height,
    hash: raw.block_hash,
    parentHash: raw.parent_block_hash,
    time: raw.block_time ?? raw.burn_block_time,
    txCount: total,
    ...(raw.burn_block_height === undefined ? {} : { burnHeight: raw.burn_block_height }),
  };
}

/** The log of a `smart_contract_log` event; null for every other event type (dropped at the edge). */
export function toContractLog(raw: RawTxEvent): ContractLogEvent | null {
  if (raw.event_type !== 'smart_contract_log' || !raw.contract_log) return null;
  return {
    eventIndex: raw.event_index,
    contractId: raw.contract_log.contract_id,
    topic: raw.contract_log.topic,
    valueHex: raw.contract_log.value.hex,
    valueRepr: raw.contract_log.value.repr,
  };
}

/** An empty principal is the API's way of saying "none": a mint's sender, a burn's recipient. */
/** No principal is absent, null or "" (the API's ways of saying so): a mint's sender, a burn's recipient. */
export const principalOrNull = (value: string | null | undefined) => (value ? value : null);

/**
 * Who a movement is between, as the domain promises it (AssetEvent): a mint has no sender and a burn no
 * recipient whatever the API put there, so that no matcher can take a burn for an arrival.
 */
export function movementParties(action: AssetAction, sender: string | null | undefined, recipient: string | null | undefined) {
  return {
    sender: action === 'mint' ? null : principalOrNull(sender),
    recipient: action === 'burn' ? null : principalOrNull(recipient),
  };
}

/**
 * The asset movement of an `stx_asset`, `fungible_token_asset` or `non_fungible_token_asset` event; null for
 * every other event type. The schema has checked the fields each type needs.
 */
export function toAssetEvent(raw: RawTxEvent): AssetEvent | null {
  const asset = raw.asset;
  if (!asset) return null;
  const common = {
    eventIndex: raw.event_index,
    action: asset.asset_event_type,
    ...movementParties(asset.asset_event_type, asset.sender, asset.recipient),
  };
  switch (raw.event_type) {
    case 'stx_asset':
      return { ...common, asset: 'stx', amount: asset.amount!, memo: asset.memo && asset.memo !== '0x' ? asset.memo : null };
    case 'fungible_token_asset':
      return { ...common, asset: 'ft', assetId: asset.asset_id!, amount: asset.amount! };
    case 'non_fungible_token_asset':
      return { ...common, asset: 'nft', assetId: asset.asset_id!, valueHex: asset.value!.hex, valueRepr: asset.value!.repr };
    default:
      return null;
  }
}

/** The lock of an `stx_lock` event; null for every other event type. */
export function toStxLock(raw: RawTxEvent): StxLockEvent | null {
  const lock = raw.stx_lock_event;
  if (raw.event_type !== 'stx_lock' || !lock) return null;
  return { eventIndex: raw.event_index, address: lock.locked_address, amount: lock.locked_amount, unlockBurnHeight: lock.unlock_height };
}
