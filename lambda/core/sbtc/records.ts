// sBTC deposits and withdrawals as the watcher knows them, whichever source told it (Emily, sBTC's public API,
// or the sbtc-registry's prints): amounts in satoshis as bigint, Stacks txids 0x-prefixed as Hiro writes them,
// Bitcoin txids in display order (the order explorers, Emily and the prints use, so they join directly).

/** Emily's statuses: `reprocessing` is a deposit being looked at again; `rbf` one replaced by a fee bump. */
export const SBTC_STATUSES = ['pending', 'reprocessing', 'accepted', 'confirmed', 'failed', 'rbf'] as const;
export type SbtcStatus = (typeof SBTC_STATUSES)[number];

/** The Bitcoin transaction (the signers' sweep) and the Stacks transaction that fulfilled a request. */
export interface SbtcFulfillment {
  bitcoinTxid: string;
  bitcoinTxIndex: number;
  stacksTxid: string;
  bitcoinBlockHash: string;
  bitcoinBlockHeight: number;
  btcFeeSats: bigint;
}

export interface SbtcDeposit {
  bitcoinTxid: string;
  outputIndex: number;
  /** The Stacks principal the sBTC is minted to. */
  recipient: string;
  amountSats: bigint;
  status: SbtcStatus;
  statusMessage: string | null;
  /**
   * Bitcoin blocks after the deposit's confirmation from which the depositor may reclaim it (a relative lock,
   * OP_CHECKSEQUENCEVERIFY in its reclaim script); null when the script's lock could not be read.
   */
  lockTime: number | null;
  maxFeeSats: bigint | null;
  /** The signers' x-only key (32 bytes, hex) its deposit script locks to; null when the script could not be read. */
  signersKey: string | null;
  fulfillment: SbtcFulfillment | null;
  /** For an `rbf` deposit: the transaction that replaced it. */
  replacedByTx: string | null;
  /** The Stacks height Emily last updated the record at. */
  lastUpdateHeight: number;
}

export interface SbtcWithdrawal {
  requestId: number;
  /** The Stacks transaction that made the request. */
  stacksTxid: string;
  stacksBlockHeight: number;
  sender: string;
  /** The Bitcoin scriptPubKey paid, in hex. */
  recipientScript: string;
  amountSats: bigint;
  status: SbtcStatus;
  statusMessage: string | null;
  maxFeeSats: bigint | null;
  fulfillment: SbtcFulfillment | null;
  lastUpdateHeight: number;
}

/** sBTC's caps and throttle, in satoshis; null where no cap is set. */
export interface SbtcLimits {
  pegCapSats: bigint | null;
  perDepositMinimumSats: bigint | null;
  perDepositCapSats: bigint | null;
  perWithdrawalCapSats: bigint | null;
  rollingWithdrawalBlocks: number | null;
  rollingWithdrawalCapSats: bigint | null;
  availableToWithdrawSats: bigint | null;
  /** Set while the throttle is on: the principal that switched it on. */
  throttleModeInitiator: string | null;
}

/** A record a list answer held that could not be read: set aside, with what is wrong with it. */
export interface MalformedRecord {
  index: number;
  /** `txid:index` or the request id when those could be read. */
  id: string | null;
  problem: string;
}
