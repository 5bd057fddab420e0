// SNS refuses a whole message whose subject is not plain: ASCII only, no line breaks or control
// characters, starting with a letter, digit or punctuation, fewer than 100 characters. The renderer aims
// for that; this guard makes a slip cost a cleaned subject rather than an undelivered alert.
import { SUBJECT_MAX } from '../../core/render/subject';

/** Characters the renderer may use that have a readable ASCII spelling (NFKD covers accents and '…'). */
const ASCII_SPELLINGS: Record<string, string> = {
  '→': '->',
  '←': '<-',
  '–': '-',
  '—': '-',
  '‘': "'",
  '’': "'",
  '“': '"',
  '”': '"',
  '•': '*',
  '·': '*',
};

/** A subject SNS accepts, as close to `subject` as possible; `fallback` when nothing printable is left. */
export function cleanSubject(subject: string, fallback: string): string {
  let clean = subject
    .replace(/[→←–—‘’“”•·]/g, (c) => ASCII_SPELLINGS[c] ?? '?')
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/\s+/g, ' ')
    .replace(/[^\x20-\x7E]/gu, '?')
    .trim();
  if (clean.length > SUBJECT_MAX) clean = `${clean.slice(0, SUBJECT_MAX - 3).trimEnd()}...`;
  return clean.length > 0 ? clean : fallback;
}
