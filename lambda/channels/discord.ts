// Discord webhook: one embed (title ≤ 256, description ≤ 4,096, ≤ 25 fields of ≤ 256 / 1,024, and 6,000 in all),
// coloured by severity, with `allowed_mentions` empty so that no on-chain text can ping @everyone, a role or a
// user. Markdown characters are escaped; a URL written on chain is a code span, which Discord does not link.
import { cut, type ChatView } from './chat-view';
import { fit, type TextFormat } from './chat-text';
import { serviceUrl, type ChatChannel } from './channel';
import type { Severity } from '../core/stages/rule-meta';

const COLOURS: Record<Severity, number> = { critical: 0xd32f2f, warning: 0xf9a825, info: 0x1976d2 };
/** Markdown Discord would act on: shown as typed, not as formatting. */
const escape = (text: string) => text.replace(/([\\*_~`|>[\]()#-])/g, '\\$1');
const MARKDOWN: TextFormat = { plain: escape, inert: (text) => `\`${text}\`` };
/** Discord refuses the whole message when an embed's title, description and fields add up to more. */
const EMBED_TOTAL_MAX = 6_000;
/** A field cut shorter than this says too little: it and the rest give way to a marker field. */
const FIELD_VALUE_MIN = 40;

type EmbedField = { name: string; value: string };

/** The fields that fit in what the title and description leave, the last one cut, then a marker if any were left out. */
function fieldsWithin(fields: ChatView['fields'], budget: number): EmbedField[] {
  const fitted: EmbedField[] = [];
  const marker: EmbedField = { name: '…', value: 'more in the explorer' };
  let left = budget - marker.name.length - marker.value.length;
  for (const [index, [label, value]] of fields.slice(0, 25).entries()) {
    if (index === 24 && fields.length > 25) return [...fitted, marker];
    const name = cut(label, 256);
    const room = Math.min(1_024, left - name.length);
    if (room < FIELD_VALUE_MIN) return [...fitted, marker];
    const field = { name, value: fit(value, room, MARKDOWN) || '-' };
    fitted.push(field);
    left -= field.name.length + field.value.length;
  }
  return fitted;
}

export const discordChannel = {
  name: 'discord',
  variables: ['DISCORD_WEBHOOK_URL'],
  fromEnv: (env) => (env.DISCORD_WEBHOOK_URL ? { url: serviceUrl(env.DISCORD_WEBHOOK_URL, 'DISCORD_WEBHOOK_URL').href } : null),
  request(view, { url }) {
    // A title is the embed's link to the explorer: Discord renders no markdown and links nothing else in it.
    const title = cut(`${view.level}: ${view.title}`, 256);
    const description = `Rule: ${fit(view.rule, 4_000, MARKDOWN)}`;
    return {
      url,
      body: {
        allowed_mentions: { parse: [] },
        embeds: [
          {
            title,
            description,
            color: COLOURS[view.severity],
            ...(view.link ? { url: view.link } : {}),
            fields: fieldsWithin(view.fields, EMBED_TOTAL_MAX - title.length - description.length),
          },
        ],
      },
    };
  },
} satisfies ChatChannel<{ url: string }>;
