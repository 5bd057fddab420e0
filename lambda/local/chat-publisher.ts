// Chat channels from `npm start`: each alert goes to stdout (or SNS) first, as ever, so none is lost, then is
// handed to the queue of every channel whose variables are set (SLACK_WEBHOOK_URL, DISCORD_WEBHOOK_URL,
// TELEGRAM_BOT_TOKEN + TELEGRAM_CHAT_ID, PAGERDUTY_ROUTING_KEY). Each queue posts in the background
// (adapters/chat/channel-queue.ts): the cycle never waits on a chat service, and one slow service holds back
// no other. Each channel's delivery of each alert is recorded (sent, retrying, failed with the reason) for
// `npm start -- history`; on exit the queues get a bounded time to drain, and what is left is recorded as not posted.
import type { OnAccepted, PublishOutcome, Publisher, Telemetry } from '../core/ports';
import type { OutgoingAlert } from '../core/deliver/outgoing-alert';
import { chatView } from '../channels/chat-view';
import type { ConfiguredChannel } from '../channels/registry';
import type { ChatDeliveryLog } from '../adapters/chat/chat-delivery';
import { postChat } from '../adapters/chat/chat-sender';
import { ChannelQueue, type ChannelQueueOptions } from '../adapters/chat/channel-queue';
import { boundChainFields } from '../core/render/chain-fields';
import { sleepUnlessAborted } from '../core/shared-abort';

/** How long a post waits for its answer. */
export const CHAT_POST_TIMEOUT_MS = 10_000;
/** How long the queues get to empty when the runner stops, before what is left is recorded as not posted. */
export const CHAT_DRAIN_MS = 10_000;

export interface ChatPublisher extends Publisher {
  /** Waits (up to `ms`) for every channel's queue to empty, then records what is left as not posted. */
  drain(ms?: number): Promise<void>;
  /** Resolves when every queue is empty (tests). */
  idle(): Promise<void>;
  /** Records failed what a stopped runner left queued or retrying, said once per channel (done by the first publish). */
  reportUnfinished(): Promise<void>;
}

export type ChatQueueSettings = Partial<Omit<ChannelQueueOptions, 'log' | 'notify'>> & { timeoutMs?: number; fetch?: typeof fetch };

/** A wait that the runner's stop ends early; nothing of it stays on the stop signal, so a long run does not pile them up. */
const abortableSleep = (ms: number, stop: AbortSignal) => sleepUnlessAborted(ms, stop).catch(() => {});

export function withChatChannels(
  inner: Publisher,
  channels: readonly ConfiguredChannel[],
  deliveries: ChatDeliveryLog,
  log: Telemetry['log'],
  settings: ChatQueueSettings = {},
): ChatPublisher {
  const timeoutMs = settings.timeoutMs ?? CHAT_POST_TIMEOUT_MS;
  const queues = channels.map((channel) => ({
    channel,
    queue: new ChannelQueue(
      { name: channel.name, repeatSafe: channel.repeatSafe },
      {
        post: (request, stop) => postChat(request, { timeoutMs, stop, ...(settings.fetch ? { fetch: settings.fetch } : {}) }),
        now: Date.now,
        sleep: abortableSleep,
        ...settings,
        log: deliveries,
        notify: (level, message) => log(level, message),
      },
    ),
  }));
  // Once, at the first publish: a cycle publishes holding the state's lock, so what is left is no live runner's.
  let leftovers: Promise<void> | undefined;
  const reportOnce = () => (leftovers ??= reportUnfinished(deliveries, log));
  return {
    async publish(alerts: readonly OutgoingAlert[], onAccepted?: OnAccepted): Promise<PublishOutcome> {
      const outcome = await inner.publish(alerts, onAccepted);
      await reportOnce();
      const notOut = new Set([...outcome.failed, ...outcome.undeliverable].map((f) => f.key));
      for (const { alert } of alerts) {
        // The digest is for phones only; an alert that did not go out is not posted either.
        if (alert.type === 'sms_digest' || notOut.has(alert.key)) continue;
        // Worded from the chain's texts as bounded for every output (a 300 KB call argument reads as its start).
        const view = chatView(boundChainFields(alert));
        for (const { channel, queue } of queues) {
          const request = channel.request(view);
          if (request) await queue.enqueue(alert.key, request);
        }
      }
      return outcome;
    },
    fallingBehind: () => inner.fallingBehind?.(),
    async drain(ms = CHAT_DRAIN_MS) {
      const left = await Promise.all(queues.map(async ({ channel, queue }) => [channel.name, await queue.drain(ms)] as const));
      for (const [name, count] of left) {
        if (count > 0)
          log(
            'warn',
            `${count} alert${count === 1 ? '' : 's'} not posted to ${name}: it did not take them within ${ms / 1000} s of stopping (\`npm start -- history\` lists them)`,
          );
      }
    },
    async idle() {
      await Promise.all(queues.map(({ queue }) => queue.idle()));
    },
    reportUnfinished: reportOnce,
  };
}

/** Deliveries a stopped runner left queued or retrying: recorded failed, and said once per channel. */
export async function reportUnfinished(deliveries: ChatDeliveryLog, log: Telemetry['log'], now = Date.now()): Promise<void> {
  const left = await deliveries.unfinished();
  const perChannel = new Map<string, number>();
  for (const { alertKey, channel, delivery } of left) {
    const reason =
      delivery.attempts > 0 ? 'the runner stopped while it was being posted: it may or may not be in the channel' : 'the runner stopped before it was posted';
    await deliveries.record(alertKey, channel, { state: 'failed', attempts: delivery.attempts, at: now, reason });
    perChannel.set(channel, (perChannel.get(channel) ?? 0) + 1);
  }
  for (const [channel, count] of perChannel) {
    log(
      'warn',
      `${count} alert${count === 1 ? ' was' : 's were'} left unposted to ${channel} by the last run: recorded as failed (\`npm start -- history\` lists them)`,
    );
  }
}
