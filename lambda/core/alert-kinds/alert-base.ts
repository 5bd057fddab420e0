// What every alert carries, whatever its kind. Apart from the alert union (alert.ts) so that a kind module
// can extend it without importing the union that imports the kind.
import type { Network } from '../domain';
import type { Severity } from '../stages/rule-meta';

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
