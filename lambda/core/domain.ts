// Domain types shared by the core and every adapter. Adapters translate the outside world into these
// once, at the edge; nothing past the edge sees a raw API body or a DynamoDB item.

export type Network = 'mainnet' | 'testnet';

/** A block as identified on chain: its height and hash. */
export interface BlockRef {
  height: number;
  hash: string;
}

export interface ChainTip extends BlockRef {
  indexBlockHash: string;
}

/** The hash of a block nothing names: an empty block read without a header route (see BlockHeader). */
export const UNKNOWN_BLOCK_HASH = '';

export interface BlockHeader extends BlockRef {
  /**
   * null when the API gave none: once Hiro retires its v2 block routes, a block is known only through its
   * v3 transaction list, whose items carry the block's hash but not its parent's. `hash` is then
   * UNKNOWN_BLOCK_HASH for an empty block (nothing in v3 names it).
   */
  parentHash: string | null;
  /** Unix seconds. */
  time: number;
  txCount: number;
}

export type TxStatus =
  | 'success'
  | 'abort_by_response'
  | 'abort_by_post_condition'
  | 'problematic_skipped'
  | (string & {});

export type TxType =
  | 'token_transfer'
  | 'smart_contract'
  | 'contract_call'
  | 'poison_microblock'
  | 'coinbase'
  | 'tenure_change'
  | (string & {});

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
  /** null when the API did not say (its v3 lists carry no event count): the events must be read to know. */
  eventCount: number | null;
  tokenTransfer?: TokenTransfer;
  /** The contract the transaction called (contract_call) or deployed (smart_contract). */
  contractId?: string;
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

/** What the core needs of a transaction's events: only the logs; other event types are dropped at the edge. */
export interface TxEvents {
  txId: string;
  logs: ContractLogEvent[];
}

export type DeployStatus =
  | 'success'
  | 'abort_by_response'
  | 'abort_by_post_condition'
  | 'problematic_skipped'
  | 'pending'
  | (string & {});

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
  /** The route now used instead, when the adapter switched to it. */
  replacement: string | null;
  /** True once the route answered 410 Gone and the adapter switched for the rest of the process's life. */
  gone: boolean;
  /** The API's own words: the Warning header or the 410 message. */
  detail: string;
}

// ---- watch configuration (validated by lambda/config) ----

import type { RuleMetaConfig, Severity } from './rule-meta';

export interface ContractLogRule extends RuleMetaConfig {
  contractId: string;
  /** Optional substring of the log's value.repr. */
  contains?: string;
}

export interface WatchConfig {
  network: Network;
  contracts: string[];
  addresses: string[];
  contractLogs: ContractLogRule[];
  /** Name and severity of every `contracts` alert (the list holds bare ids). */
  contractsRule?: RuleMetaConfig;
  /** Name and severity of every `addresses` alert. */
  addressesRule?: RuleMetaConfig;
  /** Alert texts per run before the rest are summed up in one digest text (sms-budget.ts; default 5). */
  smsPerRun?: number;
  startHeight: number | 'latest';
  confirmations: number;
  maxBlocksPerRun: number;
}

// ---- alerts ----
// Each kind's JSON shape lives in its module (lambda/core/alert-kinds), with its matcher and wordings.

export interface AlertBase {
  /** Stable and unique per alert: the de-duplication key across runs, retries and rescans. */
  key: string;
  network: Network;
  /**
   * The name of the rule that raised it, or a stable default (rule-meta.ts). Set on every alert the watcher
   * raises; optional for alerts stored before rules had names (read back for retractions).
   */
  rule?: string;
  /** How urgent: routes it to subscribers (SNS attribute `severity`). Default `warning`. */
  severity?: Severity;
}

import type { TokenTransferAlert } from './alert-kinds/token-transfer';
import type { ContractLogAlert } from './alert-kinds/contract-log';
import type { ContractStatusAlert } from './alert-kinds/contract-status';
import type { RetractionAlert } from './alert-kinds/retraction';
import type { DeepReorgAlert } from './alert-kinds/deep-reorg';
import type { SmsDigestAlert } from './alert-kinds/sms-digest';
export type { TokenTransferAlert, ContractLogAlert, ContractStatusAlert, RetractionAlert, DeepReorgAlert, SmsDigestAlert };

/** Alerts found in blocks: they carry a transaction and block, and a reorg can retract them. */
export type ChainAlert = TokenTransferAlert | ContractLogAlert;
export type Alert = ChainAlert | ContractStatusAlert | RetractionAlert | DeepReorgAlert | SmsDigestAlert;
export type AlertType = Alert['type'];

/** The human renderings of one alert, all derived from the alert itself. */
export interface Rendering {
  /** One line, fewer than 100 characters (an SNS limit). */
  subject: string;
  email: string;
  /** At most 160 GSM-7 characters, or 70 when a character falls outside GSM-7. */
  sms: string;
}

export interface OutgoingAlert {
  alert: Alert;
  rendering: Rendering;
  /** How SNS routes it to SMS subscribers (sms-budget.ts); absent: texted. */
  sms?: SmsRoute;
}

import type { SmsRoute } from './sms-budget';
