// Stacks addresses in c32check: "S", a version character, then c32 of the 20-byte hash and a 4-byte
// checksum (the first bytes of sha256(sha256(version ‖ hash))). Written by hand, on node:crypto, rather than
// imported from @stacks/transactions: that package is the only runtime use of it, and it brought 58 KiB
// of minified code (elliptic curves, lodash) and about 25 ms of module init into the Lambda bundle, for
// these forty lines. It follows c32check 2.0 (the library @stacks/transactions uses) exactly, and the tests
// hold it to @stacks/transactions on random addresses.
import { createHash } from 'node:crypto';

const C32 = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const C32_CHARS = /^[0-9A-HJKMNP-TV-Z]*$/;

export interface DecodedAddress {
  version: number;
  /** The hash as lower-case hex (40 digits for a standard address). */
  hash160: string;
}

/** c32check's reading of look-alikes: O is 0, I and L are 1, any case. */
function normalize(text: string): string {
  return text.toUpperCase().replace(/O/g, '0').replace(/[IL]/g, '1');
}

function checksum(versionAndDataHex: string): string {
  const once = createHash('sha256').update(Buffer.from(versionAndDataHex, 'hex')).digest();
  return createHash('sha256').update(once).digest('hex').slice(0, 8);
}

/** c32 digits of the bytes as one big-endian number, with a "0" for every leading zero byte. */
function c32Encode(hex: string): string {
  const zeroBytes = /^(00)*/.exec(hex)![0].length / 2;
  let value = hex === '' ? 0n : BigInt(`0x${hex}`);
  let digits = '';
  while (value > 0n) {
    digits = C32[Number(value & 31n)]! + digits;
    value >>= 5n;
  }
  return '0'.repeat(zeroBytes) + digits;
}

/** The inverse of c32Encode: a "0" for every leading zero digit, then the number's bytes. */
function c32Decode(c32: string): string {
  const zeroDigits = /^0*/.exec(c32)![0].length;
  let value = 0n;
  for (const char of c32) value = value * 32n + BigInt(C32.indexOf(char));
  let hex = value === 0n ? '' : value.toString(16);
  if (hex.length % 2 === 1) hex = `0${hex}`;
  return '00'.repeat(zeroDigits) + hex;
}

const versionHex = (version: number) => version.toString(16).padStart(2, '0');

/** The version and hash of a c32check address, or null when it is malformed or its checksum is wrong. */
export function decodeStacksAddress(text: string): DecodedAddress | null {
  if (text.length <= 5 || text[0] !== 'S') return null;
  const data = normalize(text.slice(1));
  if (!C32_CHARS.test(data)) return null;
  const version = C32.indexOf(data[0]!);
  const payload = c32Decode(data.slice(1));
  if (payload.length < 8) return null;
  const hash160 = payload.slice(0, -8);
  if (checksum(versionHex(version) + hash160) !== payload.slice(-8)) return null;
  return { version, hash160 };
}

/** The address of `hash160` (hex) under `version` (0 to 31), as the Stacks API writes it. */
export function encodeStacksAddress(version: number, hash160: string): string {
  const hash = hash160.toLowerCase();
  return `S${C32[version]}${c32Encode(hash + checksum(versionHex(version) + hash))}`;
}
