// Discord webhook: one embed (title ≤ 256, description ≤ 4,096, ≤ 25 fields of ≤ 256 / 1,024), coloured by
// severity, with `allowed_mentions` empty so that no on-chain text can ping @everyone, a role or a user.
import { cut, type ChatView } from './chat-view';
import { serviceUrl, type ChatChannel } from './channel';
import type { Severity } from '../core/rule-meta';

const COLOURS: Record<Severity, number> = { critical: 0xd32f2f, warning: 0xf9a825, info: 0x1976d2 };
/** Markdown Discord would act on: shown as typed, not as formatting. */
const escape = (text: string) => text.replace(/([\\*_~`|>\[\]()#-])/g, '\\$1');

export const discordChannel = {
  name: 'discord',
  variables: ['DISCORD_WEBHOOK_URL'],
  fromEnv: (env) => (env.DISCORD_WEBHOOK_URL ? { url: serviceUrl(env.DISCORD_WEBHOOK_URL, 'DISCORD_WEBHOOK_URL').href } : null),
  request(view, { url }) {
    return {
      url,
      body: {
        allowed_mentions: { parse: [] },
        embeds: [
          {
            title: cut(`${view.level}: ${view.title}`, 256),
            description: cut(`Rule: ${escape(view.rule)}`, 4_096),
            color: COLOURS[view.severity],
            ...(view.link ? { url: view.link } : {}),
            fields: view.fields.slice(0, 25).map(([name, value]) => ({ name: cut(name, 256), value: cut(escape(value), 1_024) || '-' })),
          },
        ],
      },
    };
  },
} satisfies ChatChannel<{ url: string }>;
