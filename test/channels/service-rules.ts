// What each chat service refuses, as its API documents it, so that a stand-in answers an over-limit or
// malformed body as the service would (a 400 with the service's words) instead of taking anything.
// Slack: Block Kit (≤ 50 blocks, a header's plain_text ≤ 150, a mrkdwn text ≤ 3,000, a button's text ≤ 75 and
// url ≤ 3,000, the message `text` ≤ 40,000). Discord: an embed's title ≤ 256, description ≤ 4,096, ≤ 25 fields
// of name ≤ 256 and value ≤ 1,024, 6,000 in all. Telegram sendMessage: HTML that parses (known tags, balanced,
// entities), 1-4,096 characters once parsed. PagerDuty Events API v2: summary 1-1,024, source ≤ 255, dedup_key
// ≤ 255, the whole event ≤ 512 KB.
import type { Answer } from './stand-in';

type Body = Record<string, unknown>;
type Rule = (body: Body) => string | null;

const refuse = (status: number, body: string): Answer => ({ status, body });
const over = (text: unknown, max: number) => typeof text !== 'string' || text.length === 0 || text.length > max;

const slack: Rule = (body) => {
  if (typeof body.text === 'string' && body.text.length > 40_000) return 'msg_too_long';
  const blocks = (body.blocks ?? []) as { type: string; text?: { type: string; text: string }; elements?: Record<string, unknown>[] }[];
  if (blocks.length > 50) return 'invalid_blocks: must be less than 51 items';
  for (const block of blocks) {
    if (block.type === 'header' && over(block.text?.text, 150)) return 'invalid_blocks: header text must be less than 151 characters';
    if (block.type === 'section' && over(block.text?.text, 3_000)) return 'invalid_blocks: section text must be less than 3001 characters';
    for (const element of block.elements ?? []) {
      if (element.type === 'mrkdwn' && over(element.text, 3_000)) return 'invalid_blocks: context text must be less than 3001 characters';
      if (element.type === 'button' && (over((element.text as { text: string }).text, 75) || over(element.url, 3_000))) return 'invalid_blocks: button';
    }
  }
  return null;
};

const discord: Rule = (body) => {
  const embeds = (body.embeds ?? []) as { title?: string; description?: string; fields?: { name: string; value: string }[] }[];
  for (const embed of embeds) {
    const fields = embed.fields ?? [];
    const total = (embed.title ?? '').length + (embed.description ?? '').length + fields.reduce((sum, f) => sum + f.name.length + f.value.length, 0);
    if ((embed.title ?? '').length > 256 || (embed.description ?? '').length > 4_096 || fields.length > 25 || total > 6_000) return 'Invalid Form Body';
    if (fields.some((f) => over(f.name, 256) || over(f.value, 1_024))) return 'Invalid Form Body';
  }
  return null;
};

const TELEGRAM_TAGS = new Set(['b', 'strong', 'i', 'em', 'u', 'ins', 's', 'strike', 'del', 'a', 'code', 'pre', 'tg-spoiler', 'blockquote']);

/** The text Telegram shows for an HTML message, or why it cannot parse it. */
export function telegramText(html: string): { text: string } | { error: string } {
  const open: string[] = [];
  let text = '';
  for (const token of html.match(/<[^>]*>|&[^;\s]*;|&|[^<&]+/g) ?? []) {
    if (token.startsWith('<')) {
      const tag = /^<(\/?)([a-z-]+)(\s[^>]*)?>$/.exec(token);
      if (!tag || !TELEGRAM_TAGS.has(tag[2]!)) return { error: `can't parse entities: unsupported start tag "${token}"` };
      if (tag[1] === '/') {
        if (open.pop() !== tag[2]) return { error: `can't parse entities: unexpected end tag "${token}"` };
      } else open.push(tag[2]!);
    } else if (token.startsWith('&')) {
      const entity = /^&(lt|gt|amp|quot|#\d+|#x[0-9a-f]+);$/i.exec(token);
      if (!entity) return { error: `can't parse entities: unsupported entity "${token}"` };
      text += entity[1] === 'lt' ? '<' : entity[1] === 'gt' ? '>' : entity[1] === 'amp' ? '&' : entity[1] === 'quot' ? '"' : '?';
    } else text += token;
  }
  return open.length > 0 ? { error: `can't parse entities: can't find end tag for "${open.at(-1)}"` } : { text };
}

const telegram: Rule = (body) => {
  const parsed = telegramText(String(body.text ?? ''));
  if ('error' in parsed) return `Bad Request: ${parsed.error}`;
  if (parsed.text.trim().length === 0) return 'Bad Request: message text is empty';
  return parsed.text.length > 4_096 ? 'Bad Request: message is too long' : null;
};

const pagerDuty: Rule = (body) => {
  if (over(body.dedup_key, 255)) return 'dedup_key is missing or longer than 255 characters';
  if (body.event_action !== 'trigger') return null;
  const payload = body.payload as { summary?: unknown; source?: unknown } | undefined;
  if (over(payload?.summary, 1_024)) return 'summary is missing or longer than 1024 characters';
  if (over(payload?.source, 255)) return 'source is missing or longer than 255 characters';
  return null;
};

/** The stand-in's judge: which service the path is, and its refusal, or null to take the request. */
export function serviceRefusal(path: string, body: Body, raw: Buffer): Answer | null {
  if (path.endsWith('/v2/enqueue')) {
    if (raw.length > 512 * 1024) return refuse(413, 'Request Entity Too Large');
    const why = pagerDuty(body);
    return why === null ? null : refuse(400, JSON.stringify({ status: 'invalid event', message: 'Event object is invalid', errors: [why] }));
  }
  if (path.endsWith('/sendMessage')) {
    const why = telegram(body);
    return why === null ? null : refuse(400, JSON.stringify({ ok: false, error_code: 400, description: why }));
  }
  if (path.startsWith('/api/webhooks/')) {
    const why = discord(body);
    return why === null ? null : refuse(400, JSON.stringify({ code: 50035, message: why }));
  }
  const why = slack(body);
  return why === null ? null : refuse(400, why);
}
