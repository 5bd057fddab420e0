// Every alert kind, keyed by alert type. The mapped type makes a kind missing any part, or an alert type
// without a kind, a compile error; everything that treats alerts by type looks its kind up here.
import type { Alert, AlertType, ChainAlertType } from './alert';
import { chainKinds } from './chain-kinds';
import { contractStatusKind } from './contract-status';
import { contractStatusSummaryKind } from './contract-status-summary';
import { deepReorgKind } from './deep-reorg';
import { chainHealthKind } from './chain-health';
import type { ChainKind, KindCommon, WatcherKind } from './kind';
import { retractionKind } from './retraction';
import { smsDigestKind } from './sms-digest';
import { pendingCallKind } from './pending-call';
import { pendingTransferKind } from './pending-transfer';
import { pendingDroppedKind } from './pending-dropped';
import { sbtcLifecycleKind } from './sbtc-lifecycle';
import { DEFAULT_SEVERITY, defaultRuleName, type RuleMeta, SEVERITIES, WATCHER_RULE } from '../stages/rule-meta';

export const alertKinds = {
  ...chainKinds,
  contract_status: contractStatusKind,
  contract_status_summary: contractStatusSummaryKind,
  retraction: retractionKind,
  deep_reorg: deepReorgKind,
  chain_health: chainHealthKind,
  sms_digest: smsDigestKind,
  pending_call: pendingCallKind,
  pending_transfer: pendingTransferKind,
  pending_dropped: pendingDroppedKind,
  sbtc_lifecycle: sbtcLifecycleKind,
} satisfies { [T in AlertType]: AlertKind<Extract<Alert, { type: T }>> };

/** A chain alert's kind has a matcher and a retraction; the watcher's own alerts' kinds have neither. */
export type AlertKind<A extends Alert> = A['type'] extends ChainAlertType ? ChainKind<A & Extract<Alert, { type: ChainAlertType }>> : WatcherKind<A>;

/** The kind of an alert, typed for the alert at hand (TypeScript cannot narrow an indexed union itself). */
export function kindOf<A extends Alert>(alert: A): KindCommon<A> {
  return alertKinds[alert.type as AlertType] as unknown as KindCommon<A>;
}

export const ALERT_TYPES = Object.keys(alertKinds) as [AlertType, ...AlertType[]];

/**
 * The rule an alert carries and its severity. Every alert the watcher raises has both; an alert stored before
 * rules had names (read back to be retracted) gets the defaults.
 */
export function ruleOf(alert: Alert): RuleMeta {
  // A severity read back from state is shown and routed on: only the three the watcher writes count.
  const severity = (SEVERITIES as readonly unknown[]).includes(alert.severity) ? alert.severity! : DEFAULT_SEVERITY;
  return { rule: alert.rule ?? defaultRuleName(WATCHER_RULE, alert.type), severity };
}

/**
 * The SNS message attributes of an alert, for subscription filter policies: `type`, `network`, `rule` and
 * `severity` on every alert, then what its kind adds. Empty values are dropped: SNS rejects a whole message for one.
 */
export function filterAttributes(alert: Alert): Record<string, string> {
  const { rule, severity } = ruleOf(alert);
  const all: Record<string, string | undefined> = { type: alert.type, network: alert.network, rule, severity, ...kindOf(alert).attributes(alert) };
  return Object.fromEntries(Object.entries(all).filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== ''));
}
