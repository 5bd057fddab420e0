// The loop mode's SMS window (docs/latency.md): on the 1-minute schedule an invocation is a minute, but a loop
// turn comes every few seconds, so there the SMS budget is counted over a window of wall-clock time shared by
// every turn (and watchdog tick) that starts in it. The window is kept in the SMS tally record (sms-tally.ts);
// a length of 0 counts per invocation, as the schedule and the local runner do.
import type { PendingSmsDigest } from '../alert-kinds/sms-digest';
import type { SmsTally, SmsWindow } from './sms-tally';

/** The loop mode's window: a minute, as an invocation of the 1-minute schedule. */
export const LOOP_SMS_WINDOW_MS = 60_000;

/** What an invocation starts from. */
export interface BudgetStart {
  /** Held alerts whose digest is owed now: a dead invocation's, or those of a window that has ended. */
  owed: PendingSmsDigest | null;
  /** The window the invocation routes into: the record's, still open, or a new one starting now. */
  window: SmsWindow;
  /** What that window held so far (its digest goes out after it ends). */
  held: PendingSmsDigest | null;
}

/**
 * An invocation starting at `now` joins the recorded window while it is open (it began less than `windowMs`
 * ago; a container whose clock is a little behind the one that opened it joins it too); otherwise the window's
 * held alerts are owed a digest and a new window begins. Per invocation (`windowMs` 0) it always begins anew.
 */
export function beginBudget(record: SmsTally | null, now: number, windowMs: number): BudgetStart {
  const window = record?.window;
  if (windowMs > 0 && window && Math.abs(now - window.startedAt) < windowMs) {
    return { owed: null, window: { ...window }, held: record.held };
  }
  return { owed: record?.held ?? null, window: { startedAt: now, texted: 0 }, held: null };
}

/** Whether the window is over at `now`, so its digest is due: per invocation (`windowMs` 0) at its end, always. */
export function windowEnded(window: SmsWindow, now: number, windowMs: number): boolean {
  return windowMs <= 0 || now - window.startedAt >= windowMs;
}
