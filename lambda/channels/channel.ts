// A chat channel: how one service (Slack, Discord, Telegram, PagerDuty) is configured from the environment,
// and the exact HTTP request it takes for an alert, under that service's limits. Registered in registry.ts;
// the compiler rejects a channel missing a part.
import type { ChatView } from './chat-view';
import { EnvironmentError } from '../runtime/api-env';

/** One POST of JSON to a service. */
export interface ChatRequest {
  url: string;
  body: Record<string, unknown>;
}

export interface ChatChannel<Settings> {
  name: string;
  /** The environment variables that turn the channel on, for messages. */
  variables: readonly string[];
  /** The channel's settings from the environment, or null when it is not configured. Throws on a bad value. */
  fromEnv(env: Readonly<Record<string, string | undefined>>): Settings | null;
  /** The service de-duplicates a repeated post (PagerDuty's dedup_key): one left without an answer may be sent again. */
  repeatSafe?: true;
  /** The request for one alert, or null when this channel does not take it (PagerDuty below its severity). */
  request(view: ChatView, settings: Settings): ChatRequest | null;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyChatChannel = ChatChannel<any>;

/** A channel variable that is set but wrong: the runner says which and exits before watching. */
export class ChatSettingsError extends EnvironmentError {
  override name = 'ChatSettingsError';
}

/** A URL the channel may post to: https, or http to this machine only (a test's stand-in). */
export function serviceUrl(value: string, variable: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ChatSettingsError(`${variable} is not a URL`);
  }
  const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) {
    throw new ChatSettingsError(`${variable} must be an https:// URL (http:// only for 127.0.0.1 or localhost)`);
  }
  return url;
}
