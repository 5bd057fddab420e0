// `memo` on a transfer rule (and on `addressesRule`): exchanges and custodians credit deposits to a few
// shared addresses by the memo each customer is told to write, so a rule can pick transfers by it.
// A memo is compared as text when it decodes as printable UTF-8 (padding zeros stripped), and a rule value
// written as `0x…` is compared with the memo's bytes instead, so that binary memos can be matched too.
import * as z from '../../zod-mini';

/** What a memo condition accepts, as written: exactly one of these keys. */
export type MemoFilter = { eq: string } | { startsWith: string } | { in: readonly string[] } | { exists: boolean };

/** A transfer memo read once for matching and for the alert: the meaningful bytes as hex, and as text when printable. */
export interface ReadMemo {
  /** `0x…` of the bytes before the zero padding; null when there is no memo or it is all padding. */
  hex: string | null;
  /** The bytes as text when they are printable UTF-8 (up to MEMO_TEXT_MAX bytes), else null. */
  text: string | null;
}

/** Longer memos (a contract may print any buffer after a transfer) are matched and shown by their hex. */
export const MEMO_TEXT_MAX = 1_024;

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });
const UNPRINTABLE = /[\p{Cc}\p{Cf}]/u;
const HEX = /^0x([0-9a-fA-F]{2})*$/;

/** Reads a memo given as hex (`0x…`, or null when the transfer has none). */
export function readMemo(memoHex: string | null): ReadMemo {
  if (memoHex === null || !HEX.test(memoHex)) return { hex: null, text: null };
  const digits = memoHex.slice(2).toLowerCase();
  let end = digits.length;
  while (end >= 2 && digits.slice(end - 2, end) === '00') end -= 2;
  if (end === 0) return { hex: null, text: null };
  const hex = `0x${digits.slice(0, end)}`;
  if (end / 2 > MEMO_TEXT_MAX) return { hex, text: null };
  try {
    const bytes = Uint8Array.from(digits.slice(0, end).match(/../g)!, (pair) => Number.parseInt(pair, 16));
    const text = STRICT_UTF8.decode(bytes);
    return { hex, text: UNPRINTABLE.test(text) || text.trim() === '' ? null : text };
  } catch {
    return { hex, text: null };
  }
}

/** A memo condition ready to test: `in` lists become sets, since an exchange may list thousands of memos. */
export type CompiledMemo = (memo: ReadMemo) => boolean;

const isHex = (value: string) => HEX.test(value);

/** One value's test: a `0x…` value against the memo's bytes, text against its text. */
function equalTo(value: string): CompiledMemo {
  if (isHex(value)) {
    const wanted = value.toLowerCase();
    return (memo) => memo.hex === wanted;
  }
  return (memo) => memo.text === value;
}

export function compileMemo(filter: MemoFilter): CompiledMemo {
  if ('exists' in filter) return (memo) => (memo.hex !== null) === filter.exists;
  if ('eq' in filter) return equalTo(filter.eq);
  if ('startsWith' in filter) {
    const prefix = filter.startsWith;
    if (isHex(prefix)) {
      const wanted = prefix.toLowerCase();
      return (memo) => memo.hex !== null && memo.hex.startsWith(wanted);
    }
    return (memo) => memo.text !== null && memo.text.startsWith(prefix);
  }
  const hexes = new Set(filter.in.filter(isHex).map((value) => value.toLowerCase()));
  const texts = new Set(filter.in.filter((value) => !isHex(value)));
  return (memo) => (memo.hex !== null && hexes.has(memo.hex)) || (memo.text !== null && texts.has(memo.text));
}

/** `memo "INV-42"`, `memo starting "cust-"`, `no memo` for `--check`. */
export function memoWords(filter: MemoFilter): string {
  if ('exists' in filter) return filter.exists ? 'with a memo' : 'without a memo';
  if ('eq' in filter) return `memo ${JSON.stringify(filter.eq)}`;
  if ('startsWith' in filter) return `memo starting ${JSON.stringify(filter.startsWith)}`;
  return `memo one of ${filter.in.map((value) => JSON.stringify(value)).join(', ')}`;
}

const EXAMPLE = 'must be one of {"eq": "…"}, {"startsWith": "…"}, {"in": ["…", …]} or {"exists": false}';

const memoValue = z.string({ error: 'must be the memo as text in quotes, or its bytes as "0x…"' }).check(
  z.minLength(1, { error: 'must not be empty; use {"exists": false} for "no memo"' }),
  z.maxLength(MEMO_TEXT_MAX * 2 + 2, { error: `must be at most ${MEMO_TEXT_MAX} bytes` }),
  z.refine((value) => !/^0x/i.test(value) || HEX.test(value), { error: 'starts with 0x but is not whole bytes of hex (0x followed by pairs of 0-9, a-f)' }),
  z.refine((value) => !UNPRINTABLE.test(value), { error: 'must be plain text (no control or invisible characters); write other bytes as "0x…"' }),
);

/** The `memo` key of a transfer rule or of `addressesRule`. */
export const memoFilterSchema = z.union(
  [
    z.strictObject({ eq: memoValue }),
    z.strictObject({ startsWith: memoValue }),
    z.strictObject({
      in: z.array(memoValue).check(z.minLength(1, { error: 'must list at least one memo' }), z.maxLength(10_000, { error: 'must list at most 10,000 memos' })),
    }),
    z.strictObject({ exists: z.boolean({ error: 'must be true or false' }) }),
  ],
  { error: EXAMPLE },
);
