// Clarity values from their consensus serialization (a log's `value.hex`), into a typed tree that `where`
// conditions test (an int is not a string even though both print as text) and into plain JSON for alerts.
//
// Written here rather than taken from @stacks/transactions, by measurement (esbuild, the Lambda's settings):
// `hexToCV` + `cvToJSON` add about 50 KB minified (16 KB gzipped) to the bundle beyond c32check, which the
// bundle already holds, while this file adds about 3 KB; and `cvToJSON`'s `{type, value}` wrappers are not
// the plain JSON alerts carry, so a conversion would be needed on top. The format is small and fixed
// (SIP-005); the tests check this decoder against values serialized by @stacks/transactions and real ones.
import { c32address } from 'c32check';

/** A decoded Clarity value. `(some x)` is `x` itself: a path walks through it, and JSON shows `x`. */
export type ClarityTree =
  | { type: 'int' | 'uint'; value: bigint }
  | { type: 'bool'; value: boolean }
  | { type: 'buffer'; hex: string }
  | { type: 'string'; value: string }
  | { type: 'principal'; value: string }
  | { type: 'none' }
  | { type: 'ok' | 'err'; value: ClarityTree }
  | { type: 'list'; items: ClarityTree[] }
  | { type: 'tuple'; fields: Map<string, ClarityTree> };

/** The JSON form of a Clarity value, as alerts carry it (`value`). */
export type ClarityJson = string | boolean | null | ClarityJson[] | { [key: string]: ClarityJson };

export class ClarityDecodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ClarityDecodeError';
  }
}

/** Clarity nests at most 32 deep; a deeper input is not a value the chain produced. */
const MAX_DEPTH = 64;

const utf8 = new TextDecoder('utf-8', { fatal: true });

function bytesOf(hex: string): Uint8Array {
  const digits = hex.startsWith('0x') ? hex.slice(2) : hex;
  if (!/^([0-9a-fA-F]{2})*$/.test(digits)) throw new ClarityDecodeError('not a hex string of whole bytes');
  const bytes = new Uint8Array(digits.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(digits.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

function toHex(bytes: Uint8Array): string {
  let hex = '';
  for (const byte of bytes) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

class Reader {
  private at = 0;
  constructor(private readonly bytes: Uint8Array) {}

  take(length: number): Uint8Array {
    if (this.at + length > this.bytes.length) throw new ClarityDecodeError(`value ends early (byte ${this.at}, ${length} more wanted)`);
    const slice = this.bytes.subarray(this.at, this.at + length);
    this.at += length;
    return slice;
  }
  byte(): number {
    return this.take(1)[0]!;
  }
  u32(): number {
    const b = this.take(4);
    return ((b[0]! << 24) >>> 0) + (b[1]! << 16) + (b[2]! << 8) + b[3]!;
  }
  done(): boolean {
    return this.at === this.bytes.length;
  }
}

function integer(bytes: Uint8Array, signed: boolean): bigint {
  let value = BigInt(`0x${toHex(bytes)}`);
  if (signed && bytes[0]! >= 0x80) value -= 1n << 128n;
  return value;
}

function principal(reader: Reader): string {
  const version = reader.byte();
  return c32address(version, toHex(reader.take(20)));
}

function name(reader: Reader): string {
  return new TextDecoder('latin1').decode(reader.take(reader.byte()));
}

function read(reader: Reader, depth: number): ClarityTree {
  if (depth > MAX_DEPTH) throw new ClarityDecodeError(`nested deeper than ${MAX_DEPTH}`);
  const typeId = reader.byte();
  switch (typeId) {
    case 0x00:
      return { type: 'int', value: integer(reader.take(16), true) };
    case 0x01:
      return { type: 'uint', value: integer(reader.take(16), false) };
    case 0x02:
      return { type: 'buffer', hex: `0x${toHex(reader.take(reader.u32()))}` };
    case 0x03:
      return { type: 'bool', value: true };
    case 0x04:
      return { type: 'bool', value: false };
    case 0x05:
      return { type: 'principal', value: principal(reader) };
    case 0x06: {
      const address = principal(reader);
      return { type: 'principal', value: `${address}.${name(reader)}` };
    }
    case 0x07:
      return { type: 'ok', value: read(reader, depth + 1) };
    case 0x08:
      return { type: 'err', value: read(reader, depth + 1) };
    case 0x09:
      return { type: 'none' };
    case 0x0a:
      return read(reader, depth + 1);
    case 0x0b: {
      const length = reader.u32();
      const items: ClarityTree[] = [];
      for (let i = 0; i < length; i++) items.push(read(reader, depth + 1));
      return { type: 'list', items };
    }
    case 0x0c: {
      const length = reader.u32();
      const fields = new Map<string, ClarityTree>();
      for (let i = 0; i < length; i++) {
        const key = name(reader);
        fields.set(key, read(reader, depth + 1));
      }
      return { type: 'tuple', fields };
    }
    case 0x0d:
      return { type: 'string', value: new TextDecoder('latin1').decode(reader.take(reader.u32())) };
    case 0x0e:
      try {
        return { type: 'string', value: utf8.decode(reader.take(reader.u32())) };
      } catch (error) {
        if (error instanceof ClarityDecodeError) throw error;
        throw new ClarityDecodeError('a string-utf8 that is not UTF-8');
      }
    default:
      throw new ClarityDecodeError(`unknown type id 0x${typeId.toString(16).padStart(2, '0')}`);
  }
}

/** Decodes a whole serialized value (0x-prefixed or not); throws ClarityDecodeError on anything else. */
export function decodeClarity(hex: string): ClarityTree {
  const reader = new Reader(bytesOf(hex));
  const tree = read(reader, 0);
  if (!reader.done()) throw new ClarityDecodeError('bytes left over after the value');
  return tree;
}

/** The decoded value, or null when `hex` is not a Clarity value (the API's text is untrusted). */
export function decodeClarityOrNull(hex: string): ClarityTree | null {
  try {
    return decodeClarity(hex);
  } catch (error) {
    if (error instanceof ClarityDecodeError) return null;
    throw error;
  }
}

/** Plain JSON: integers as decimal strings (JSON numbers lose precision), `(ok x)` as `{"ok": x}`. */
export function clarityToJson(tree: ClarityTree): ClarityJson {
  switch (tree.type) {
    case 'int':
    case 'uint':
      return tree.value.toString();
    case 'bool':
    case 'string':
    case 'principal':
      return tree.value;
    case 'buffer':
      return tree.hex;
    case 'none':
      return null;
    case 'ok':
      return { ok: clarityToJson(tree.value) };
    case 'err':
      return { err: clarityToJson(tree.value) };
    case 'list':
      return tree.items.map(clarityToJson);
    case 'tuple':
      return Object.fromEntries([...tree.fields].map(([key, value]) => [key, clarityToJson(value)]));
  }
}
