// No SMS floods: the first `smsPerRun` alerts of a run are texted, the rest are held and summed up in one
// digest text at the end of the run. The core only decides; SNS does the routing: every published message
// carries an `sms` attribute (`text`, `held` or `digest`) and the SMS subscriptions' filter policies let
// through `text` and `digest` only (infra/alert-filter-policy.ts). Email, webhooks and the JSON get every alert.
//
// Exactly once for digests: what the run holds back is kept with the cursor (PendingSmsDigest) *before* the
// held alerts are published, so a crash anywhere leaves it in the state; the digest is an ordinary keyed alert
// (`sms_digest:<first held key>`) delivered by the claim → publish → mark-sent protocol, so a retried run that
// finds the digest already sent does not send it again, and the pending tally is cleared only after.
import type { Alert } from './alert-kinds/alert';
import type { Severity } from './rule-meta';
import type { PendingSmsDigest } from './alert-kinds/sms-digest';
import { ruleOf } from './alert-kinds/registry';

export const SMS_PER_RUN_DEFAULT = 5;

/**
 * A run starting further than this behind the tip is a catch-up (a first run from an old startHeight, or
 * after an outage): its alerts are old news by the time they are found, so they go to the digest rather than
 * a text each. About five minutes of chain at twelve blocks a minute.
 */
export const CATCH_UP_BLOCKS = 60;

/** How SNS routes one published alert to SMS subscribers. */
export type SmsRoute = 'text' | 'held' | 'digest';

function blockOf(alert: Alert): number | null {
  return 'block_height' in alert && typeof alert.block_height === 'number' ? alert.block_height : null;
}

const noCounts = (): Record<Severity, number> => ({ critical: 0, warning: 0, info: 0 });

/** One run's SMS slots. */
export class SmsBudget {
  private slots: number;
  private pending: PendingSmsDigest | undefined;

  /**
   * `countedThrough`: the height up to which a tally left by a crashed run (already sent as its digest at the
   * start of this run) counted held alerts; blocks up to it are rescanned after the crash and held again
   * without being counted twice.
   */
  constructor(
    perRun: number,
    options: {
      countedThrough?: number | null;
      /** A tally an earlier poll of the same invocation left with the cursor, to go on with rather than send. */
      carried?: PendingSmsDigest;
    } = {},
  ) {
    this.slots = Math.max(0, perRun);
    this.countedThrough = options.countedThrough ?? null;
    this.pending = options.carried ? structuredClone(options.carried) : undefined;
  }

  /** Texts this budget may still send (what the invocation's next poll starts with). */
  textsLeft(): number {
    return this.slots;
  }

  private readonly countedThrough: number | null;

  /** A catch-up run (far behind the tip) texts nothing more: what it finds goes to the digest. */
  catchUp(): void {
    this.slots = 0;
  }

  /** The routes of one delivery's alerts, in order; the held ones join the tally (see held()). */
  routeAll(alerts: readonly Alert[]): Map<string, SmsRoute> {
    const countedThrough = this.countedThrough;
    const routes = new Map<string, SmsRoute>();
    for (const alert of alerts) {
      const height = blockOf(alert);
      const recount = height !== null && countedThrough !== null && height <= countedThrough;
      if (recount) routes.set(alert.key, 'held');
      else if (this.slots > 0) {
        this.slots -= 1;
        routes.set(alert.key, 'text');
      } else {
        routes.set(alert.key, 'held');
        this.hold(alert, height);
      }
    }
    return routes;
  }

  private hold(alert: Alert, height: number | null): void {
    const p = (this.pending ??= { firstKey: alert.key, counts: noCounts(), fromHeight: null, toHeight: null, throughHeight: null });
    p.counts[ruleOf(alert).severity] += 1;
    if (height !== null) {
      p.fromHeight = p.fromHeight === null ? height : Math.min(p.fromHeight, height);
      p.toHeight = p.toHeight === null ? height : Math.max(p.toHeight, height);
      p.throughHeight = p.throughHeight === null ? height : Math.max(p.throughHeight, height);
    }
  }

  /** What this run has held back so far, to keep with the cursor; undefined when nothing. */
  held(): PendingSmsDigest | undefined {
    return this.pending ? structuredClone(this.pending) : undefined;
  }
}
