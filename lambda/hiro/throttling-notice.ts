// Sustained 429s are the operator's to fix (another client shares the budget, or it is smaller than
// configured), and the client is the one place that sees them as they happen. It tells the operator channel
// once per client (a Lambda invocation builds one), instead of a CloudWatch alarm of its own.
import type { OperatorChannel, OperatorNotice } from '../core/ports';

/** Answers of 429 in a row, with no other answer between, that count as sustained. */
export const THROTTLED_IN_A_ROW = 5;

export class ThrottlingWatch {
  private inARow = 0;
  private notified = false;

  constructor(
    private readonly operator: OperatorChannel | undefined,
    private readonly requestsPerMinute: number,
  ) {}

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
