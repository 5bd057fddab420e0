// Telegram Bot API `sendMessage` (a bot token and a chat id), `parse_mode` HTML with every string escaped, at
// most 4,096 characters; link previews off, so an explorer link does not pull in a card.
import { cut, type ChatView } from './chat-view';
import { ChatSettingsError, serviceUrl, type ChatChannel } from './channel';

const TEXT_MAX = 4_096;
const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function html(view: ChatView): string {
  const lines = [`<b>${escape(view.level)}</b>: ${escape(view.title)}`, `Rule: ${escape(view.rule)}`, ''];
  for (const [label, value] of view.fields) lines.push(`<b>${escape(label)}</b>: ${escape(value)}`);
  if (view.link) lines.push('', `<a href="${escape(view.link)}">Open in the explorer</a>`);
  const text = lines.join('\n');
  // Cut on plain text only: a cut inside a tag or an entity would make Telegram refuse the message.
  return text.length <= TEXT_MAX ? text : `${escape(cut(lines.slice(0, 2).join('\n').replace(/<[^>]+>/g, ''), 200))}\n… (cut: the whole alert is in the watcher's output)`;
}

export const telegramChannel = {
  name: 'telegram',
  variables: ['TELEGRAM_BOT_TOKEN', 'TELEGRAM_CHAT_ID', 'TELEGRAM_API_URL'],
  fromEnv(env) {
    if (!env.TELEGRAM_BOT_TOKEN && !env.TELEGRAM_CHAT_ID) return null;
    if (!env.TELEGRAM_BOT_TOKEN || !env.TELEGRAM_CHAT_ID) throw new ChatSettingsError('Telegram needs both TELEGRAM_BOT_TOKEN and TELEGRAM_CHAT_ID');
    const base = serviceUrl(env.TELEGRAM_API_URL ?? 'https://api.telegram.org', 'TELEGRAM_API_URL');
    // Built as text: resolved as a relative URL, `bot123:ABC` would read as a scheme.
    return { url: `${base.href.replace(/\/$/, '')}/bot${env.TELEGRAM_BOT_TOKEN}/sendMessage`, chatId: env.TELEGRAM_CHAT_ID };
  },
  request: (view, { url, chatId }) => ({ url, body: { chat_id: chatId, text: html(view), parse_mode: 'HTML', disable_web_page_preview: true } }),
} satisfies ChatChannel<{ url: string; chatId: string }>;
