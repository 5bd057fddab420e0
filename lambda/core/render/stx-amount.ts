// STX amounts, exactly. Amounts are micro-STX decimal strings that can exceed 2^53, so they are divided
// as bigints and never pass through a float.
import { sanitizeUntrusted } from './untrusted-text';

const MICRO_PER_STX = 1_000_000n;
// Digits grouped by hand rather than by Intl.NumberFormat: the first NumberFormat pages in ICU's locale data,
// about 9 MB resident in a bare Node process (7 MB of the binary's ICU pages, 2 MB of heap) and 20 ms of a cold
// start, for what en-US grouping is here: a comma every three digits of a whole number.
function grouped(whole: string): string {
  const sign = whole.startsWith('-') ? '-' : '';
  const digits = whole.slice(sign.length);
  const head = digits.length % 3 || 3;
  let text = digits.slice(0, head);
  for (let at = head; at < digits.length; at += 3) text += `,${digits.slice(at, at + 3)}`;
  return sign + text;
}

/**
 * - `exact`: every micro-STX digit, grouped: `1,250.500000 STX`
 * - `short`: trailing zeros dropped, grouped: `1,250.5 STX` (still exact: only zeros go)
 * - `plain`: trailing zeros dropped, no grouping, for the tightest space (SMS): `1250.5 STX`
 */
export type StxStyle = 'exact' | 'short' | 'plain';

export function formatStx(microStx: string, style: StxStyle = 'exact'): string {
  if (!/^\d+$/.test(microStx)) {
    throw new RangeError(`not a micro-STX amount (expected a decimal integer string): ${JSON.stringify(microStx.slice(0, 40))}`);
  }
  const micro = BigInt(microStx);
  const whole = micro / MICRO_PER_STX;
  const fraction = (micro % MICRO_PER_STX).toString().padStart(6, '0');
  const wholeText = style === 'plain' ? whole.toString() : grouped(whole.toString());
  const fractionText = style === 'exact' ? fraction : fraction.replace(/0+$/, '');
  return `${wholeText}${fractionText ? `.${fractionText}` : ''} STX`;
}

/** `formatStx`, or the value as received when it is no micro-STX amount: a one-line alert goes out either way. */
export function stxOrAsReceived(microStx: string, style: StxStyle): string {
  try {
    return formatStx(microStx, style);
  } catch {
    return `${sanitizeUntrusted(microStx, 30)} micro-STX`;
  }
}

/** A whole number of any size with its digits grouped: `1,000,000`. */
export function groupDigits(value: bigint): string {
  return grouped(value.toString());
}

/** A count (a whole number; a fraction, which no caller has, keeps its digits after the point ungrouped). */
export function formatCount(value: number): string {
  if (Number.isInteger(value)) return grouped(BigInt(value).toString());
  const [whole = '', fraction] = String(value).split('.');
  return fraction === undefined ? String(value) : `${grouped(whole)}.${fraction}`;
}
