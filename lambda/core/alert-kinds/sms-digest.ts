// `sms_digest`: the one text a run (a minute in the loop mode) sends for the alerts it held back from SMS
// (sms-budget.ts), for SMS subscribers only: SNS routes it by its `sms` attribute (`digest`), which only SMS
// filter policies let through.
import type { AlertBase } from './alert-base';
import { fields, networkName } from '../render/email-parts';
import { formatCount } from '../render/stx-amount';
import { compareSeverity, defaultRuleName, SEVERITIES, WATCHER_RULE, type Severity } from '../stages/rule-meta';
import type { WatcherKind } from './kind';

export interface SmsDigestAlert extends AlertBase {
  type: 'sms_digest';
  /** Alerts held back from SMS, by severity. */
  held: Record<Severity, number>;
  /** Block heights they were found in; null when none named a block (status changes). */
  from_height: number | null;
  to_height: number | null;
}

/** Alerts held back from SMS and not yet summed up in a sent digest; kept with the cursor. */
export interface PendingSmsDigest {
  /** The first held alert's key: names the digest, so that a retry finds it already sent. */
  firstKey: string;
  /** Held alerts by severity. */
  counts: Record<Severity, number>;
  /** Block heights the held alerts were found in (null when none named a block, e.g. status changes). */
  fromHeight: number | null;
  toHeight: number | null;
  /** Blocks up to this height are counted: a rescan after a crash holds their alerts again without recounting. */
  throughHeight: number | null;
}

export function heldCount(pending: PendingSmsDigest): number {
  return SEVERITIES.reduce((sum, s) => sum + pending.counts[s], 0);
}

/** The most severe level among the held alerts: the digest reaches every SMS subscriber who wanted one of them. */
export function heldSeverity(pending: PendingSmsDigest): Severity {
  return SEVERITIES.filter((s) => pending.counts[s] > 0).sort(compareSeverity)[0] ?? 'info';
}

/** Named by the first held alert: the same tally after a crash is the same digest, sent once. */
const key = (firstHeldKey: string) => `sms_digest:${firstHeldKey}`;

const total = (a: SmsDigestAlert) => a.held.critical + a.held.warning + a.held.info;

function blocks(a: SmsDigestAlert): string {
  if (a.from_height === null || a.to_height === null) return '';
  if (a.from_height === a.to_height) return `, block ${formatCount(a.from_height)}`;
  return `, blocks ${formatCount(a.from_height)}-${formatCount(a.to_height)}`;
}

function count(a: SmsDigestAlert): string {
  const n = total(a);
  const critical = a.held.critical > 0 && a.held.critical < n ? ` (${formatCount(a.held.critical)} critical)` : '';
  return `${formatCount(n)} more alert${n === 1 ? '' : 's'}${critical}`;
}

export const smsDigestKind = {
  type: 'sms_digest',
  key,

  build: (pending, network) => ({
    type: 'sms_digest',
    key: key(pending.firstKey),
    network,
    held: { ...pending.counts },
    from_height: pending.fromHeight,
    to_height: pending.toHeight,
    rule: defaultRuleName(WATCHER_RULE, 'sms_digest'),
    // The most severe held alert's level: an SMS subscriber filtering on severities gets the digest when it
    // would have got one of the held alerts.
    severity: heldSeverity(pending),
  }),

  subject: (a) => `${count(a)}${blocks(a)}: see email`,
  email: (a) =>
    [
      `stacks-watch held back ${count(a)} on ${networkName(a.network)} from SMS: each run (each minute in the loop mode) ` +
        'texts only a few alerts, then sums up the rest in one text. Every one of them went to email, webhooks and the alert JSON.',
      '',
      fields([
        ['Critical', String(a.held.critical)],
        ['Warning', String(a.held.warning)],
        ['Info', String(a.held.info)],
        ['Blocks', a.from_height === null || a.to_height === null ? 'none' : `${a.from_height} to ${a.to_height}`],
      ]),
    ].join('\n'),
  sms: (a) => `${count(a)}${blocks(a)}: see email`,
  terminal: (a) => [['Held from SMS', count(a)]],
  link: () => null,
  attributes: () => ({}),

  sample: {
    type: 'sms_digest',
    key: key('token_transfer:0x20dedbef812e44d712569224411b27324b68ab4667321a4badd5e81ba76bf0eb'),
    network: 'mainnet',
    held: { critical: 2, warning: 35, info: 0 },
    from_height: 123450,
    to_height: 123470,
    rule: 'watcher:sms_digest',
    severity: 'critical',
  },
} satisfies WatcherKind<SmsDigestAlert, PendingSmsDigest>;
