// The loop mode's month: its turns (one every delay plus the pickup, instead of the schedule's runs), the schedule's
// ticks beside them that only watch the loop, and the turns queue's requests, idle long polls included: an ordinary
// turn's requests are SQS_REQUESTS_AN_ORDINARY_TURN, the receive of the loop's one message, which the queue's
// visibility timeout (the delay) shows again with no visibility change (lambda/runtime/loop-invocation.ts).
import { SQS_REQUESTS_AN_ORDINARY_TURN } from '../lambda/runtime/loop-invocation';

const MONTH_SECONDS = 30 * 24 * 3600;
/**
 * A watchdog tick of the loop mode that finds the loop alive: the watch config's conditional GET, two strongly
 * consistent reads (the cursor item, the SMS record) and no log line, billed for about this long (no API call;
 * a write only when its notes for the turns change).
 */
export const WATCHDOG_TICK_SECONDS = 0.03;
/**
 * Long polls the SQS event source keeps open on the turns queue: Lambda scales an idle source's pollers down
 * to "as few as 2" (its documentation; 5 otherwise). Each 20 s long poll that ends without a message is a
 * request.
 */
export const ESM_POLLERS = 2;
const LONG_POLL_SECONDS = 20;
/** The loop's message is replaced by a fresh one every 13 days (SQS keeps a message 14 days at most). */
const MESSAGE_RENEWED_EVERY_SECONDS = 13 * 24 * 3600;

/** What the loop mode adds to a month: turns instead of runs, the ticks beside them, the queue's requests. */
export interface LoopMonth {
  delaySeconds: number;
  turns: number;
  ticks: number;
  /** A turn's requests (measured, or SQS_REQUESTS_AN_ORDINARY_TURN), the turns' in all, sends of a fresh message, empty long polls. */
  sqs: { perTurn: number; turnRequests: number; sends: number; emptyReceives: number };
}

/**
 * Turns every delaySeconds plus the pickup, each the receive of the loop's message alone (the bill's turns follow
 * the tip: none is behind it or waiting on the rate limit, which would change the visibility); the idle pollers'
 * empty long polls.
 */
export function loopMonth(delaySeconds: number, ticks: number, pickupMs: number, perTurn = SQS_REQUESTS_AN_ORDINARY_TURN): LoopMonth {
  const period = delaySeconds + pickupMs / 1000;
  const turns = MONTH_SECONDS / period;
  // Poller time not spent on a poll that returns a message (one a turn, open about half a period) ends in empty 20 s polls.
  const emptyReceives = Math.max(0, (ESM_POLLERS * MONTH_SECONDS - turns * (period / 2)) / LONG_POLL_SECONDS);
  const sends = MONTH_SECONDS / MESSAGE_RENEWED_EVERY_SECONDS;
  return { delaySeconds, turns, ticks, sqs: { perTurn, turnRequests: turns * perTurn, sends, emptyReceives } };
}
