// The chain as the core sees it, shared by the core and every adapter. Adapters translate the outside world
// into these once, at the edge; nothing past the edge sees a raw API body or a DynamoDB item. A leaf: it
// imports nothing from the project, so that everything may import it.

export type Network = 'mainnet' | 'testnet';

/** A block as identified on chain: its height and hash. */
export interface BlockRef {
  height: number;
  hash: string;
}

export interface ChainTip extends BlockRef {
  indexBlockHash: string;
  /** The Bitcoin block of the tip's tenure, when the API says (`chain_tip.burn_block_height`): chain health reads it. */
  burnHeight?: number;
}

/** The Stacks node's own view (`/v2/info`): its Stacks tip and the Bitcoin tip it has seen. */
export interface NodeTip {
  stacksTipHeight: number;
  burnHeight: number;
}

/** The hash of a block nothing names: an empty block read without a header route (see BlockHeader). */
export const UNKNOWN_BLOCK_HASH = '';

export interface BlockHeader extends BlockRef {
  /**
   * null when the API gave none: the lowest block of a v3 block list page (its parent is on the next
   * page), and every block on an API whose v2 block routes are retired and which has no v3 block routes
   * (before 9.7.0), known only through its v3 transaction list: `hash` is then UNKNOWN_BLOCK_HASH for an
   * empty block.
   */
  parentHash: string | null;
  /** Unix seconds. */
  time: number;
  txCount: number;
  /** The Bitcoin block it is anchored to, when the API said (STX locks end at a Bitcoin height). */
  burnHeight?: number;
}

export type TxStatus = 'success' | 'abort_by_response' | 'abort_by_post_condition' | 'problematic_skipped' | (string & {});

export type TxType = 'token_transfer' | 'smart_contract' | 'contract_call' | 'poison_microblock' | 'coinbase' | 'tenure_change' | (string & {});

export interface TokenTransfer {
  recipient: string;
  /** micro-STX, decimal string: amounts can exceed 2^53. */
  amount: string;
  /** hex, 0x-prefixed */
  memo: string;
}

export interface Transaction {
  txId: string;
  txIndex: number;
  txType: TxType;
  txStatus: TxStatus;
  sender: string;
  /** null when the API did not say (v3 lists before API 9.7.0): the events must be read to know. */
  eventCount: number | null;
  /** The fee in micro-STX (the API's `fee_rate`), decimal string; absent when the API did not give it. */
  fee?: string;
  /** Who paid the fee of a sponsored transaction; null or absent: the sender paid. */
  sponsor?: string | null;
  tokenTransfer?: TokenTransfer;
  /** The contract the transaction called (contract_call) or deployed (smart_contract). */
  contractId?: string;
  /** What a contract_call called, as the block's transaction list tells it. */
  contractCall?: ContractCallDetails;
}

export interface ContractCallDetails {
  functionName: string;
  /**
   * Each argument's Clarity text, in order; null when the list did not give them (v3 lists name the
   * function only: the scan then reads them for the calls that alert, into TxEvents.call).
   */
  args: string[] | null;
  /** The transaction result's Clarity text (`(ok true)`, `(err u1)`); null when the API did not give it. */
  resultRepr: string | null;
}

/** A block with all of its transactions, in ascending tx_index. */
export interface Block {
  header: BlockHeader;
  transactions: Transaction[];
}

export interface ContractLogEvent {
  eventIndex: number;
  /** The contract that printed, which need not be the contract the transaction called. */
  contractId: string;
  topic: string;
  valueHex: string;
  valueRepr: string;
}

/** How an asset moved: a mint has no sender, a burn no recipient. */
export type AssetAction = 'transfer' | 'mint' | 'burn';
export const ASSET_ACTIONS = ['transfer', 'mint', 'burn'] as const satisfies readonly AssetAction[];

interface AssetEventBase {
  eventIndex: number;
  action: AssetAction;
  /** null for a mint. */
  sender: string | null;
  /** null for a burn. */
  recipient: string | null;
}

export interface StxAssetEvent extends AssetEventBase {
  asset: 'stx';
  /** micro-STX, decimal string. */
  amount: string;
  /** 0x hex when the transfer carried its own memo (`stx-transfer-memo?`, native transfers), else null. */
  memo: string | null;
}

export interface FtAssetEvent extends AssetEventBase {
  asset: 'ft';
  /** `ADDRESS.contract::token` */
  assetId: string;
  /** Base units, decimal string. */
  amount: string;
}

export interface NftAssetEvent extends AssetEventBase {
  asset: 'nft';
  assetId: string;
  valueHex: string;
  valueRepr: string;
}

export type AssetEvent = StxAssetEvent | FtAssetEvent | NftAssetEvent;

/** An `stx_lock` event: `address` now has `amount` micro-STX locked (the total) until a Bitcoin height. */
export interface StxLockEvent {
  eventIndex: number;
  address: string;
  /** micro-STX, decimal string: the total locked after the event. */
  amount: string;
  /** The Bitcoin block height at which the lock ends. */
  unlockBurnHeight: number;
}

/**
 * What the core needs of a transaction's events: the logs, the asset movements (STX, fungible and
 * non-fungible tokens) and the STX locks (balance rules count only unlocked STX).
 */
export interface TxEvents {
  txId: string;
  logs: ContractLogEvent[];
  assets: AssetEvent[];
  /** `stx_lock` events; absent when there were none. */
  locks?: StxLockEvent[];
  /** The call's arguments and result, when they were asked for (the block's list did not give them). */
  call?: ContractCallDetails;
}

export type DeployStatus = 'success' | 'abort_by_response' | 'abort_by_post_condition' | 'problematic_skipped' | 'pending' | (string & {});

export interface ContractStatus {
  contractId: string;
  found: boolean;
  status: DeployStatus | null;
  txId: string | null;
  /** null while pending or when not found */
  blockHeight: number | null;
}

/** A deprecated API route the adapter used (it answered with a deprecation warning) or found retired (410). */
export interface ApiDeprecation {
  /** The route template, e.g. `GET /extended/v1/tx/multiple`. */
  route: string;
  /** The route the API names as the replacement, else the one the adapter uses (or will use once it is retired). */
  replacement: string | null;
  /** True when `replacement` is the API's own word (its Warning header named it), not the adapter's choice. */
  replacementNamedByApi?: boolean;
  /** True once the route answered 410 Gone and the adapter switched for the rest of the process's life. */
  gone: boolean;
  /** The API's own words: the Warning header or the 410 message; for an unreadable answer, what was wrong. */
  detail: string;
  /** True when the route answers, but in a shape the adapter cannot read, so it uses `replacement` instead. */
  unreadable?: boolean;
}

/** What an address holds at a block, as the API's balance route says: STX (total and locked) and fungible tokens. */
export interface PrincipalBalances {
  /** micro-STX including the locked part. */
  stxTotal: bigint;
  stxLocked: bigint;
  /** The Bitcoin height at which the lock ends; null when nothing is locked. */
  unlockBurnHeight: number | null;
  /** Base units by asset id `ADDRESS.contract::token`; an asset never held is absent (0). */
  fts: ReadonlyMap<string, bigint>;
  /** The requests the read took, when more than one (a balance rebuilt from its changes): charged to the run's share. */
  requests?: number;
}

/**
 * A past balance the API cannot give (a route missing, more changes since the block than a read walks, a
 * stacking call since it): a lasting cause, told to the operator once, and not asked again at once
 * (stages/balance-retry.ts), not a passing failure.
 */
export class BalanceUnavailableError extends Error {
  override name = 'BalanceUnavailableError';
  /** The lowest block a read may be made at with a chance (the oldest change the failed read walked, a stacking call's block). */
  readonly retryFrom?: number;
  /** The requests the failed read took: charged to the run's share like a read that answered. */
  readonly requests?: number;

  constructor(message: string, detail: { retryFrom?: number; requests?: number } = {}) {
    super(message);
    if (detail.retryFrom !== undefined) this.retryFrom = detail.retryFrom;
    if (detail.requests !== undefined) this.requests = detail.requests;
  }
}
