// Sustained 429s are the operator's to fix (another client shares the budget, or it is smaller than
// configured), and the client is the one place that sees them as they happen. It tells the operator channel
// once per client (a Lambda invocation builds one), instead of a CloudWatch alarm of its own.
import type { OperatorChannel, OperatorNotice } from '../core/ports';
import { PauseRefusedError } from './limiter';

/** Answers of 429 in a row, with no other answer between, that count as sustained. */
export const THROTTLED_IN_A_ROW = 5;

/**
 * Runs ended on the rate limit (a loop turn's pause budget) within `BUDGET_STOPS_SPAN_MS` that count as the
 * loop's reads outrunning the budget: a turn or two stop on it after a stall or a burst of blocks, five in ten
 * minutes (of some 75 turns) is the pace itself. The operator hears of it at most once a day per container.
 */
export const BUDGET_STOPS_TO_TELL = 5;
export const BUDGET_STOPS_SPAN_MS = 10 * 60_000;
const BUDGET_NOTICE_EVERY_MS = 24 * 3600_000;

/** The runs that ended on the rate limit, kept by the runner across the clients it builds (one an invocation). */
export class RateBudgetStops {
  private stops: number[] = [];
  private toldAt = Number.NEGATIVE_INFINITY;

  /** Counts one run ended on the rate limit at `nowMs`; true when the operator is to be told now. */
  stopped(nowMs: number): boolean {
    this.stops = [...this.stops.filter((at) => nowMs - at < BUDGET_STOPS_SPAN_MS), nowMs];
    if (this.stops.length < BUDGET_STOPS_TO_TELL || nowMs - this.toldAt < BUDGET_NOTICE_EVERY_MS) return false;
    this.toldAt = nowMs;
    return true;
  }
}

export class ThrottlingWatch {
  private inARow = 0;
  private notified = false;
  private budgetStopCounted = false;

  constructor(
    private readonly operator: OperatorChannel | undefined,
    private readonly requestsPerMinute: number,
    private readonly budgetStops: RateBudgetStops | undefined,
  ) {}

  /**
   * A request the run's pause budget refused (`error`, rethrown): the run ends on the rate limit, counted once per
   * client; when such runs keep coming, the operator is told the watch list reads more than the budget allows.
   */
  async endedOnBudget(error: unknown, nowMs: number): Promise<never> {
    if (error instanceof PauseRefusedError && !this.budgetStopCounted && this.operator) {
      this.budgetStopCounted = true;
      if (this.budgetStops?.stopped(nowMs)) await this.operator.notify(budgetNotice(this.requestsPerMinute));
    }
    throw error;
  }

  /** Counts an answer; the notice goes out (awaited, so a Lambda does not freeze it) on the Nth 429 in a row. */
  async answered(status: number, endpoint: string): Promise<void> {
    if (status !== 429) {
      this.inARow = 0;
      return;
    }
    this.inARow += 1;
    if (this.inARow >= THROTTLED_IN_A_ROW) await this.notify(endpoint, `${this.inARow} requests in a row`);
  }

  /** A request gave up after its retries were all refused: sustained, whatever came between. */
  async gaveUp(endpoint: string, attempts: number): Promise<void> {
    await this.notify(endpoint, `every one of ${attempts} attempts of one request`);
  }

  private async notify(endpoint: string, what: string): Promise<void> {
    if (this.notified || !this.operator) return;
    this.notified = true;
    const notice: OperatorNotice = {
      kind: 'rate-limited',
      subject: 'stacks-watch: the Hiro API keeps answering 429 Too Many Requests',
      message:
        `The Hiro API answered 429 Too Many Requests to ${what} (the last: ${endpoint}), although this watcher keeps ` +
        `to ${this.requestsPerMinute} requests a minute and to every rate window the API reports. Something else ` +
        'spends the same budget (another client on the same IP address or API key), or the budget is smaller than ' +
        'configured. No block is skipped: the cursor stays on the last finished block and later runs resume from ' +
        'it, but alerts come late. Give the watcher an API key of its own (STACKS_API_KEY; apiKeySecretArn on AWS), ' +
        'or set STACKS_API_RPM (stacksApiRpm on AWS) to what the API allows.',
    };
    await this.operator.notify(notice);
  }
}

function budgetNotice(requestsPerMinute: number): OperatorNotice {
  return {
    kind: 'rate-limited',
    subject: "stacks-watch: the loop's reads keep outrunning the Hiro API's rate limit",
    message:
      `${BUDGET_STOPS_TO_TELL} loop turns within ${BUDGET_STOPS_SPAN_MS / 60_000} minutes ended on the API's rate limit ` +
      `(${requestsPerMinute} requests a minute): the watch list reads more a minute than the budget allows at the loop's ` +
      'pace. No block is skipped and no turn waits billed: each such turn keeps its finished blocks and the next one ' +
      'starts when the budget allows, but alerts come later than the loop promises. Give the watcher an API key ' +
      '(apiKeySecretArn), watch fewer subjects, or deploy with the schedule instead of the loop.',
  };
}
