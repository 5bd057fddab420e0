// The Lambda's side of the self-rescheduling loop (lambda/core/scan/loop-turns.ts, docs/latency.md): which kind of
// invocation this is (a queued turn, or a schedule tick acting as the loop's watchdog), whether it runs a
// cycle, and the next turn queued with SQS's per-message delay when it ends.
import { randomUUID } from 'node:crypto';
import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { takeQueuedTurn, watchdogTick, type LoopStore, type TurnDecision } from '../core/scan/loop-turns';
import type { CycleSummary } from '../core/cycle-types';
import type { OperatorChannel } from '../core/ports';
import type { ApiStats } from '../hiro/http';
import type { LoopSettings } from './lambda-env';

interface QueuedTurn {
  turn: string;
}

/** The turn tokens an SQS event carries, or null for any other event (a schedule tick). */
export function queuedTurnTokens(event: unknown): string[] | null {
  const records = (event as { Records?: unknown } | null)?.Records;
  if (!Array.isArray(records)) return null;
  const sqs = records.filter((r): r is { eventSource: string; body: string } => (r as { eventSource?: unknown })?.eventSource === 'aws:sqs');
  if (sqs.length === 0) return null;
  return sqs.flatMap((record) => {
    try {
      const body = JSON.parse(record.body) as Partial<QueuedTurn>;
      return typeof body.turn === 'string' && body.turn !== '' ? [body.turn] : [];
    } catch {
      return []; // not a turn message: nothing to take
    }
  });
}

export interface BeginTurnDeps {
  store: LoopStore;
  operator: OperatorChannel;
  loop: LoopSettings;
  owner: string;
  nowMs: number;
  ttlMs: number;
  newToken?: () => string;
}

/** Whether this invocation runs a cycle: a queued turn whose token is current, or a watchdog restart. */
export async function beginTurn(event: unknown, deps: BeginTurnDeps): Promise<TurnDecision> {
  const newToken = deps.newToken ?? randomUUID;
  const take = { owner: deps.owner, nowMs: deps.nowMs, ttlMs: deps.ttlMs, next: newToken() };
  const tokens = queuedTurnTokens(event);
  if (tokens === null) {
    const timing = { delayMs: deps.loop.delaySeconds * 1000, turnMs: deps.loop.turnSeconds * 1000 };
    return watchdogTick({ store: deps.store, operator: deps.operator }, take, timing);
  }
  // One message a batch in practice; of several, at most one token can be current.
  for (const token of tokens) {
    const decision = await takeQueuedTurn(deps.store, { owner: take.owner, nowMs: take.nowMs, next: take.next, expected: token });
    if (decision.run || decision.why === 'lease-held') return decision;
  }
  return { run: false, why: 'stale-token' };
}

/**
 * Delay of the next turn: turns start every `delaySeconds` while the loop keeps up (the time this turn took
 * is taken off), and at once while it is behind the tip.
 */
export function nextTurnDelaySeconds(loop: LoopSettings, caughtUp: boolean, elapsedMs: number): number {
  if (!caughtUp) return 0;
  return Math.max(0, Math.min(900, Math.round(loop.delaySeconds - elapsedMs / 1000)));
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
 * scheduled tick is left to Lambda, which sends a failed asynchronous run there itself; a turn's own message
 * cannot be relied on to get there (its retry, a function timeout later, finds the token moved on by the
 * next turn's heartbeat and ends quietly), so without this a loop failing every turn would page nobody.
 */
export function failedTurnQueue(event: unknown, loop: LoopSettings | undefined): string | undefined {
  return loop?.deadLetterQueueUrl && queuedTurnTokens(event) !== null ? loop.deadLetterQueueUrl : undefined;
}

/** Sends the failed turn's record (its request id and error) to the dead-letter queue; never throws. */
export async function reportFailedTurn(sqs: SQSClient, queueUrl: string, requestId: string, error: unknown): Promise<void> {
  const { name, message } = error instanceof Error ? error : { name: 'Error', message: String(error) };
  const body = { failed: 'loop turn', requestId, at: new Date().toISOString(), error: { name, message } };
  await sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify(body) })).catch(() => undefined);
}

export async function queueNextTurn(sqs: SQSClient, loop: LoopSettings, next: string, delaySeconds: number): Promise<void> {
  const body: QueuedTurn = { turn: next };
  await sqs.send(new SendMessageCommand({ QueueUrl: loop.queueUrl, MessageBody: JSON.stringify(body), DelaySeconds: delaySeconds }));
}
