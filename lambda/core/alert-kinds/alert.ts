// Every alert the watcher sends, as one union. The chain alerts come from the chain kinds' registry
// (chain-kinds.ts); the watcher's own alerts are listed here. Each kind's JSON shape lives in its module.
import type { ChainAlert } from './chain-kinds';
import type { ContractStatusAlert } from './contract-status';
import type { ContractStatusSummaryAlert } from './contract-status-summary';
import type { DeepReorgAlert } from './deep-reorg';
import type { ChainHealthAlert } from './chain-health';
import type { CooldownSummaryAlert } from './cooldown-summary';
import type { RetractionAlert } from './retraction';
import type { SmsDigestAlert } from './sms-digest';
import type { PendingCallAlert } from './pending-call';
import type { PendingTransferAlert } from './pending-transfer';
import type { PendingDroppedAlert } from './pending-dropped';
import type { SbtcLifecycleAlert } from './sbtc-lifecycle';

export type { ChainAlert, ChainAlertType } from './chain-kinds';
export type { AlertBase } from './alert-base';
export type { TokenTransferAlert } from './token-transfer';
export type { ContractLogAlert } from './contract-log';
export type { ContractCallAlert } from './contract-call';
export type { StxTransferAlert } from './stx-transfer';
export type { FtTransferAlert } from './ft-transfer';
export type { NftTransferAlert } from './nft-transfer';
export type { WindowThresholdAlert } from './window-threshold';
export type { SbtcSettlementAlert } from './sbtc-settlement';
export type { ContractStatusAlert, ContractStatusSummaryAlert, CooldownSummaryAlert, DeepReorgAlert, RetractionAlert, SmsDigestAlert };
export type { PendingCallAlert, PendingTransferAlert, PendingDroppedAlert, SbtcLifecycleAlert, ChainHealthAlert };

export type PendingAlert = PendingCallAlert | PendingTransferAlert | PendingDroppedAlert;
export type Alert =
  | ChainAlert
  | ContractStatusAlert
  | ContractStatusSummaryAlert
  | RetractionAlert
  | DeepReorgAlert
  | ChainHealthAlert
  | SmsDigestAlert
  | SbtcLifecycleAlert
  | PendingAlert;
export type AlertType = Alert['type'];
