// A loop's turns as the Lambda takes them (lambda/runtime/loop-invocation.ts), for the cost bench: the first
// turn is the watchdog's start (the lease and the first token in one write), every later one a queued turn, a
// receive more of the same message (one read; the cursor write stores its receive count in the token; a turn
// with no new block writes nothing; the SMS record read only to route an alert). Each queued turn's SQS requests
// are counted: its receive, and what the handler's own hand-on sends for it (`nextTurn`, `handOnTurn`).
import type { CycleBudget, CycleSummary } from '../lambda/core/cycle-types';
import { metAnotherRun, takeQueuedTurn, tokenAfterTurn, type LoopStore, type QueuedTurn } from '../lambda/core/scan/loop-turns';
import type { Clock } from '../lambda/core/ports';
import { handOnTurn, nextTurn } from '../lambda/runtime/loop-invocation';
import type { LoopSettings } from '../lambda/runtime/lambda-env';
import type { SQSClient } from '@aws-sdk/client-sqs';

type TurnBudget = Pick<CycleBudget, 'leaseTaken' | 'loopTurn'>;

export class BenchLoop {
  private token: string | null = null;
  private receives = 0;

  /** Whether the next turn is a queued one (not the watchdog's start), which starts no SMS budget. */
  get queuedNext(): boolean {
    return this.token !== null;
  }

  constructor(
    private readonly store: LoopStore,
    private readonly clock: Clock,
    /** The loop's settings, and where its SQS requests are counted. */
    private readonly sqs: { loop: LoopSettings; count: { sqsRequests: number } },
  ) {}

  /** One turn: its start (the watchdog's, or the queued turn's read), the cycle, and the token it hands on. */
  async turn(runId: string, cycle: (budget: TurnBudget) => Promise<CycleSummary>): Promise<CycleSummary> {
    const nowMs = this.clock.now();
    const next = `${runId}-next`;
    if (this.token === null) {
      await this.store.takeLoopTurn({ owner: runId, nowMs, ttlMs: 120_000, expected: null, next, restart: { restarts: 0 } });
      this.token = next;
      return cycle({ leaseTaken: true });
    }
    const decision = await takeQueuedTurn(this.store, { owner: runId, nowMs, message: { loop: this.token, receives: ++this.receives } });
    if (!decision.run || !decision.queued) throw new Error(`the bench's loop turn did not run: ${JSON.stringify(decision)}`);
    const queued: QueuedTurn = decision.queued;
    const loopTurn = { handover: queued.handover, cursor: queued.cursor, handedOver: false };
    const summary = await cycle({ loopTurn });
    const loop = this.token;
    this.token = await tokenAfterTurn(this.store, queued, loopTurn.handedOver, this.clock.now(), metAnotherRun(summary.stoppedBecause));
    await this.handOn(loop, summary, nowMs);
    return summary;
  }

  /** The turn's SQS requests, as the handler makes them: the event source's receive, and the hand-on's own. */
  private async handOn(loop: string, summary: CycleSummary, startedAt: number): Promise<void> {
    const { count } = this.sqs;
    count.sqsRequests += 1; // the event source's receive
    const counting = { send: async () => ((count.sqsRequests += 1), {}) } as unknown as SQSClient;
    const message = { messageId: 'm', receiptHandle: `r-${this.receives}`, turn: { loop, receives: this.receives }, sentAtMs: startedAt };
    const after = nextTurn(this.sqs.loop, summary.stoppedBecause === 'caught-up', this.clock.now() - startedAt);
    await handOnTurn(counting, this.sqs.loop, { message, next: this.token, after }, []);
  }
}

/**
 * An invocation's SMS budget around its one cycle (or loop turn): started before (a queued turn's is started by
 * its first routed alert, lambda/handler.ts), flushed after.
 */
export async function invocation(
  sms: { start(): Promise<unknown>; flush(): Promise<unknown> },
  loop: BenchLoop | undefined,
  runId: string,
  cycle: (budget: TurnBudget) => Promise<CycleSummary>,
): Promise<CycleSummary> {
  if (!loop?.queuedNext) await sms.start();
  const done = loop ? await loop.turn(runId, cycle) : await cycle({});
  await sms.flush();
  return done;
}
