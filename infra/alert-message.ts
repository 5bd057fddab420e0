// What the stack knows of the alert messages the function publishes: their types and the SNS message
// attributes that subscription filter policies match on. lambda/adapters/sns sets these attributes.
import type { AlertType } from '../lambda/core/alert-kinds/alert';
import { ALERT_TYPES as KIND_TYPES } from '../lambda/core/alert-kinds/registry';

// From the kind registry, so that a new alert kind is a valid subscription filter without a change here.
export const ALERT_TYPES: [AlertType, ...AlertType[]] = KIND_TYPES;

export const MESSAGE_ATTRIBUTE = {
  /** Every alert. */
  type: 'type',
  /** Every alert: mainnet or testnet. */
  network: 'network',
  /** Alerts about a contract (each kind's module says which it sets). */
  contractId: 'contract_id',
  /** Alerts about an address: a token_transfer's recipient, an asset movement's watched principal. */
  address: 'address',
  /** Asset movements: `stx` or the token's asset id `ADDRESS.contract::token`. */
  assetId: 'asset_id',
  /** Every alert: the name of the rule that raised it, or its default name. */
  rule: 'rule',
  /** Every alert: critical, warning or info. */
  severity: 'severity',
  /** Every alert published to SNS: `text`, `held` (past the run's SMS budget) or `digest` (sms-budget.ts). */
  sms: 'sms',
} as const;
