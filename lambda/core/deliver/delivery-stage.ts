// One delivery stage per cycle: every alert goes through it, whoever produced it (the status check, the
// block scan, a retraction, a deep reorg), so that the claim protocol (delivery.ts) and the run's count of
// published alerts are applied in one place. The SMS budget is a decorator on the publisher (sms-budget.ts).
import type { Alert } from '../alert-kinds/alert';
import { deliverAlerts, type DeliveryPorts, type DeliveryReport } from './delivery';

export class DeliveryStage {
  /** What this cycle published, in order, for its summary. */
  readonly published: Alert[] = [];

  constructor(
    private readonly ports: DeliveryPorts,
    /** A claim older than this is taken to belong to a dead run and is published again (delivery.ts). */
    private readonly staleAfterMs: number,
  ) {}

  /** Delivers the alerts (claim → publish → mark sent) or throws; see deliverAlerts. */
  async deliver(alerts: readonly Alert[]): Promise<DeliveryReport> {
    const report = await deliverAlerts(alerts, this.ports, this.staleAfterMs);
    this.published.push(...report.published);
    return report;
  }
}
