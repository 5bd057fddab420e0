// The Lambda's side of the self-rescheduling loop (lambda/core/scan/loop-turns.ts, docs/latency.md): which kind of
// invocation this is (a queued turn, or a schedule tick acting as the loop's watchdog), whether it runs a
// cycle, and what becomes of the turn's message when it ends: reported failed, so that the event source leaves
// it in the queue, where the queue's visibility timeout (the loop's delay, counted from the receive) shows it
// again for the next turn: the receive is an ordinary turn's one request. Only a turn that wants another delay
// (0 behind the tip, the rate limit's reset) changes its visibility. A stale message is deleted; a fresh one is
// sent only by a new loop, or when the old one nears the queue's retention.
import { randomUUID } from 'node:crypto';
import { ChangeMessageVisibilityCommand, SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import {
  LOOP_TURN_MAX_SECONDS,
  loopTurnMarginMs,
  takeQueuedTurn,
  watchdogTick,
  type LoopStore,
  type QueuedTurn,
  type TurnDecision,
  type TurnMessage,
} from '../core/scan/loop-turns';
import type { CycleSummary } from '../core/cycle-types';
import type { OperatorChannel } from '../core/ports';
import type { ApiStats } from '../hiro/http';
import type { LoopSettings } from './lambda-env';

interface TurnBody {
  turn: string;
}

/**
 * A message lives at most 14 days (the queue's retention, SQS's longest): a turn whose message was sent longer
 * ago than this replaces it with a fresh one, a day before SQS would drop it and leave the loop to the watchdog.
 */
export const MESSAGE_RENEW_AFTER_MS = 13 * 24 * 3600_000;

/** One SQS record of a turn batch: its ids, and the turn it carries (null: not a turn message). */
export interface QueuedMessage {
  messageId: string;
  receiptHandle: string;
  turn: TurnMessage | null;
  /** Epoch ms SQS took the message (`SentTimestamp`). */
  sentAtMs: number;
}

interface SqsRecord {
  eventSource: string;
  messageId: string;
  receiptHandle: string;
  body: string;
  attributes?: { ApproximateReceiveCount?: string; SentTimestamp?: string };
}

function turnOf(record: SqsRecord): TurnMessage | null {
  const receives = Number(record.attributes?.ApproximateReceiveCount);
  try {
    const body = JSON.parse(record.body) as Partial<TurnBody>;
    return typeof body.turn === 'string' && body.turn !== '' && Number.isSafeInteger(receives) ? { loop: body.turn, receives } : null;
  } catch {
    return null; // not a turn message: nothing to take
  }
}

/** The turn messages an SQS event carries, or null for any other event (a schedule tick). */
export function queuedTurnMessages(event: unknown): QueuedMessage[] | null {
  const records = (event as { Records?: unknown } | null)?.Records;
  if (!Array.isArray(records)) return null;
  const sqs = records.filter((r): r is SqsRecord => (r as { eventSource?: unknown })?.eventSource === 'aws:sqs');
  if (sqs.length === 0) return null;
  return sqs.map((record) => ({
    messageId: record.messageId,
    receiptHandle: record.receiptHandle,
    turn: turnOf(record),
    sentAtMs: Number(record.attributes?.SentTimestamp ?? 0),
  }));
}

export const isQueuedTurn = (event: unknown): boolean => queuedTurnMessages(event) !== null;

export interface BeginTurnDeps {
  store: LoopStore;
  operator: OperatorChannel;
  loop: LoopSettings;
  owner: string;
  nowMs: number;
  ttlMs: number;
  newToken?: () => string;
}

/**
 * How a turn began: the decision, the message it was decided on, and the messages of the batch it did not look
 * at (one message a batch in practice), which are shown again rather than deleted unread.
 */
export type TurnStart = TurnDecision & { message?: QueuedMessage; untried: string[] };

/** Whether this invocation runs a cycle: a queued turn whose message is the loop's live copy, or a watchdog restart. */
export async function beginTurn(event: unknown, deps: BeginTurnDeps): Promise<TurnStart> {
  const newToken = deps.newToken ?? randomUUID;
  const messages = queuedTurnMessages(event);
  if (messages === null) {
    // A healthy loop may be silent through a restarting tick's turn, which works up to the longest turn (loopWorkMs).
    const timing = { delayMs: deps.loop.delaySeconds * 1000, turnMs: LOOP_TURN_MAX_SECONDS * 1000 };
    const take = { owner: deps.owner, nowMs: deps.nowMs, ttlMs: deps.ttlMs, next: newToken() };
    return { ...(await watchdogTick({ store: deps.store, operator: deps.operator }, take, timing)), untried: [] };
  }
  // Of several messages, at most one is the loop's live copy; the rest are stale and deleted.
  for (const [i, message] of messages.entries()) {
    if (message.turn === null) continue;
    const renewAs = deps.nowMs - message.sentAtMs > MESSAGE_RENEW_AFTER_MS ? newToken() : undefined;
    const decision = await takeQueuedTurn(deps.store, { owner: deps.owner, nowMs: deps.nowMs, message: message.turn, ...(renewAs ? { renewAs } : {}) });
    const untried = messages.slice(i + 1).map((m) => m.messageId);
    if (decision.run || decision.why === 'lease-held') return { ...decision, message, untried };
  }
  return { run: false, why: 'stale-token', untried: [] };
}

/**
 * SQS requests of an ordinary turn (caught up, no wait asked by the API, its own message kept): the event source's
 * receive alone. The queue's visibility timeout is the loop's delay, so a message reported as a batch item failure
 * shows again that long after its receive, with no visibility change (infra/constructs/watch-loop.ts). The bench
 * prices the loop's queue from this.
 */
export const SQS_REQUESTS_AN_ORDINARY_TURN = 1;

/**
 * When the next turn starts: `delaySeconds` from now, and whether the queue's own visibility timeout already gives
 * it (`byQueue`: no request), or the message's visibility must be changed to it.
 */
export interface NextTurn {
  delaySeconds: number;
  byQueue: boolean;
}

/**
 * What becomes of the turn's message once the turn is over, `next` being the loop id the next turn names (null:
 * the loop ends, or this message is stale). The loop's own message is kept (its id added to `kept`, the batch's
 * failures): the queue shows it again after its visibility timeout, the loop's delay from the receive, unless the
 * turn wants another delay, for which it changes the visibility (kept before the call, so that if SQS refuses the
 * change the message still comes back, after the queue's visibility timeout). A new loop's or a renewed loop's
 * message is sent fresh, the old one deleted.
 */
export async function handOnTurn(
  sqs: SQSClient,
  loop: LoopSettings,
  end: { message: QueuedMessage | undefined; next: string | null; after: NextTurn },
  kept: string[],
): Promise<'kept' | 'hidden' | 'sent' | 'ended'> {
  const { message, next, after } = end;
  if (next === null) return 'ended';
  if (message && message.turn?.loop === next) {
    kept.push(message.messageId);
    if (after.byQueue) return 'kept';
    const change = { QueueUrl: loop.queueUrl, ReceiptHandle: message.receiptHandle, VisibilityTimeout: after.delaySeconds };
    await sqs.send(new ChangeMessageVisibilityCommand(change));
    return 'hidden';
  }
  const body: TurnBody = { turn: next };
  await sqs.send(new SendMessageCommand({ QueueUrl: loop.queueUrl, MessageBody: JSON.stringify(body), DelaySeconds: after.delaySeconds }));
  return 'sent';
}

/** A loop turn's run: the loop id it goes on with, its message, and the batch's messages kept so far. */
export interface LoopTurnRun {
  next: string;
  startedAt: number;
  store: LoopStore;
  queued: QueuedTurn | undefined;
  message: QueuedMessage | undefined;
  kept: string[];
}

/**
 * Keeps the loop's message for a turn after the delay, when this one runs no cycle (another run holds the lease):
 * the queue's visibility timeout shows it again then, no request.
 */
export async function keepTurnMessage(sqs: SQSClient, loop: LoopSettings, message: QueuedMessage | undefined, kept: string[]): Promise<void> {
  await handOnTurn(sqs, loop, { message, next: message?.turn?.loop ?? null, after: { delaySeconds: loop.delaySeconds, byQueue: true } }, kept);
}

/** The event source's answer for a queued turn: the messages to show again; the others are deleted. */
export function batchResponse(kept: readonly string[]): { batchItemFailures: { itemIdentifier: string }[] } {
  return { batchItemFailures: [...new Set(kept)].map((itemIdentifier) => ({ itemIdentifier })) };
}

/**
 * How long an invocation of the loop mode works. A queued turn runs in the turns' function, which times out at the
 * loop's delay: `turnSeconds` (the delay less its margin), never past its remaining time less that margin. A tick
 * runs in the watcher function, with the deploy's timeout (and the handler's safety margin): its restart's first
 * turn and a new watch config's first reads work as long as a turn may at most, whatever the delay.
 */
export function loopWorkMs(loop: LoopSettings, queued: boolean, timeLeftMs: number): number {
  if (!queued) return LOOP_TURN_MAX_SECONDS * 1000;
  return Math.min(loop.turnSeconds * 1000, timeLeftMs - loopTurnMarginMs(timeLeftMs));
}

/**
 * Longest a loop turn waits on the API's rate limit: past it the turn ends, its finished blocks kept, and the next
 * turn is delayed until the budget allows (`nextTurnDelaySeconds`), the wait in SQS's delay, which costs nothing,
 * rather than billed. 2 s is above the budget's own pace without a key (a start every 1.2 s at 50 a minute), so a
 * turn that has spent its burst still reads at that pace, which a new turn could not beat; a spent window or a
 * retry-after (seconds to a minute) ends the turn.
 */
export const TURN_MAX_PAUSE_MS = 2_000;

/**
 * Delay of the next turn: turns start every `delaySeconds` while the loop keeps up (the time this turn took
 * is taken off), at once while it is behind the tip, and never before the API's rate limit allows requests again
 * when the turn ended rather than wait for it (`resumeInMs`, from the client's stats).
 */
export function nextTurnDelaySeconds(loop: LoopSettings, caughtUp: boolean, elapsedMs: number, resumeInMs = 0): number {
  const budget = resumeBudgetSeconds(resumeInMs);
  if (!caughtUp) return budget;
  return Math.max(budget, Math.min(900, Math.round(loop.delaySeconds - elapsedMs / 1000)));
}

/** Seconds until the API's rate limit allows requests again, within SQS's longest visibility change here (900 s). */
const resumeBudgetSeconds = (resumeInMs: number) => Math.min(900, Math.max(0, Math.ceil(resumeInMs / 1000)));

/**
 * The next turn (`nextTurnDelaySeconds`), and whether the queue's own visibility timeout gives it: a caught-up
 * turn whose API asks no wait past the loop's period leaves its message to the queue, which shows it again the
 * delay after its receive (the turn's own time taken off, as above); behind the tip (0) or waiting on the rate
 * limit's reset, the turn changes the message's visibility.
 */
export function nextTurn(loop: LoopSettings, caughtUp: boolean, elapsedMs: number, resumeInMs = 0): NextTurn {
  const delaySeconds = nextTurnDelaySeconds(loop, caughtUp, elapsedMs, resumeInMs);
  return { delaySeconds, byQueue: caughtUp && resumeBudgetSeconds(resumeInMs) <= loop.delaySeconds - elapsedMs / 1000 };
}

/**
 * Whether a turn checks the contract statuses: turns come every few seconds, the statuses are checked about
 * once a minute (by the turns starting in the first seconds of each minute), as on the 1-minute schedule.
 */
export function statusesDue(nowMs: number, loop: LoopSettings): boolean {
  return nowMs % 60_000 < (loop.delaySeconds + 2) * 1000;
}

/**
 * A turn with nothing to tell: caught up, no alert, no reorg, no API trouble. It logs its summary at debug and
 * sends its metrics (the lag) only when `statusesDue` picks it, about once a minute (the lag alarm reads the
 * maximum over 5 minutes): at a turn every few seconds, an info line and an EMF record every turn would be
 * most of the loop's log bill.
 */
export function isQuietTurn(summary: CycleSummary, api: Pick<ApiStats, 'throttled' | 'errors'>): boolean {
  return summary.stoppedBecause === 'caught-up' && summary.alertsPublished === 0 && summary.reorgs === 0 && api.throttled === 0 && api.errors === 0;
}

/**
 * Where a failed invocation reports itself: a queued turn's failure, when the loop has a dead-letter queue. A
 * scheduled tick is left to Lambda, which sends a failed asynchronous run there itself. A turn's message never
 * goes there: every turn is a receive of the same recycled message, so the queue has no redrive policy to count
 * receives with; without this a loop failing every turn would page nobody.
 */
export function failedTurnQueue(event: unknown, loop: LoopSettings | undefined): string | undefined {
  return loop?.deadLetterQueueUrl && isQueuedTurn(event) ? loop.deadLetterQueueUrl : undefined;
}

/** Sends the failed turn's record (its request id and error) to the dead-letter queue; never throws. */
export async function reportFailedTurn(sqs: SQSClient, queueUrl: string, requestId: string, error: unknown): Promise<void> {
  const { name, message } = error instanceof Error ? error : { name: 'Error', message: String(error) };
  const body = { failed: 'loop turn', requestId, at: new Date().toISOString(), error: { name, message } };
  await sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify(body) })).catch(() => undefined);
}
