// The fast check of a canonical address against c32check, the library it stands in for: on valid addresses
// of every version and every count of leading zero bytes, and on each way one can be miswritten, the answer
// is c32check's (a yes only for what c32check would print itself), and a config of 100,000 addresses parses
// (its speed is measured in the bench, not here).
import { c32address, c32addressDecode } from 'c32check';
import { describe, expect, it } from 'vitest';
import { canonicalAddressVersion } from '../../lambda/core/watch-config/canonical-address';
import { parseWatchConfigText } from '../../lambda/config/watch-config';
import { seededRandom } from '../../bench/prng';
import { numberedAddresses } from '../support/numbered-addresses';

/** c32check's verdict: the version when `text` decodes to a 20-byte hash and re-encodes to itself. */
function libraryVerdict(text: string): number | null {
  try {
    const [version, hash] = c32addressDecode(text);
    return hash.length === 40 && c32address(version, hash) === text ? version : null;
  } catch {
    return null;
  }
}

const rng = seededRandom(20261124);
const random = () => rng.next();
const hex = (bytes: number) =>
  Array.from({ length: bytes }, () =>
    Math.floor(random() * 256)
      .toString(16)
      .padStart(2, '0'),
  ).join('');
/** A hash with `zeros` leading zero bytes, the rest random. */
const hash = (zeros: number) => `${'00'.repeat(zeros)}${hex(20 - zeros)}`;

const addresses = Array.from({ length: 2_000 }, (_, i) => c32address([22, 20, 26, 21, 0, 31][i % 6]!, hash(i % 23 > 20 ? 20 : i % 23)));

/** Ways to miswrite an address: a digit changed, dropped, added or doubled, a zero added in front, case, look-alikes. */
function miswritten(address: string): string[] {
  const at = 2 + Math.floor(random() * (address.length - 2));
  const digit = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'[Math.floor(random() * 32)]!;
  return [
    `${address.slice(0, at)}${digit}${address.slice(at + 1)}`,
    `${address.slice(0, at)}${address.slice(at + 1)}`,
    `${address.slice(0, at)}${digit}${address.slice(at)}`,
    `${address.slice(0, 2)}0${address.slice(2)}`,
    `${address.slice(0, 2)}${address.slice(3)}`,
    address.toLowerCase(),
    address.replace(/0/g, 'O').replace(/1/g, 'I'),
    `${address}.token`,
    ` ${address}`,
  ];
}

describe('the fast canonical address check', () => {
  it('says yes to every address c32check writes, with its version, leading zero bytes and all', () => {
    expect(addresses.filter((a) => canonicalAddressVersion(a) !== libraryVerdict(a))).toEqual([]);
    expect(addresses.every((a) => canonicalAddressVersion(a) !== null)).toBe(true);
    expect(canonicalAddressVersion(c32address(22, '00'.repeat(20)))).toBe(22);
  });

  it('says yes to no miswritten address that c32check would not print itself', () => {
    const cases = addresses.flatMap(miswritten);
    const wrongYes = cases.filter((text) => canonicalAddressVersion(text) !== null && libraryVerdict(text) !== canonicalAddressVersion(text));
    expect(wrongYes).toEqual([]);
    expect(cases.filter((text) => canonicalAddressVersion(text) === null).length).toBeGreaterThan(cases.length * 0.9);
  });
});

describe('a config of many addresses', () => {
  // How fast is the bench's to say (table 9: 100,000 addresses in about 0.4 s); here, that all of them pass.
  it('accepts 100,000 canonical addresses, each kept once and in order', () => {
    const many = numberedAddresses(100_000);
    const result = parseWatchConfigText(JSON.stringify({ network: 'mainnet', addresses: many }), 'watch.json');
    expect(result.ok && result.config.addresses).toEqual(many);
  });
});
