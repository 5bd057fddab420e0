// Chat channels of the deployed stack, from the `chat` setting (deploy.json or -c): a JSON array of
// {"slack" | "discord" | "telegram" | "pagerduty": "ssm:/parameter/name", "types"?, "severities"?, ...}.
// The webhook URL, bot token or routing key lives in that SSM SecureString parameter, never in the settings,
// the template or the function's environment; the filter keys route alerts to the channel as they do for a
// subscription.
import { z } from 'zod';
import { chatChannels } from '../../lambda/channels/registry';
import { type AlertFilter, MAX_FILTER_COMBINATIONS, routedCombinations } from '../alert-filter-policy';
import { filterFields } from './alert-subscriptions';
import { jsonValue } from './context-values';

export type ChatChannelName = keyof typeof chatChannels;
const CHANNEL_NAMES = Object.keys(chatChannels) as ChatChannelName[];

export interface ChatSubscription {
  channel: ChatChannelName;
  /** The SSM parameter holding the channel's secret (its variables, see docs/chat-channels.md). */
  parameterName: string;
  filter: AlertFilter;
}

const parameterRef = z
  .string()
  .regex(/^ssm:\/[A-Za-z0-9_.\-/]{1,1000}$/, { error: 'must name an SSM parameter as "ssm:/path/name" (letters, digits, _ . - /)' });

const chatEntry = z
  .strictObject(
    { ...Object.fromEntries(CHANNEL_NAMES.map((name) => [name, parameterRef.optional()])), ...filterFields },
    {
      error: `each entry must be an object like {"slack": "ssm:/stacks-watch/slack", "severities": ["critical"]}; the channels are ${CHANNEL_NAMES.join(', ')}`,
    },
  )
  .superRefine((entry, ctx) => {
    const named = CHANNEL_NAMES.filter((name) => (entry as Record<string, unknown>)[name] !== undefined);
    if (named.length !== 1) ctx.addIssue({ code: 'custom', message: `needs exactly one of ${CHANNEL_NAMES.map((n) => `"${n}"`).join(', ')}` });
    const combinations = routedCombinations(entry as AlertFilter, 'https');
    if (combinations > MAX_FILTER_COMBINATIONS) {
      ctx.addIssue({
        code: 'custom',
        message: `its filter has ${combinations} combinations of values, over the SNS limit of ${MAX_FILTER_COMBINATIONS}; list fewer values`,
      });
    }
  });

export const chatContext = {
  chat: jsonValue(
    z.array(chatEntry, { error: 'must be a JSON array of {"slack"|"discord"|"telegram"|"pagerduty": "ssm:/...", "types"?, "severities"?, ...}' }),
  ).default([]),
};

/** The chat subscriptions, or the problems with them: one parameter used by two channels is one. */
export function chatSubscriptions(entries: readonly z.infer<typeof chatEntry>[]): { chat: ChatSubscription[]; problems: string[] } {
  const chat = entries.map((entry): ChatSubscription => {
    const record = entry as Record<string, unknown>;
    const channel = CHANNEL_NAMES.find((name) => record[name] !== undefined)!;
    const { types, networks, severities, contracts, addresses } = entry;
    const filter: AlertFilter = {
      ...(types ? { types } : {}),
      ...(networks ? { networks } : {}),
      ...(severities ? { severities } : {}),
      ...(contracts ? { contracts } : {}),
      ...(addresses ? { addresses } : {}),
    };
    return { channel, parameterName: (record[channel] as string).slice('ssm:'.length), filter };
  });
  const seen = new Set<string>();
  const problems: string[] = [];
  for (const { channel, parameterName } of chat) {
    const key = `${channel}:${parameterName}`;
    if (seen.has(key)) problems.push(`chat lists ${channel} with ${parameterName} twice; keep one entry (with the filter you want)`);
    seen.add(key);
  }
  return { chat, problems };
}
