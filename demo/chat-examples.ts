// The examples of docs/chat-channels.md: for each family of alert, the exact body each chat channel gets,
// made by the channels' own code from the registry's sample of that kind (the alerts the registry test renders
// in every form). `npm run docs:alerts` writes them between the markers below; test/docs/chat-examples.test.ts
// fails while the doc holds anything else, so the doc never shows a body the code does not send.
import type { Alert, AlertType } from '../lambda/core/alert-kinds/alert';
import { alertKinds } from '../lambda/core/alert-kinds/registry';
import { chatView } from '../lambda/channels/chat-view';
import { channelsFromEnv } from '../lambda/channels/registry';

export const START = '<!-- chat examples: written by `npm run docs:alerts`, do not edit by hand -->';
export const END = '<!-- end of chat examples -->';

/** Placeholder settings, so that each channel's payload can be shown (no request is sent). */
export const EXAMPLE_CHANNELS = channelsFromEnv({
  SLACK_WEBHOOK_URL: 'https://hooks.slack.com/services/T000/B000/XXXX',
  DISCORD_WEBHOOK_URL: 'https://discord.com/api/webhooks/000/XXXX',
  TELEGRAM_BOT_TOKEN: '000:XXXX',
  TELEGRAM_CHAT_ID: '-100000',
  PAGERDUTY_ROUTING_KEY: 'XXXX',
  PAGERDUTY_MIN_SEVERITY: 'info',
});

const sample = (type: AlertType) => alertKinds[type].sample as Alert;

/** What a contract printed in the log example: a string-ascii anyone can write, here with a URL in it. */
const PRINTED = 'claim your reward at https://evil.example/claim';
/** A Clarity string-ascii, serialized: its type byte, its length in 4 bytes, its bytes. */
const asciiHex = (text: string) => `0x0d${text.length.toString(16).padStart(8, '0')}${Buffer.from(text, 'ascii').toString('hex')}`;

/** One alert of each family, named as a reader would look for it. */
const FAMILIES: readonly [title: string, alert: () => Alert][] = [
  ['STX received by a watched address', () => sample('token_transfer')],
  ['A token movement (sBTC, with its decimals)', () => sample('ft_transfer')],
  ['An NFT movement', () => sample('nft_transfer')],
  ['A failed call to a watched contract', () => sample('contract_call')],
  [
    'A log of a watched contract, from a rule without a name, its text holding a URL',
    () => ({ ...sample('contract_log'), value_repr: JSON.stringify(PRINTED), value_hex: asciiHex(PRINTED), value: PRINTED }) as Alert,
  ],
  ['A balance below its threshold', () => sample('balance_threshold')],
  ['A window crossing', () => sample('window_threshold')],
  ["A contract's deployment status", () => sample('contract_status')],
  ['A call waiting in the mempool', () => sample('pending_call')],
  ['What a cooldown held back', () => sample('cooldown_summary')],
  ['A retraction after a reorg', () => sample('retraction')],
  ['A deep reorg (for the operator)', () => sample('deep_reorg')],
];

function family(title: string, alert: Alert): string[] {
  const view = chatView(alert);
  const bodies = EXAMPLE_CHANNELS.flatMap((channel) => {
    const request = channel.request(view);
    return request === null
      ? []
      : [`<details><summary>${channel.name}</summary>`, '', '```json', JSON.stringify(request.body, null, 2), '```', '', '</details>', ''];
  });
  return [`### ${title} (\`${alert.type}\`)`, '', ...bodies];
}

/** The section between the markers. */
export function chatExamples(): string {
  return FAMILIES.flatMap(([title, alert]) => family(title, alert())).join('\n');
}

/** `doc` with its examples replaced by what the channels send today; throws when it has no markers. */
export function withChatExamples(doc: string): string {
  const start = doc.indexOf(START);
  const end = doc.indexOf(END);
  if (start < 0 || end < start) throw new Error(`docs/chat-channels.md has no "${START}" … "${END}" markers`);
  return `${doc.slice(0, start + START.length)}\n\n${chatExamples()}\n${doc.slice(end)}`;
}
