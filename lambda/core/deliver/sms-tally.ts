// Where the SMS budget keeps what it held back from SMS until the digest for it is sent, and, in the loop mode,
// the minute it counts texts in: a small record of its own beside the cursor, written before the alerts it
// routed go out, so a crash loses none from the digest and spends no text twice.
import type { PendingSmsDigest } from '../alert-kinds/sms-digest';

/** The record as stored (a DynamoDB item, a state file member): the minute under its older name, `window`. */
export interface StoredSmsTally {
  held: PendingSmsDigest | null;
  window?: SmsMinute | null;
}

/** The record from its stored shape, an older bare tally (the held digest's fields alone) included. */
export function smsTallyOf(stored: StoredSmsTally | PendingSmsDigest): SmsTally {
  if ('firstKey' in stored) return { held: stored };
  return { held: stored.held, ...(stored.window === undefined ? {} : { minute: stored.window }) };
}

/** The record in its stored shape. */
export function storedSmsTally(tally: SmsTally): StoredSmsTally {
  return { held: tally.held, ...(tally.minute === undefined ? {} : { window: tally.minute }) };
}

/** In the loop mode, the stretch of wall-clock time the SMS budget is counted over (sms-minute.ts). */
export interface SmsMinute {
  /** When the first invocation that texted or held in it started (ms since the epoch). */
  startedAt: number;
  /** Alerts texted in it so far. */
  texted: number;
}

/** The SMS budget's record. */
export interface SmsTally {
  /** Alerts held back and not yet summed up in a sent digest, or null. */
  held: PendingSmsDigest | null;
  /** The loop mode's current SMS minute; absent when the budget is counted per invocation. Stored as `window`, its older name. */
  minute?: SmsMinute | null;
}
