// SMS length rules. A message in the GSM 03.38 7-bit alphabet fits 160 characters in one segment (the
// extension characters cost two); one character outside it switches the whole message to UCS-2 and the
// limit drops to 70. So an SMS is transliterated into GSM-7 rather than sent as UCS-2.
import { ASCII_SPELLING, truncate } from './untrusted-text';

/** GSM 03.38 basic character set (0x1B, the escape to the extension table, left out). */
const BASIC = '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?' + '¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
/** GSM 03.38 extension table: each is sent as escape + character, two septets. */
const EXTENSION = '\f^{}\\[~]|€';

const BASIC_SET = new Set(BASIC);
const EXTENSION_SET = new Set(EXTENSION);

export const SMS_GSM7_LIMIT = 160;
export const SMS_UCS2_LIMIT = 70;

function isGsm7Char(ch: string): boolean {
  return BASIC_SET.has(ch) || EXTENSION_SET.has(ch);
}

export function isGsm7(text: string): boolean {
  for (const ch of text) if (!isGsm7Char(ch)) return false;
  return true;
}

/** Septets `text` takes in GSM-7; only meaningful when isGsm7(text). */
export function gsm7Length(text: string): number {
  let septets = 0;
  for (const ch of text) septets += EXTENSION_SET.has(ch) ? 2 : 1;
  return septets;
}

/** The encoding an SMS gateway would pick for `text`, its length in that encoding's units, and the limit. */
export function smsLength(text: string): { encoding: 'GSM-7' | 'UCS-2'; units: number; limit: number } {
  return isGsm7(text)
    ? { encoding: 'GSM-7', units: gsm7Length(text), limit: SMS_GSM7_LIMIT }
    : { encoding: 'UCS-2', units: text.length, limit: SMS_UCS2_LIMIT }; // UCS-2 units are UTF-16 code units
}

function transliterateChar(ch: string): string {
  if (isGsm7Char(ch)) return ch;
  const spelled = ASCII_SPELLING[ch];
  if (spelled !== undefined) return spelled;
  // Accented letters outside GSM-7 (ç, ê, ő) keep their base letter; emoji and other scripts go.
  return Array.from(ch.normalize('NFKD').replace(/\p{M}/gu, '')).filter(isGsm7Char).join('');
}

/** `text` in the GSM-7 alphabet: GSM characters kept, others spelled in GSM-7 or dropped. */
export function toGsm7(text: string): string {
  return Array.from(text, transliterateChar).join('');
}

/** Cuts `text` to fit one SMS in whichever encoding it needs, ending with ".." when cut. */
export function fitSms(text: string, gsm7Limit: number = SMS_GSM7_LIMIT): string {
  if (!isGsm7(text)) {
    let fitted = truncate(text, SMS_UCS2_LIMIT, '..');
    while (fitted.length > SMS_UCS2_LIMIT) fitted = truncate(fitted, Array.from(fitted).length - 1, '..');
    return fitted;
  }
  if (gsm7Length(text) <= gsm7Limit) return text;
  const chars = Array.from(text);
  let septets = 2; // the ".." marker
  let kept = 0;
  while (kept < chars.length && septets + gsm7Length(chars[kept]!) <= gsm7Limit) {
    septets += gsm7Length(chars[kept]!);
    kept += 1;
  }
  return `${chars.slice(0, kept).join('')}..`;
}
