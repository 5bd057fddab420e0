// No SMS floods: the first `smsPerRun` alerts of an invocation are texted, the rest are held and summed up
// in one digest text at its end. In the loop mode (docs/latency.md) the budget is a minute of wall-clock time
// shared by the turns that start in it instead (`minuteMs`, sms-minute.ts): its first `smsPerRun` alerts are
// texted, and one digest for what it held goes out with the first invocation that starts or ends after it.
// A decorator on the publisher: the core delivers as it always does, and the
// composition roots (lambda/handler.ts, the local runner with an SNS topic) wrap their publisher in it, start
// it and flush it around the invocation. It only decides; SNS does the routing: every published message
// carries an `sms` attribute (`text`, `held` or `digest`) and the SMS subscriptions' filter policies let
// through `text` and `digest` only (infra/alert-filter-policy.ts). Email, webhooks and the JSON get every alert.
//
// Exactly once for digests: what is held back (and the minute's texts) is kept in its own record (sms-tally.ts)
// *before* the routed alerts are published, so a crash anywhere leaves it in the state; the digest is an ordinary keyed
// alert (`sms_digest:<first held key>`) delivered by the claim → publish → mark-sent protocol, so a retried
// invocation that finds the digest already sent does not send it again, and the tally is cleared only after.
// The record is written only when an alert is texted or held: a quiet invocation reads it and writes nothing.
// A loop turn (every few seconds) does not even read it unless it has an alert to route: it publishes without
// `start()`, and the record is read before its first routed alert. When a minute that ended owes its digest
// and no such turn came, the schedule's tick, which reads the record (`owesDigest`) and writes nothing to it,
// notes it on the cursor item, and the next turn starts the budget and sends it: one writer of the record.
import type { Alert } from '../alert-kinds/alert';
import { heldCount, smsDigestKind, type PendingSmsDigest } from '../alert-kinds/sms-digest';
import { ruleOf } from '../alert-kinds/registry';
import type { Network } from '../domain';
import { deliverAlerts, type DeliveryPorts } from './delivery';
import type { OutgoingAlert, SmsRoute } from './outgoing-alert';
import type { OnAccepted, PublishOutcome, Publisher, Telemetry } from '../ports';
import type { CycleSummary } from '../cycle-types';
import type { Severity } from '../stages/rule-meta';
import type { SmsMinute } from './sms-tally';
import { beginBudget, minuteEnded } from './sms-minute';

export { SMS_PER_RUN_DEFAULT } from '../watch-config/watch-config-schema';

export type { SmsRoute } from './outgoing-alert';

export interface SmsBudgetOptions {
  network: Network;
  /** Alerts texted per invocation (the watch config's `smsPerRun`). */
  perInvocation: number;
  /** A claim older than this is taken to belong to a dead run (delivery.ts). */
  staleAfterMs: number;
  /**
   * The loop mode: count `perInvocation` per SMS minute, this many ms of the clock, shared by the invocations
   * that start in it (LOOP_SMS_MINUTE_MS). 0 or absent: per invocation.
   */
  minuteMs?: number;
}

function blockOf(alert: Alert): number | null {
  return 'block_height' in alert && typeof alert.block_height === 'number' ? alert.block_height : null;
}

const noCounts = (): Record<Severity, number> => ({ critical: 0, warning: 0, info: 0 });

export class SmsBudget implements Publisher {
  private slots = 0;
  private tally: PendingSmsDigest | undefined;
  /** The minute this invocation routes into (per invocation: its own, never stored). */
  private minute: SmsMinute = { startedAt: 0, texted: 0 };
  /** Blocks up to this height had their held alerts counted already (a dead invocation's tally, or the minute's). */
  private countedThrough: number | null = null;
  /** The record read and the owed digest sent: by `start()`, or by the first publish that routes an alert. */
  private started: Promise<Alert[]> | undefined;
  /** A digest sent by a publish that started the budget, returned by `flush()`. */
  private sentOnRoute: Alert[] = [];
  private behind = false;

  constructor(
    private readonly inner: Publisher,
    /** The claim protocol's ports for the digest; their publisher is ignored (the digest goes to `inner`). */
    private readonly ports: Omit<DeliveryPorts, 'publisher'>,
    private readonly options: SmsBudgetOptions,
  ) {}

  private get minuteMs(): number {
    return Math.max(0, this.options.minuteMs ?? 0);
  }

  /**
   * Begins an invocation: first the digest a dead invocation owed (or a minute that has ended), so that this
   * one's tally starts afresh with a full budget; in the loop mode, joins a minute still open with what it has
   * left. Blocks already counted are rescanned after a crash and held again without being counted twice (in a
   * minute, also a block re-mined by a reorg at a height it already held from: its new alerts reach everything
   * but SMS, as the rest, and the digest may count fewer than it held).
   */
  start(): Promise<Alert[]> {
    this.started ??= this.begin();
    return this.started;
  }

  private async begin(): Promise<Alert[]> {
    const record = await this.ports.state.readRecord('smsTally');
    const { owed, minute, held } = beginBudget(record, this.ports.clock.now(), this.minuteMs);
    this.minute = minute;
    this.tally = held ?? undefined;
    this.slots = this.behind ? 0 : Math.max(0, this.options.perInvocation - minute.texted);
    this.countedThrough = (owed ?? held)?.throughHeight ?? null;
    return owed ? this.sendDigest(owed) : [];
  }

  /** Whether the record holds a digest owed now (a minute that ended, or a dead invocation's): a read, no write. */
  async owesDigest(): Promise<boolean> {
    const record = await this.ports.state.readRecord('smsTally');
    return beginBudget(record, this.ports.clock.now(), this.minuteMs).owed !== null;
  }

  /** A run far behind the tip (cycle.ts, CATCH_UP_BLOCKS) texts nothing more: what it finds goes to the digest. */
  fallingBehind(): void {
    this.slots = 0;
    this.behind = true;
  }

  /** Routes each alert (text or held), keeps the grown tally (and minute) before they go out, then publishes. */
  async publish(alerts: readonly OutgoingAlert[], onAccepted?: OnAccepted): Promise<PublishOutcome> {
    if (!this.started && alerts.some((outgoing) => outgoing.sms === undefined)) this.sentOnRoute = await this.start();
    const before = heldOf(this.tally);
    const textedBefore = this.minute.texted;
    const routed = alerts.map((outgoing) => (outgoing.sms === undefined ? { ...outgoing, sms: this.route(outgoing.alert) } : outgoing));
    const held = heldOf(this.tally) !== before;
    if (this.minuteMs > 0 && (held || this.minute.texted !== textedBefore)) {
      await this.ports.state.writeRecord('smsTally', { held: this.tally ?? null, minute: { ...this.minute } });
    } else if (held) {
      await this.ports.state.writeRecord('smsTally', { held: this.tally! });
    }
    return this.inner.publish(routed, onAccepted);
  }

  /**
   * Ends an invocation: one digest for what it held back, if anything, sent once by its key; in the loop mode
   * only once its minute has ended (else a later turn sends it). Returns what it published, with the digest
   * owed that a publish sent when it started the budget. Never started (a quiet turn): nothing, nothing read.
   */
  async flush(): Promise<Alert[]> {
    const owed = this.sentOnRoute;
    this.sentOnRoute = [];
    if (!this.tally || !minuteEnded(this.minute, this.ports.clock.now(), this.minuteMs)) return owed;
    const sent = await this.sendDigest(this.tally);
    this.tally = undefined;
    return [...owed, ...sent];
  }

  private route(alert: Alert): SmsRoute {
    const height = blockOf(alert);
    if (height !== null && this.countedThrough !== null && height <= this.countedThrough) return 'held';
    if (this.slots > 0) {
      this.slots -= 1;
      this.minute.texted += 1;
      return 'text';
    }
    this.hold(alert, height);
    return 'held';
  }

  private hold(alert: Alert, height: number | null): void {
    const t = (this.tally ??= { firstKey: alert.key, counts: noCounts(), fromHeight: null, toHeight: null, throughHeight: null });
    t.counts[ruleOf(alert).severity] += 1;
    if (height !== null) {
      t.fromHeight = t.fromHeight === null ? height : Math.min(t.fromHeight, height);
      t.toHeight = t.toHeight === null ? height : Math.max(t.toHeight, height);
      t.throughHeight = t.throughHeight === null ? height : Math.max(t.throughHeight, height);
    }
  }

  /** Delivers the digest for `tally` (once, by its key), then clears the record: a crash between resends nothing. */
  private async sendDigest(tally: PendingSmsDigest): Promise<Alert[]> {
    let published: Alert[] = [];
    if (heldCount(tally) > 0) {
      const digest = smsDigestKind.build(tally, this.options.network);
      const ports = { ...this.ports, publisher: this.inner };
      ({ published } = await deliverAlerts([digest], ports, this.options.staleAfterMs, new Map([[digest.key, 'digest']])));
    }
    await this.ports.state.writeRecord('smsTally', null);
    return published;
  }
}

/** A tally's identity for "did it grow": its counts. */
function heldOf(tally: PendingSmsDigest | undefined): number {
  return tally ? heldCount(tally) : 0;
}

/** An invocation's summary with the digests its SMS budget sent around its cycles, counted like any alert. */
export function withDigests(summary: CycleSummary, digests: readonly Alert[], telemetry: Pick<Telemetry, 'metric'>): CycleSummary {
  if (digests.length === 0) return summary;
  telemetry.metric('AlertsPublished', digests.length, { type: 'sms_digest' });
  const byType = { ...summary.alertsByType, sms_digest: (summary.alertsByType.sms_digest ?? 0) + digests.length };
  return { ...summary, alertsPublished: summary.alertsPublished + digests.length, alertsByType: byType };
}
