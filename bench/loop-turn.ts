// A loop's turns as the Lambda takes them (lambda/runtime/loop-invocation.ts), for the cost bench: the first
// turn is the watchdog's start (the lease and the first token in one write), every later one a queued turn, a
// receive more of the same message (one read; the cursor write stores its receive count in the token; a turn
// with no new block writes nothing; the SMS record read only to route an alert).
import type { CycleBudget, CycleSummary } from '../lambda/core/cycle-types';
import { metAnotherRun, takeQueuedTurn, tokenAfterTurn, type LoopStore, type QueuedTurn } from '../lambda/core/scan/loop-turns';
import type { Clock } from '../lambda/core/ports';

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
    this.token = await tokenAfterTurn(this.store, queued, loopTurn.handedOver, this.clock.now(), metAnotherRun(summary.stoppedBecause));
    return summary;
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
