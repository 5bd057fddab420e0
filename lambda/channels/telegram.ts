// Telegram Bot API `sendMessage` (a bot token and a chat id), `parse_mode` HTML with every string escaped, at
// most 4,096 characters; link previews off, so an explorer link does not pull in a card. A URL or domain name
// written on chain is `<code>`, which Telegram does not link (it links bare names like `evil.example` too).
import type { ChatView } from './chat-view';
import { fit, type TextFormat } from './chat-text';
import { ChatSettingsError, serviceUrl, type ChatChannel } from './channel';

const TEXT_MAX = 4_096;
const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const HTML: TextFormat = { plain: escape, inert: (text) => `<code>${escape(text)}</code>` };

const CUT_MARKER = "… (cut: the whole alert is in the watcher's output)";
/** A field's value is never cut shorter than this: past it, the rest of the fields give way to the marker. */
const VALUE_MIN = 100;

/** A line of HTML from plain parts, each cut before it is rendered: a cut inside a tag or an entity would make Telegram refuse the message. */
const line = (label: string, value: string, max: number) => {
  const head = `<b>${fit(label, 200, HTML)}</b>: `;
  return `${head}${fit(value, Math.max(0, max - head.length), HTML)}`;
};

function html(view: ChatView): string {
  const link = view.link ? ['', `<a href="${escape(view.link)}">Open in the explorer</a>`] : [];
  const head = [line(view.level, view.title, 1_000), `Rule: ${fit(view.rule, 1_000, HTML)}`, ''];
  let left = TEXT_MAX - [...head, ...link, CUT_MARKER].join('\n').length - 1;
  const body: string[] = [];
  const cutShort = () => [...head, ...body, CUT_MARKER, ...link].join('\n');
  for (const [label, value] of view.fields) {
    if (left < VALUE_MIN) return cutShort();
    const fitted = line(label, value, left);
    if (fitted.length > left) return cutShort();
    body.push(fitted);
    left -= fitted.length + 1;
    if (fitted !== line(label, value, Infinity)) return cutShort();
  }
  return [...head, ...body, ...link].join('\n');
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
