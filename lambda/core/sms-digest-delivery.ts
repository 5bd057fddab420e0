// Sending the digest a run owes for the alerts it held back from SMS (sms-budget.ts), and clearing the tally
// kept with the cursor only once the digest is delivered: a crash in between leaves the tally, and the next
// run's delivery of the same keyed digest finds it already sent.
import type { Network } from './domain';
import type { SmsDigestAlert } from './alert-kinds/alert';
import { smsDigestKind } from './alert-kinds/sms-digest';
import { deliverAlerts, type DeliveryPorts } from './delivery';
import type { Cursor } from './ports';
import { heldCount, type PendingSmsDigest } from './alert-kinds/sms-digest';

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
  const digest = smsDigestKind.build(pending, network);
  const report = await deliverAlerts([digest], ports, staleAfterMs, new Map([[digest.key, 'digest']]));
  if (!cursor?.smsDigest) return { cursor, sent: report.published as SmsDigestAlert[] };
  const { version, smsDigest: _sent, ...position } = cursor;
  return { cursor: await ports.state.writeCursor(position, version), sent: report.published as SmsDigestAlert[] };
}
