// The n-th of a run of distinct mainnet standard principals, its hash160 the number n (big-endian): the suites
// that need thousands (a 1 MB print of 8,000, a rule of 50,000, a config of 100,000) take them from here. Encoded here rather than with c32check's c32address, which takes about 11 µs an address (two
// SHA-256s through hex strings, then a digit-at-a-time encoder): 100,000 were a second of CPU in every worker
// that made them. The same c32check encoding: 'S', the version's digit, then base 32 of hash160 + checksum
// (the first 4 bytes of a double SHA-256 of version + hash160), a '0' for each leading zero byte.
// numbered-addresses.test.ts holds it to c32check's, address for address.
import { createHash } from 'node:crypto';

const C32 = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** JavaScript's base-32 digits, in the order of C32's. */
const BASE32 = '0123456789abcdefghijklmnopqrstuv';
const MAINNET_SINGLE_SIG = 22;

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest();

/** The address whose hash160 is `n`. */
export function numberedAddress(n: number): string {
  const payload = Buffer.alloc(25);
  payload[0] = MAINNET_SINGLE_SIG;
  payload.writeBigUInt64BE(BigInt(n), 13);
  sha256(sha256(payload.subarray(0, 21))).copy(payload, 21, 0, 4);
  const data = payload.subarray(1);
  let zeros = 0;
  while (zeros < data.length && data[zeros] === 0) zeros += 1;
  const value = BigInt(`0x${data.toString('hex')}`);
  const digits = value === 0n ? '' : [...value.toString(32)].map((d) => C32[BASE32.indexOf(d)]).join('');
  return `S${C32[MAINNET_SINGLE_SIG]}${'0'.repeat(zeros)}${digits}`;
}

const made: string[] = [];

/** The first `count` numbered addresses, made once per process (or worker) however often asked for. */
export function numberedAddresses(count: number): string[] {
  for (let n = made.length; n < count; n += 1) made.push(numberedAddress(n));
  return made.slice(0, count);
}
