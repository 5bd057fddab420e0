// The core's ports toward what it tells: the publisher of alerts, the operator's channel, time and telemetry
// (re-exported by ports.ts, which holds the chain and the state).
import type { OutgoingAlert } from './outgoing-alert';

// ---- delivery ----

export interface PublishOutcome {
  /** Not accepted, and surely not delivered (throttled, refused by a setting the operator can fix): try again later. */
  failed: { key: string; reason: string }[];
  /**
   * Never to be published again: refused for a reason retrying cannot fix (an invalid parameter, a message
   * the channel will never take), or sent twice with no answer either time, so that another copy could only
   * be a duplicate. Everything not in `failed` or `undeliverable` was accepted.
   */
  undeliverable: { key: string; reason: string }[];
}

/** Told after each call to the channel, before the next call starts, which alerts that call delivered. */
export type OnAccepted = (keys: readonly string[]) => Promise<void>;

export interface Publisher {
  /**
   * Publishes in calls one after another (never in parallel: the caller records each call's result in a
   * store that takes one write at a time). After each call that delivered anything, `onAccepted` is awaited
   * before the next call, so that a crash can repeat only the alerts of the call in flight.
   */
  publish(alerts: readonly OutgoingAlert[], onAccepted?: OnAccepted): Promise<PublishOutcome>;
  /** Told when a run starts far behind the tip: what it finds is old news (the SMS budget texts none of it). */
  fallingBehind?(): void;
}

// ---- the operator ----

/**
 * Conditions only the operator can fix: an alert SNS will never take, a chain that never links, a block that
 * fails run after run, an API route about to disappear, a fork deeper than the remembered blocks, a self-rescheduling
 * loop that keeps dying. Users' alerts never go here; these go to whoever runs the watcher (the ops topic in
 * AWS, stderr locally).
 */
export type OperatorNoticeKind =
  | 'alert-undeliverable'
  | 'chain-unlinked'
  | 'stuck-block'
  | 'api-deprecation'
  | 'deep-reorg'
  | 'rate-limited'
  | 'balance-mismatch'
  | 'balance-unread'
  | 'sbtc-emily'
  | 'sbtc-untracked'
  | 'watch-config-rejected'
  | 'loop-restarts'
  | 'watcher-stalled'
  | 'watcher-moving';

export interface OperatorNotice {
  kind: OperatorNoticeKind;
  /** One line of plain ASCII, fewer than 100 characters (an SNS subject). */
  subject: string;
  /** The cause in plain words: what failed, where (heights, hashes, keys, URLs), and what to do. */
  message: string;
}

export interface OperatorChannel {
  /** Best effort: a notice that cannot be sent is logged by the adapter; it never fails the cycle. */
  notify(notice: OperatorNotice): Promise<void>;
}

// ---- time and telemetry ----

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

export type MetricName =
  | 'BlocksScanned'
  | 'ChainLagBlocks'
  | 'ChainLagSeconds'
  | 'AlertsPublished'
  | 'AlertsUndeliverable'
  | 'ContractsWatched'
  | 'ReorgsDetected'
  | 'DeepReorgs'
  | 'ApiDeprecations'
  | 'CycleDurationMs';

/** Structured log and metrics sink; Powertools in Lambda, stderr locally, a recorder in tests. */
export interface Telemetry {
  log(level: 'debug' | 'info' | 'warn' | 'error', message: string, attributes?: Record<string, unknown>): void;
  metric(name: MetricName, value: number, dimensions?: Record<string, string>): void;
}

export const silentTelemetry: Telemetry = {
  log: () => {},
  metric: () => {},
};
