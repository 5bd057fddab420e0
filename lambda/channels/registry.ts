// Every chat channel, by name. A new one is a module beside these and one line here; the mapped type makes a
// channel missing a part a compile error.
import type { AnyChatChannel, ChatRequest } from './channel';
import type { ChatView } from './chat-view';
import { discordChannel } from './discord';
import { pagerDutyChannel } from './pagerduty';
import { slackChannel } from './slack';
import { telegramChannel } from './telegram';

export const chatChannels = {
  slack: slackChannel,
  discord: discordChannel,
  telegram: telegramChannel,
  pagerduty: pagerDutyChannel,
} satisfies Record<string, AnyChatChannel>;

/** A channel with its settings, ready to take alerts. */
export interface ConfiguredChannel {
  name: string;
  request: (view: ChatView) => ChatRequest | null;
  /** The service de-duplicates a post sent twice, so a post left without an answer may be sent again. */
  repeatSafe: boolean;
}

/** The channels whose variables are set, each with its settings read (a bad value throws ChatSettingsError). */
export function channelsFromEnv(env: Readonly<Record<string, string | undefined>>): ConfiguredChannel[] {
  const configured: ConfiguredChannel[] = [];
  for (const channel of Object.values(chatChannels) as AnyChatChannel[]) {
    const settings = channel.fromEnv(env);
    if (settings !== null) configured.push({ name: channel.name, request: (view) => channel.request(view, settings), repeatSafe: channel.repeatSafe === true });
  }
  return configured;
}
