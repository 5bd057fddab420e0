// A chat channel's settings from its SSM SecureString parameter: either the channel's variables as a JSON
// object ({"TELEGRAM_BOT_TOKEN": "…", "TELEGRAM_CHAT_ID": "…"}), or for a channel configured by one value
// (a Slack or Discord webhook URL, a PagerDuty routing key) that value alone. The value is never logged.
import type { AnyChatChannel } from '../channels/channel';
import { ChatSettingsError } from '../channels/channel';

export function channelSettings(channel: AnyChatChannel, secret: string, parameterName: string): unknown {
  const text = secret.trim();
  let variables: Record<string, string | undefined>;
  if (text.startsWith('{')) {
    try {
      variables = JSON.parse(text) as Record<string, string | undefined>;
    } catch {
      throw new ChatSettingsError(`the parameter ${parameterName} starts like JSON but is not JSON`);
    }
  } else {
    variables = { [channel.variables[0]!]: text };
  }
  const settings = channel.fromEnv(variables);
  if (settings === null) {
    throw new ChatSettingsError(`the parameter ${parameterName} does not configure ${channel.name}: set ${channel.variables.join(' and/or ')}`);
  }
  return settings;
}
