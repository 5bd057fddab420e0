// What the stack knows of the alert messages the function publishes: their types and the SNS message
// attributes that subscription filter policies match on. lambda/adapters/sns sets these attributes.
import type { AlertType } from '../lambda/core/domain';

// A record rather than a list, so that a new alert type fails the type check here until it is added.
const ALERT_TYPE_SET: Record<AlertType, true> = {
  token_transfer: true,
  contract_log: true,
  contract_status: true,
  retraction: true,
  deep_reorg: true,
};

export const ALERT_TYPES = Object.keys(ALERT_TYPE_SET) as [AlertType, ...AlertType[]];

export const MESSAGE_ATTRIBUTE = {
  /** Every alert. */
  type: 'type',
  /** Every alert: mainnet or testnet. */
  network: 'network',
  /** contract_log and contract_status alerts. */
  contractId: 'contract_id',
  /** token_transfer alerts: the recipient. */
  address: 'address',
} as const;
