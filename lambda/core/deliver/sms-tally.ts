// Where the SMS budget keeps what it held back from SMS until the digest for it is sent, and, in the loop mode,
// the minute it counts texts in: a small record of its own beside the cursor, written before the alerts it
// routed go out, so a crash loses none from the digest and spends no text twice.
import type { PendingSmsDigest } from '../alert-kinds/sms-digest';

/** In the loop mode, the stretch of wall-clock time the SMS budget is counted over (sms-minute.ts). */
export interface SmsWindow {
  /** When the first invocation that texted or held in it started (ms since the epoch). */
  startedAt: number;
  /** Alerts texted in it so far. */
  texted: number;
}

/** The SMS budget's record. */
export interface SmsTally {
  /** Alerts held back and not yet summed up in a sent digest, or null. */
  held: PendingSmsDigest | null;
  /** The loop mode's current window; absent when the budget is counted per invocation. */
  window?: SmsWindow | null;
}
