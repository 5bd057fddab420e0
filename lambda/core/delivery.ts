// The delivery protocol that makes each alert reach the publisher once across retries, crashes and
// overlapping runs: claim the key (a conditional write) → publish → mark it sent.
//
// The one window for a duplicate: a run that publishes and then dies before marking the key sent leaves a
// claim that looks abandoned; once it is older than `alertStaleAfterMs` the next run publishes it again.
import type { Alert } from './domain';
import type { Clock, Publisher, StateStore } from './ports';
import { render } from './render';

export class AlertDeliveryError extends Error {
  constructor(readonly failed: { key: string; reason: string }[]) {
    super(
      `${failed.length} alert(s) could not be published: ` +
        failed
          .slice(0, 5)
          .map((f) => `${f.key} (${f.reason})`)
          .join(', ') +
        (failed.length > 5 ? ', ...' : ''),
    );
    this.name = 'AlertDeliveryError';
  }
}

/** Another run claimed this alert moments ago and may be publishing it now; this run must not go past it. */
export class AlertInFlightError extends Error {
  constructor(readonly key: string) {
    super(`alert ${key} is being published by another run; stopping before it`);
    this.name = 'AlertInFlightError';
  }
}

export interface DeliveryPorts {
  state: StateStore;
  publisher: Publisher;
  clock: Clock;
}

export interface DeliveryReport {
  /** Alerts this call published. */
  published: Alert[];
  /** Alerts already delivered earlier (by this or another run). */
  alreadySent: Alert[];
}

/**
 * Delivers the alerts or throws; on success every alert given is recorded as sent. On a failed publish the
 * failed claims are released so the next run retries them at once, and AlertDeliveryError is thrown so
 * that the caller does not move its cursor.
 */
export async function deliverAlerts(
  alerts: readonly Alert[],
  ports: DeliveryPorts,
  staleAfterMs: number,
): Promise<DeliveryReport> {
  const report: DeliveryReport = { published: [], alreadySent: [] };
  const toPublish: Alert[] = [];
  for (const alert of alerts) {
    const outcome = await ports.state.claimAlert(alert.key, ports.clock.now(), staleAfterMs);
    if (outcome === 'sent') report.alreadySent.push(alert);
    else if (outcome === 'in-flight') {
      await releaseAll(ports.state, toPublish);
      throw new AlertInFlightError(alert.key);
    } else toPublish.push(alert);
  }
  if (toPublish.length === 0) return report;

  let failed: { key: string; reason: string }[];
  try {
    const outcome = await ports.publisher.publish(toPublish.map((alert) => ({ alert, rendering: render(alert) })));
    failed = outcome.failed;
  } catch (error) {
    failed = toPublish.map((a) => ({ key: a.key, reason: error instanceof Error ? error.message : String(error) }));
  }
  const failedKeys = new Set(failed.map((f) => f.key));
  for (const alert of toPublish) {
    if (failedKeys.has(alert.key)) await ports.state.releaseAlertClaim(alert.key);
    else {
      await ports.state.markAlertSent(alert.key, ports.clock.now(), alert);
      report.published.push(alert);
    }
  }
  if (failed.length > 0) throw new AlertDeliveryError(failed);
  return report;
}

async function releaseAll(state: StateStore, alerts: readonly Alert[]): Promise<void> {
  for (const alert of alerts) await state.releaseAlertClaim(alert.key);
}
