// The loop mode's SMS minute (docs/latency.md): on the 1-minute schedule an invocation is a minute, but a loop
// turn comes every few seconds, so there the SMS budget is counted over a minute of wall-clock time shared by
// every turn (and watchdog tick) that starts in it. The minute is kept in the SMS tally record (sms-tally.ts);
// a length of 0 counts per invocation, as the schedule and the local runner do.
import type { PendingSmsDigest } from '../alert-kinds/sms-digest';
import type { SmsTally, SmsMinute } from './sms-tally';

/** The loop mode's SMS minute: 60 s, as an invocation of the 1-minute schedule is. */
export const LOOP_SMS_MINUTE_MS = 60_000;

/** What an invocation starts from. */
export interface BudgetStart {
  /** Held alerts whose digest is owed now: a dead invocation's, or those of a minute that has ended. */
  owed: PendingSmsDigest | null;
  /** The minute the invocation routes into: the record's, still open, or a new one starting now. */
  minute: SmsMinute;
  /** What that minute held so far (its digest goes out after it ends). */
  held: PendingSmsDigest | null;
}

/**
 * An invocation starting at `now` joins the recorded minute while it is open (it began less than `minuteMs`
 * ago; a container whose clock is a little behind the one that opened it joins it too); otherwise the minute's
 * held alerts are owed a digest and a new minute begins. Per invocation (`minuteMs` 0) it always begins anew.
 */
export function beginBudget(record: SmsTally | null, now: number, minuteMs: number): BudgetStart {
  const minute = record?.minute;
  if (minuteMs > 0 && minute && Math.abs(now - minute.startedAt) < minuteMs) {
    return { owed: null, minute: { ...minute }, held: record.held };
  }
  return { owed: record?.held ?? null, minute: { startedAt: now, texted: 0 }, held: null };
}

/** Whether the minute is over at `now`, so its digest is due: per invocation (`minuteMs` 0) at its end, always. */
export function minuteEnded(minute: SmsMinute, now: number, minuteMs: number): boolean {
  return minuteMs <= 0 || now - minute.startedAt >= minuteMs;
}
