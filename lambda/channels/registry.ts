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

const CHANNEL_LIST = Object.values(chatChannels) as AnyChatChannel[];
const KNOWN = new Set(CHANNEL_LIST.flatMap((channel) => channel.variables));

/**
 * Variables set with a channel's prefix (`SLACK_`, `DISCORD_`, `TELEGRAM_`, `PAGERDUTY_`) that no channel reads:
 * a misspelling would otherwise leave the channel off without a word. Each names the variable meant (the one
 * of that channel sharing most words with it); never the value, which may be the secret.
 */
export function channelVariableNearMisses(env: Readonly<Record<string, string | undefined>>): string[] {
  const warnings: string[] = [];
  for (const name of Object.keys(env).sort()) {
    if (KNOWN.has(name) || !env[name]) continue;
    const prefix = name.split('_')[0];
    const candidates = [...KNOWN].filter((known) => known.split('_')[0] === prefix);
    if (candidates.length === 0) continue;
    const words = new Set(name.split('_'));
    const shared = (known: string) => known.split('_').filter((word) => words.has(word)).length;
    const meant = candidates.reduce((best, known) => (shared(known) > shared(best) ? known : best));
    warnings.push(`${name} is set, but no chat channel reads it: did you mean ${meant}?`);
  }
  return warnings;
}

/**
 * The chat channels for `--check` and `--help`: those on and the host each posts to (a webhook's path, a bot
 * token or a routing key is the secret: never shown), or the variables that turn one on; then any near miss.
 */
export function describeChatChannels(env: Readonly<Record<string, string | undefined>>): string {
  const on: string[] = [];
  const wrong: string[] = [];
  for (const channel of CHANNEL_LIST) {
    try {
      // Every channel's settings carry the URL it posts to.
      const settings = channel.fromEnv(env) as { url: string } | null;
      if (settings) on.push(`${channel.name} posts to ${new URL(settings.url).host}`);
    } catch (error) {
      wrong.push(`  ${channel.name}: ${(error as Error).message}`);
    }
  }
  const first =
    on.length > 0 || wrong.length > 0
      ? `Chat: ${on.length > 0 ? on.join(', ') : 'none on'}`
      : `Chat: none (each is turned on by its variables, e.g. ${CHANNEL_LIST.map((channel) => channel.variables[0]).join(', ')}: docs/chat-channels.md)`;
  return [first, ...wrong, ...channelVariableNearMisses(env).map((warning) => `  ${warning}`)].join('\n') + '\n';
}
