// Text of a chat message, made inert and cut before it is rendered: on-chain text may hold URLs and domain
// names, which Slack, Discord and Telegram would turn into links a reader might follow. Each channel renders
// such a part as code (a code span, `<code>`), which none of them links, and everything else escaped.

/**
 * A URL with a scheme, a `www.` name, or a bare domain name (`evil.example/path`): what the services link.
 * A whole word only: a shortened principal (`SP4S...PBG.stacking-dao`) is no domain. A Stacks contract id
 * (`SP….vault`) reads like one too; it is left as it is (below).
 */
const LINK_LIKE = /(?:\b[a-z][a-z0-9+.-]*:\/\/|\bwww\.)[^\s`<>"'()[\]{}]*|(?<![\w.…-])(?:[a-z0-9-]+\.)+[a-z]{2,}\b(?:\/[^\s`<>"'()[\]{}]*)?/gi;
const CONTRACT_ID = /^S[PMTN][0-9A-Z]{20,}\.[a-zA-Z][a-zA-Z0-9_-]*$/;

/** `text` as parts, each with whether the services would link it. */
export function linkParts(text: string): { text: string; link: boolean }[] {
  const parts: { text: string; link: boolean }[] = [];
  let at = 0;
  for (const match of text.matchAll(LINK_LIKE)) {
    const start = match.index;
    if (CONTRACT_ID.test(match[0])) continue;
    if (start > at) parts.push({ text: text.slice(at, start), link: false });
    parts.push({ text: match[0], link: true });
    at = start + match[0].length;
  }
  if (at < text.length) parts.push({ text: text.slice(at), link: false });
  return parts;
}

export interface TextFormat {
  /** Text shown as typed: the format's special characters escaped. */
  plain(text: string): string;
  /** A link-like part, shown as code so that it is not a link. */
  inert(text: string): string;
}

export function render(text: string, format: TextFormat): string {
  return linkParts(text)
    .map((part) => (part.link ? format.inert(part.text) : format.plain(part.text)))
    .join('');
}

const MARKER = '… (cut)';

/**
 * `text` rendered in at most `max` characters: whole when it fits, else the longest start of it that fits
 * once rendered, with a marker. Cut before rendering, so that no escape, tag or code span is split.
 */
export function fit(text: string, max: number, format: TextFormat): string {
  // Rendering only ever adds characters: a text longer than `max` is cut without rendering it whole.
  const whole = text.length <= max ? render(text, format) : null;
  if (whole !== null && whole.length <= max) return whole;
  let low = 0;
  let high = Math.min(text.length, max);
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (render(text.slice(0, mid), format).length + MARKER.length <= max) low = mid;
    else high = mid - 1;
  }
  // A cut between the halves of a surrogate pair would leave half a character.
  const end = /[\uD800-\uDBFF]/.test(text.charAt(low - 1)) ? low - 1 : low;
  return `${render(text.slice(0, end), format)}${MARKER}`;
}
