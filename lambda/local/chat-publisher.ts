// Chat channels from `npm start`: each alert goes to stdout (or SNS) first, as ever, so none is lost, then to
// every channel whose variables are set (SLACK_WEBHOOK_URL, DISCORD_WEBHOOK_URL, TELEGRAM_BOT_TOKEN +
// TELEGRAM_CHAT_ID, PAGERDUTY_ROUTING_KEY). A channel that refuses or fails is logged with its answer and
// does not stop the watcher: the alert is already out.
import type { OnAccepted, PublishOutcome, Publisher, Telemetry } from '../core/ports';
import type { OutgoingAlert } from '../core/outgoing-alert';
import { chatView } from '../channels/chat-view';
import type { ConfiguredChannel } from '../channels/registry';
import type { ChatRequest } from '../channels/channel';
import type { ChatSendResult } from '../adapters/chat/chat-sender';

export function withChatChannels(
  inner: Publisher,
  channels: readonly ConfiguredChannel[],
  send: (request: ChatRequest) => Promise<ChatSendResult>,
  log: Telemetry['log'],
): Publisher {
  return {
    async publish(alerts: readonly OutgoingAlert[], onAccepted?: OnAccepted): Promise<PublishOutcome> {
      const outcome = await inner.publish(alerts, onAccepted);
      const notOut = new Set([...outcome.failed, ...outcome.undeliverable].map((f) => f.key));
      for (const { alert } of alerts) {
        // The digest is for phones only; an alert that did not go out is not posted either.
        if (alert.type === 'sms_digest' || notOut.has(alert.key)) continue;
        const view = chatView(alert);
        for (const channel of channels) {
          const request = channel.request(view);
          if (!request) continue;
          const result = await send(request);
          if (!result.ok) log('warn', `${channel.name} did not take the alert ${alert.key}: ${result.reason}`, { attempts: result.attempts });
        }
      }
      return outcome;
    },
    fallingBehind: () => inner.fallingBehind?.(),
  };
}
