// The chat notifier: one per chat channel declared in the deploy settings, subscribed to the alerts topic with
// that channel's filter policy. Each SNS record's message is the alert JSON; it is posted to the channel (with
// retries on 429 and 5xx, chat-sender.ts). A record that fails does not stop the others; the invocation then
// fails, Lambda retries it, and what keeps failing lands in the dead-letter queue, which pages the operator.
import { Logger } from '@aws-lambda-powertools/logger';
import { getParameter } from '@aws-lambda-powertools/parameters/ssm';
import type { SNSEvent } from 'aws-lambda';
import type { Alert } from '../core/alert-kinds/alert';
import { ALERT_TYPES } from '../core/alert-kinds/registry';
import { chatView } from '../channels/chat-view';
import { chatChannels } from '../channels/registry';
import type { AnyChatChannel } from '../channels/channel';
import { sendChat, type ChatSendOptions } from '../adapters/chat/chat-sender';
import { channelSettings } from './channel-secret';

/** The secret is read at most this often per container. */
const SECRET_MAX_AGE_SECONDS = 300;

const logger = new Logger({ serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'stacks-watch-notifier' });

export interface NotifierDeps {
  readSecret: (name: string) => Promise<string | undefined>;
  send?: ChatSendOptions;
}

const defaults: NotifierDeps = { readSecret: (name) => getParameter(name, { decrypt: true, maxAge: SECRET_MAX_AGE_SECONDS }) };

function parseAlert(message: string): Alert {
  const value = JSON.parse(message) as { type?: unknown; key?: unknown };
  if (typeof value !== 'object' || value === null || typeof value.key !== 'string' || !(ALERT_TYPES as readonly unknown[]).includes(value.type)) {
    throw new Error('the message is not a stacks-watch alert');
  }
  return value as Alert;
}

export async function notify(event: SNSEvent, deps: NotifierDeps = defaults, env = process.env): Promise<{ posted: number; skipped: number }> {
  const channel = chatChannels[env.CHAT_CHANNEL as keyof typeof chatChannels] as AnyChatChannel | undefined;
  const parameterName = env.CHAT_PARAMETER;
  if (!channel || !parameterName) throw new Error('CHAT_CHANNEL and CHAT_PARAMETER must name a chat channel and its SSM parameter');
  const secret = await deps.readSecret(parameterName);
  if (!secret) throw new Error(`the parameter ${parameterName} is empty or missing`);
  const settings = channelSettings(channel, secret, parameterName);
  const failures: string[] = [];
  let posted = 0;
  let skipped = 0;
  for (const record of event.Records) {
    try {
      const alert = parseAlert(record.Sns.Message);
      const request = channel.request(chatView(alert), settings);
      if (!request) {
        skipped += 1;
        continue;
      }
      const result = await sendChat(request, deps.send);
      if (result.ok) posted += 1;
      else failures.push(`${alert.key}: ${result.reason}`);
    } catch (error) {
      failures.push(`${record.Sns.MessageId}: ${(error as Error).message}`);
    }
  }
  if (failures.length > 0) {
    logger.error(`${channel.name} did not take ${failures.length} alert(s)`, { failures });
    throw new Error(`${channel.name} did not take ${failures.length} alert(s): ${failures.slice(0, 3).join('; ')}`);
  }
  logger.info('posted', { channel: channel.name, posted, skipped });
  return { posted, skipped };
}

export const handler = (event: SNSEvent) => notify(event);
