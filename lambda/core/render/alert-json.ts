// The alert as machines get it (the SNS `default` body that webhooks, SQS and Lambda subscribers read, and
// the `--json` lines), with a big printed value bounded: a contract may print a megabyte (a list of 8,000
// principals), and SNS takes 256 KiB for the whole message. Under the bounds an alert goes out as it is; over
// them each member of the value is cut on its own and says so:
//  - `value_repr`: its first characters, then a marker with the whole length;
//  - `value_hex`: its first bytes, plus `value_hex_bytes` (the whole length) and `value_hex_sha256`, so that a
//    receiver can check the value it reads from the API against the alert;
//  - `value`: the decoded value with lists and tuples cut after their leading items, long strings after
//    their first characters, and `value_truncated: true`.
// Every other text from the chain (call arguments, memos, names…) has its own bound first (chain-fields.ts).
import type { Alert } from '../alert-kinds/alert';
import type { ClarityJson } from '../clarity/decode';
import { formatCount } from './stx-amount';
import { boundChainFields } from './chain-fields';

export { FIELD_MAX_CHARS, LIST_MAX_BYTES } from './chain-fields';

/** Characters of `value_repr` kept: enough to read what the value is. */
export const VALUE_REPR_MAX_CHARS = 16_384;
/** Bytes of the value kept in `value_hex` (twice as many hex digits). */
export const VALUE_HEX_MAX_BYTES = 8_192;
/** Bytes of JSON the decoded `value` may take. */
export const VALUE_JSON_MAX_BYTES = 65_536;
/** A cut string in `value` ends with this. */
export const VALUE_CUT_MARKER = '…';

/** SHA-256 of some bytes as lowercase hex: the adapter's (the core does no hashing itself). */
export type Sha256Hex = (bytes: Uint8Array) => string;

/** What an alert carries in addition when its value was too big to send whole. */
export interface CutValueMembers {
  value_hex_bytes?: number;
  value_hex_sha256?: string;
  value_truncated?: true;
}

const utf8Bytes = (text: string) => new TextEncoder().encode(text).length;
const jsonBytes = (value: ClarityJson) => utf8Bytes(JSON.stringify(value));

/** The bytes a hex string spells, or its UTF-8 text when it spells none (the API's text is untrusted). */
function valueBytes(hex: string): Uint8Array {
  const digits = hex.startsWith('0x') ? hex.slice(2) : hex;
  if (!/^([0-9a-fA-F]{2})*$/.test(digits)) return new TextEncoder().encode(hex);
  return Uint8Array.from({ length: digits.length / 2 }, (_, i) => Number.parseInt(digits.slice(i * 2, i * 2 + 2), 16));
}

export function cutRepr(repr: string): string {
  const chars = Array.from(repr);
  if (chars.length <= VALUE_REPR_MAX_CHARS) return repr;
  return `${chars.slice(0, VALUE_REPR_MAX_CHARS).join('')}${VALUE_CUT_MARKER}[cut: ${formatCount(chars.length)} characters in all]`;
}

function cutHex(hex: string, sha256: Sha256Hex): { value_hex: string } & CutValueMembers {
  const prefix = hex.startsWith('0x') ? '0x' : '';
  if (hex.length <= prefix.length + 2 * VALUE_HEX_MAX_BYTES) return { value_hex: hex };
  const bytes = valueBytes(hex);
  return {
    value_hex: hex.slice(0, prefix.length + 2 * VALUE_HEX_MAX_BYTES),
    value_hex_bytes: bytes.length,
    value_hex_sha256: sha256(bytes),
  };
}

/** The longest prefix of `text` that, with the marker, takes at most `budget` bytes as a JSON string. */
function cutString(text: string, budget: number): string {
  const encoded = new TextEncoder().encode(text);
  let end = Math.min(encoded.length, Math.max(0, budget));
  for (;;) {
    // A continuation byte (10xxxxxx) at the cut means the cut is inside a character: back off to its start.
    while (end > 0 && ((encoded[end] ?? 0) & 0xc0) === 0x80) end--;
    const cut = `${new TextDecoder().decode(encoded.subarray(0, end))}${VALUE_CUT_MARKER}`;
    const over = jsonBytes(cut) - budget;
    if (over <= 0 || end === 0) return cut;
    end = Math.max(0, end - over);
  }
}

/**
 * `value` in at most `budget` bytes of JSON: lists and tuples keep their leading items whole and cut the
 * first that does not fit, strings keep their first characters. Each item is measured once per level, so
 * a megabyte costs a few passes over it, not one per item.
 */
export function cutClarityJson(value: ClarityJson, budget: number): { value: ClarityJson; cut: boolean } {
  if (jsonBytes(value) <= budget) return { value, cut: false };
  if (typeof value === 'string') return { value: cutString(value, budget), cut: true };
  if (value === null || typeof value !== 'object') return { value, cut: false };
  const entries: [string | null, ClarityJson][] = Array.isArray(value) ? value.map((item) => [null, item]) : Object.entries(value);
  const kept: [string | null, ClarityJson][] = [];
  let used = 2; // the brackets
  for (const [key, item] of entries) {
    const overhead = (kept.length > 0 ? 1 : 0) + (key === null ? 0 : utf8Bytes(JSON.stringify(key)) + 1);
    const size = overhead + jsonBytes(item);
    if (used + size <= budget) {
      kept.push([key, item]);
      used += size;
      continue;
    }
    const room = budget - used - overhead;
    // A container or a string can give part of itself; anything smaller is left out whole.
    if (room > 16 && item !== null && typeof item !== 'boolean') kept.push([key, cutClarityJson(item, room).value]);
    break;
  }
  return {
    value: Array.isArray(value) ? kept.map(([, item]) => item) : Object.fromEntries(kept as [string, ClarityJson][]),
    cut: true,
  };
}

/** The alert with its printed value and every other text from the chain bounded; the alert itself when nothing in it is big. */
export function boundedAlert(whole: Alert, sha256: Sha256Hex): Alert & CutValueMembers {
  const alert = boundChainFields(whole);
  if (!('value_hex' in alert)) return alert;
  const repr = cutRepr(alert.value_repr);
  const hex = cutHex(alert.value_hex, sha256);
  const decoded = 'value' in alert && alert.value !== undefined ? cutClarityJson(alert.value, VALUE_JSON_MAX_BYTES) : null;
  if (repr === alert.value_repr && hex.value_hex === alert.value_hex && decoded?.cut !== true) return alert;
  return {
    ...alert,
    value_repr: repr,
    ...hex,
    ...(decoded === null ? {} : { value: decoded.value }),
    ...(decoded?.cut === true ? { value_truncated: true as const } : {}),
  };
}

/** The alert's JSON text as it is delivered to machines. */
export function alertJson(alert: Alert, sha256: Sha256Hex): string {
  return JSON.stringify(boundedAlert(alert, sha256));
}
