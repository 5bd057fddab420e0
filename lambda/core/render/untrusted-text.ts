// Text from the chain (log values, memos, topics, even ids) is written by whoever sent the transaction.
// Before it reaches a subject line, an email or a phone it loses everything that could hide, reorder or
// inject text, and it is capped so that a 100 KB log value stays a readable alert.
import { codePointCount, codePointEnd } from './code-points';

/**
 * Removed outright: control characters (C0, DEL, C1), format characters (bidi embeddings, overrides,
 * isolates and marks, zero-width characters, the BOM, Unicode tag characters that can smuggle invisible
 * ASCII) and lone surrogates (with the `u` flag `\p{Cs}` matches only unpaired halves).
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Cs}]/gu;
/** Line and paragraph breaks of every kind become one space: an on-chain value must not start a new line. */
const LINE_BREAKS = /[\t\n\v\f\r\u0085\u2028\u2029]+/g;

/** Cuts `text` to at most `maxLen` code points, ending with `marker` when cut; never splits a surrogate pair. */
export function truncate(text: string, maxLen: number, marker = '…'): string {
  if (text.length <= maxLen) return text; // UTF-16 length bounds the code point count
  if (codePointCount(text) <= maxLen) return text;
  const markerLength = codePointCount(marker);
  if (maxLen <= markerLength) return text.slice(0, codePointEnd(text, maxLen));
  return text.slice(0, codePointEnd(text, maxLen - markerLength)).trimEnd() + marker;
}

/** On-chain text made safe to show: single line, nothing invisible, at most `maxLen` code points. */
export function sanitizeUntrusted(text: string, maxLen: number): string {
  return truncate(text.replace(LINE_BREAKS, ' ').replace(INVISIBLE, '').trim(), maxLen);
}

/** Characters that NFKD does not reduce to ASCII but that have an obvious ASCII spelling. */
export const ASCII_SPELLING: Record<string, string> = {
  '‘': "'",
  '’': "'",
  '‚': "'",
  '‛': "'",
  '′': "'",
  '“': '"',
  '”': '"',
  '„': '"',
  '‟': '"',
  '″': '"',
  '«': '"',
  '»': '"',
  '‐': '-',
  '‑': '-',
  '‒': '-',
  '–': '-',
  '—': '-',
  '―': '-',
  '−': '-',
  '…': '...',
  '•': '*',
  '·': '.',
  '€': 'EUR',
  '£': 'GBP',
  '¥': 'JPY',
  '×': 'x',
  '→': '->',
  '←': '<-',
  ß: 'ss',
  Æ: 'AE',
  æ: 'ae',
  Ø: 'O',
  ø: 'o',
  Œ: 'OE',
  œ: 'oe',
  Ł: 'L',
  ł: 'l',
  Đ: 'D',
  đ: 'd',
};
const NOT_PRINTABLE_ASCII = /[^\x20-\x7E]/g;

/**
 * Printable ASCII only (SNS rejects anything else in an email subject): accents dropped (é → e), common
 * punctuation spelled out (… → ...), everything else (emoji, other scripts) removed. Written by hand
 * because none of the project's dependencies transliterates, and this small table covers what chain
 * data and our own templates produce.
 */
export function toPrintableAscii(text: string): string {
  return Array.from(text.normalize('NFKD').replace(/\p{M}/gu, ''), (ch) => ASCII_SPELLING[ch] ?? ch)
    .join('')
    .replace(/\s/g, ' ')
    .replace(NOT_PRINTABLE_ASCII, '')
    .replace(/ {2,}/g, ' ')
    .trim();
}

/** Every control and format character but the line break and tab (which a multi-line message keeps). */
const HIDDEN_OR_ACTIVE = /[^\P{Cc}\n\t]|\p{Cf}|\p{Cs}/gu;

/**
 * Text for a terminal or a log line, where a server's error text or an on-chain value could otherwise move
 * the cursor, recolour or clear the screen (ESC sequences), or reorder what is shown (bidi overrides): each
 * such character is shown as its escape (`\x1b`, `\u202e`) rather than removed, so the reader sees that it
 * was there.
 */
export function showControlCharacters(text: string): string {
  return text.replace(HIDDEN_OR_ACTIVE, (ch) => {
    const code = ch.codePointAt(0)!;
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}
