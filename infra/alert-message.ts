// What the stack knows of the alert messages the function publishes: their types and the SNS message
// attributes that subscription filter policies match on. lambda/adapters/sns sets these attributes.
import type { AlertType } from '../lambda/core/alert-kinds/alert';
import { ALERT_TYPES as KIND_TYPES } from '../lambda/core/alert-kinds/registry';
import { KIND_ATTRIBUTES } from '../lambda/core/alert-kinds/kind';

// From the kind registry, so that a new alert kind is a valid subscription filter without a change here.
export const ALERT_TYPES: [AlertType, ...AlertType[]] = KIND_TYPES;

export const MESSAGE_ATTRIBUTE = {
  /** Every alert. */
  type: 'type',
  /** Every alert: mainnet or testnet. */
  network: 'network',
  /** What the kinds set (contract_id, address, asset_id): alert-kinds/kind.ts. */
  ...KIND_ATTRIBUTES,
  /** Every alert: the name of the rule that raised it, or its default name. */
  rule: 'rule',
  /** Every alert: critical, warning or info. */
  severity: 'severity',
  /** Every alert published to SNS: `text`, `held` (past the run's SMS budget) or `digest` (sms-budget.ts). */
  sms: 'sms',
} as const;
