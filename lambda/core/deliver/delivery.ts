// The delivery protocol that makes each alert reach the publisher once across retries, crashes and
// overlapping runs: claim the key (a conditional write) → publish → mark it sent.
//
// The window for a duplicate here: a run that publishes one call's alerts and dies before marking them sent
// leaves claims that look abandoned; once older than `alertStaleAfterMs` the next run publishes them again.
// (The publisher has its own: a call that got no answer is sent once more at most.)
// An alert the channel will never take is parked (kept with its reason, told to the operator), not retried
// for ever, so that the block's other alerts and the cursor go on.
import type { Alert } from '../alert-kinds/alert';
import type { OutgoingAlert, SmsRoute } from './outgoing-alert';
import type { Clock, OperatorChannel, PublishOutcome, Publisher, StateStore, Telemetry } from '../ports';
import { render } from '../render';

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
  telemetry: Telemetry;
  operator: OperatorChannel;
}

export interface DeliveryReport {
  /** Alerts this call published. */
  published: Alert[];
  /** Alerts already delivered earlier (by this or another run). */
  alreadySent: Alert[];
  /** Alerts parked (now or earlier): the channel will never take them; the operator has been told. */
  parked: Alert[];
}

/**
 * Delivers the alerts or throws; on success every alert given is recorded as sent or parked. Each publish
 * call's accepted alerts are marked sent as soon as that call returns, before the next call starts, so a
 * crash can repeat only the alerts of the call in flight. On a failed publish the failed claims are
 * released so the next run retries them at once, and AlertDeliveryError is thrown so that the caller does
 * not move its cursor.
 */
export async function deliverAlerts(
  alerts: readonly Alert[],
  ports: DeliveryPorts,
  staleAfterMs: number,
  /** How each alert reaches SMS subscribers (sms-budget.ts decides, before delivery); absent: texted. */
  smsRoutes?: ReadonlyMap<string, SmsRoute>,
): Promise<DeliveryReport> {
  const report: DeliveryReport = { published: [], alreadySent: [], parked: [] };
  const toPublish: Alert[] = [];
  for (const alert of alerts) {
    const outcome = await ports.state.claimAlert(alert.key, ports.clock.now(), staleAfterMs);
    if (outcome === 'sent') report.alreadySent.push(alert);
    else if (outcome === 'parked') report.parked.push(alert);
    else if (outcome === 'in-flight') {
      await releaseAll(ports.state, toPublish);
      throw new AlertInFlightError(alert.key);
    } else toPublish.push(alert);
  }
  if (toPublish.length === 0) return report;

  const byKey = new Map(toPublish.map((alert) => [alert.key, alert]));
  const marked = new Set<string>();
  const markSent = async (keys: readonly string[]) => {
    for (const key of keys) {
      const alert = byKey.get(key);
      if (!alert || marked.has(key)) continue;
      await ports.state.markAlertSent(key, ports.clock.now(), alert);
      marked.add(key);
    }
  };

  let outcome: PublishOutcome;
  try {
    outcome = await ports.publisher.publish(
      toPublish.map((alert) => withSmsRoute({ alert, rendering: render(alert) }, smsRoutes?.get(alert.key))),
      markSent,
    );
  } catch (error) {
    // Calls that returned before the throw were marked; the rest may be retried.
    const reason = error instanceof Error ? error.message : String(error);
    outcome = { failed: toPublish.filter((a) => !marked.has(a.key)).map((a) => ({ key: a.key, reason })), undeliverable: [] };
  }
  const failedKeys = new Set(outcome.failed.map((f) => f.key));
  const undeliverable = new Map(outcome.undeliverable.map((u) => [u.key, u.reason]));
  for (const alert of toPublish) {
    const reason = undeliverable.get(alert.key);
    if (failedKeys.has(alert.key)) await ports.state.releaseAlertClaim(alert.key);
    else if (reason !== undefined) {
      await park(alert, reason, ports);
      report.parked.push(alert);
    } else {
      // A publisher that does not report its calls is taken at its word once it returns.
      await markSent([alert.key]);
      report.published.push(alert);
    }
  }
  if (outcome.failed.length > 0) throw new AlertDeliveryError(outcome.failed);
  return report;
}

/** An alert the channel will never take: kept with its reason, counted, and told to the operator. */
async function park(alert: Alert, reason: string, ports: DeliveryPorts): Promise<void> {
  await ports.state.parkAlert(alert.key, ports.clock.now(), alert, reason);
  ports.telemetry.metric('AlertsUndeliverable', 1);
  ports.telemetry.log('error', 'alert parked: the channel will not take it', { key: alert.key, type: alert.type, reason });
  await ports.operator.notify({
    kind: 'alert-undeliverable',
    subject: `stacks-watch: a ${alert.type} alert could not be delivered`.slice(0, 99),
    message:
      `The alert ${alert.key} was not delivered and will not be sent again: ${reason}. ` +
      'It is kept in the state as parked, with its content; the watcher went on past its block. ' +
      'Read it there and pass it on by hand if it matters.',
  });
}

function withSmsRoute(outgoing: OutgoingAlert, sms: SmsRoute | undefined): OutgoingAlert {
  return sms === undefined ? outgoing : { ...outgoing, sms };
}

async function releaseAll(state: StateStore, alerts: readonly Alert[]): Promise<void> {
  for (const alert of alerts) await state.releaseAlertClaim(alert.key);
}
