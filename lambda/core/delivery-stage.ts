// One delivery stage per cycle: every alert goes through it, whoever produced it (the status check, the
// block scan, a retraction, a deep reorg, the SMS digest), so that the claim protocol (delivery.ts), the SMS
// routing and the run's count of published alerts are applied in one place.
import type { Alert } from './alert-kinds/alert';
import { heldCount, smsDigestKind, type PendingSmsDigest } from './alert-kinds/sms-digest';
import type { Network } from './domain';
import { deliverAlerts, type DeliveryPorts, type DeliveryReport } from './delivery';
import type { SmsBudget, SmsRoute } from './sms-budget';

/** The run's SMS slots and where a grown tally is kept before the alerts it holds go out (the cursor keeper). */
export interface SmsRouting {
  budget: SmsBudget;
  keepTally: () => Promise<void>;
}

export class DeliveryStage {
  /** What this cycle published, in order, for its summary. */
  readonly published: Alert[] = [];

  constructor(
    private readonly ports: DeliveryPorts,
    private readonly network: Network,
    /** A claim older than this is taken to belong to a dead run and is published again (delivery.ts). */
    private readonly staleAfterMs: number,
    private readonly sms?: SmsRouting,
  ) {}

  /** Delivers the alerts (claim → publish → mark sent) or throws; see deliverAlerts. */
  async deliver(alerts: readonly Alert[]): Promise<DeliveryReport> {
    const routes = await this.routeSms(alerts);
    const report = await deliverAlerts(alerts, this.ports, this.staleAfterMs, routes);
    this.published.push(...report.published);
    return report;
  }

  /** The digest for a tally of held alerts, once by its key (a crash before the tally is cleared resends nothing). */
  async deliverDigest(pending: PendingSmsDigest): Promise<void> {
    if (heldCount(pending) === 0) return;
    const digest = smsDigestKind.build(pending, this.network);
    const report = await deliverAlerts([digest], this.ports, this.staleAfterMs, new Map([[digest.key, 'digest']]));
    this.published.push(...report.published);
  }

  /**
   * Decides which alerts are texted and which held for the digest, and keeps a grown tally *before* the
   * held alerts go out, so that a crash after publishing them cannot lose them from the digest. One cursor
   * write, only when the tally grows (past the run's SMS budget).
   */
  private async routeSms(alerts: readonly Alert[]): Promise<ReadonlyMap<string, SmsRoute> | undefined> {
    if (!this.sms || alerts.length === 0) return undefined;
    const before = this.sms.budget.held();
    const routes = this.sms.budget.routeAll(alerts);
    const after = this.sms.budget.held();
    if (after && JSON.stringify(after) !== JSON.stringify(before)) await this.sms.keepTally();
    return routes;
  }
}
