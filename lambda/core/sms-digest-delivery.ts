// Sending the digest a run owes for the alerts it held back from SMS (sms-budget.ts), and clearing the tally
// kept with the cursor only once the digest is delivered: a crash in between leaves the tally, and the next
// run's delivery of the same keyed digest finds it already sent.
import type { Network } from './domain';
import type { SmsDigestAlert } from './alert-kinds/alert';
import { smsDigestKind } from './alert-kinds/sms-digest';
import { deliverAlerts, type DeliveryPorts } from './delivery';
import type { Cursor } from './ports';
import { defaultRuleName, WATCHER_RULE } from './rule-meta';
import { heldCount, heldSeverity, type PendingSmsDigest } from './sms-budget';

export function digestAlert(pending: PendingSmsDigest, network: Network): SmsDigestAlert {
  return {
    type: 'sms_digest',
    key: smsDigestKind.key(pending.firstKey),
    network,
    held: { ...pending.counts },
    from_height: pending.fromHeight,
    to_height: pending.toHeight,
    rule: defaultRuleName(WATCHER_RULE, 'sms_digest'),
    // The most severe held alert's level: an SMS subscriber filtering on severities gets the digest when it
    // would have got one of the held alerts.
    severity: heldSeverity(pending),
  };
}

/**
 * Delivers the digest for `pending` (once, by its key) and then clears it from the cursor, if the cursor
 * holds it. Returns the cursor as it now is.
 */
export async function sendSmsDigest(
  pending: PendingSmsDigest,
  cursor: Cursor | null,
  network: Network,
  ports: DeliveryPorts,
  staleAfterMs: number,
): Promise<{ cursor: Cursor | null; sent: SmsDigestAlert[] }> {
  if (heldCount(pending) === 0) return { cursor, sent: [] };
  const digest = digestAlert(pending, network);
  const report = await deliverAlerts([digest], ports, staleAfterMs, new Map([[digest.key, 'digest']]));
  if (!cursor?.smsDigest) return { cursor, sent: report.published as SmsDigestAlert[] };
  const { version, smsDigest: _sent, ...position } = cursor;
  return { cursor: await ports.state.writeCursor(position, version), sent: report.published as SmsDigestAlert[] };
}
