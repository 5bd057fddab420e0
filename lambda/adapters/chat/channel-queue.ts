// One chat channel's queue: alerts are handed to it and posted in the background, one after another in
// the order given, each with its own bounded attempts and timeout, so that a slow or hanging service delays
// nothing but its own posts: not the cycle, not stdout, not the other channels.
//
// Posting again is safe only when the post surely did not take (a 429, a 502 or 503, no connection), or when
// the service de-duplicates (PagerDuty's dedup_key: `repeatSafe`). A post that may have reached Slack, Discord
// or Telegram (no answer in time, a dropped connection, a 500) is never posted again: it is recorded failed,
// saying it may be in the channel, so an alert is posted there at most once.
import type { ChatRequest } from '../../channels/channel';
import type { ChatDelivery, ChatDeliveryLog } from './chat-delivery';
import type { ChatPostOutcome } from './chat-sender';

export interface ChannelQueueOptions {
  /** One post; `stop` aborts it when the runner stops. */
  post: (request: ChatRequest, stop: AbortSignal) => Promise<ChatPostOutcome>;
  log: ChatDeliveryLog;
  /** The operator's line: said once when the channel starts failing, once when it answers again. */
  notify: (level: 'warn' | 'info', message: string) => void;
  now: () => number;
  sleep: (ms: number, stop: AbortSignal) => Promise<void>;
  /** Posts per alert, the first included. */
  maxAttempts?: number;
  /** The longest Retry-After honoured; a longer one fails the alert for this channel. */
  maxRetryAfterMs?: number;
  /** Alerts waiting at most; past it a new one is recorded failed at once (a service down through a storm). */
  maxQueued?: number;
}

interface Item {
  alertKey: string;
  request: ChatRequest;
}

export class ChannelQueue {
  private readonly items: Item[] = [];
  private worker: Promise<void> | null = null;
  private readonly stopping = new AbortController();
  private failing = false;

  constructor(
    readonly channel: { name: string; repeatSafe: boolean },
    private readonly options: ChannelQueueOptions,
  ) {}

  /** Records the alert queued for this channel and starts posting it behind those before it. */
  async enqueue(alertKey: string, request: ChatRequest): Promise<void> {
    if (this.stopping.signal.aborted) return this.settle(alertKey, 0, 'failed', 'not posted: the runner was stopping');
    if (this.items.length >= (this.options.maxQueued ?? 1_000)) {
      return this.fail(alertKey, 0, `not posted: ${this.items.length} alerts were already waiting for ${this.channel.name}`);
    }
    this.items.push({ alertKey, request });
    await this.settle(alertKey, 0, 'queued');
    this.worker ??= this.work();
  }

  /** Resolves when nothing is waiting or being posted. */
  async idle(): Promise<void> {
    while (this.worker) await this.worker;
  }

  /** Waits up to `ms` for the queue to empty, then aborts the post in flight and records every alert left as not posted. */
  async drain(ms: number): Promise<number> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.idle(), new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
    clearTimeout(timer);
    const left = this.items.length;
    this.stopping.abort();
    await this.idle();
    return left;
  }

  private async work(): Promise<void> {
    try {
      for (let item = this.items[0]; item; item = this.items[0]) {
        if (this.stopping.signal.aborted) await this.fail(item.alertKey, 0, 'not posted: the runner stopped first');
        else await this.deliver(item);
        this.items.shift();
      }
    } finally {
      this.worker = null;
    }
  }

  private async deliver({ alertKey, request }: Item): Promise<void> {
    const maxAttempts = this.options.maxAttempts ?? 3;
    for (let attempt = 1; ; attempt++) {
      const outcome = await this.options.post(request, this.stopping.signal);
      if (outcome.kind === 'sent') {
        if (this.failing) this.options.notify('info', `${this.channel.name} takes alerts again`);
        this.failing = false;
        return this.settle(alertKey, attempt, 'sent');
      }
      if (this.stopping.signal.aborted) return this.fail(alertKey, attempt, maybePosted(outcome, this.channel.name));
      if (outcome.kind === 'refused') return this.fail(alertKey, attempt, outcome.reason);
      if (outcome.kind === 'unanswered' && !this.channel.repeatSafe) return this.fail(alertKey, attempt, maybePosted(outcome, this.channel.name));
      const waitMs = outcome.kind === 'not-taken' && outcome.waitMs !== null ? outcome.waitMs : Math.min(8_000, 500 * 2 ** (attempt - 1));
      if (waitMs > (this.options.maxRetryAfterMs ?? 30_000)) {
        return this.fail(alertKey, attempt, `${outcome.reason} (asked to wait ${Math.ceil(waitMs / 1000)} s)`);
      }
      if (attempt >= maxAttempts) return this.fail(alertKey, attempt, `${outcome.reason} (${attempt} attempts)`);
      await this.settle(alertKey, attempt, 'retrying', outcome.reason);
      await this.options.sleep(waitMs, this.stopping.signal);
      if (this.stopping.signal.aborted) return this.fail(alertKey, attempt, `${outcome.reason}; not posted again: the runner stopped`);
    }
  }

  private async fail(alertKey: string, attempts: number, reason: string): Promise<void> {
    if (!this.failing) {
      this.options.notify(
        'warn',
        `${this.channel.name} did not take the alert ${alertKey}: ${reason}; ` +
          `\`npm start -- history\` shows each alert's delivery (said once until ${this.channel.name} takes one again)`,
      );
    }
    this.failing = true;
    await this.settle(alertKey, attempts, 'failed', reason);
  }

  private async settle(alertKey: string, attempts: number, state: ChatDelivery['state'], reason?: string): Promise<void> {
    const delivery: ChatDelivery = { state, attempts, at: this.options.now(), ...(reason !== undefined ? { reason } : {}) };
    try {
      await this.options.log.record(alertKey, this.channel.name, delivery);
    } catch (error) {
      // The record is for the history; failing to keep it must not stop the posts.
      this.options.notify('warn', `could not record the ${this.channel.name} delivery of ${alertKey}: ${(error as Error).message}`);
    }
  }
}

function maybePosted(outcome: Exclude<ChatPostOutcome, { kind: 'sent' }>, channel: string): string {
  if (outcome.kind !== 'unanswered') return outcome.reason;
  return `${outcome.reason}: it may or may not be in ${channel}, and is not posted again so that it is never there twice`;
}
