import { createHash } from 'node:crypto';
import { addressFromVersionHash, addressToString, createAddress, validateStacksAddress } from '@stacks/transactions';
import { describe, expect, it } from 'vitest';
import { decodeStacksAddress, encodeStacksAddress } from '../../lambda/config/c32-address';
import { MAINNET, TESTNET, VERSION_ZERO } from './principals';

const VERSIONS = [22, 20, 26, 21];

/** 200 hashes, some with leading zero bytes (the boot address's hash is all zeros). */
const hashes = Array.from({ length: 200 }, (_, i) => {
  const hex = createHash('sha256').update(`hash-${i}`).digest('hex').slice(0, 40);
  return i % 10 === 0 ? '00'.repeat(i % 7) + hex.slice(2 * (i % 7)) : hex;
});

describe('c32check addresses', () => {
  it('encodes every version and hash exactly as @stacks/transactions does', () => {
    const differing = VERSIONS.flatMap((version) =>
      hashes.filter((hash) => encodeStacksAddress(version, hash) !== addressToString(addressFromVersionHash(version, hash))),
    );
    expect(differing).toEqual([]);
  });

  it('decodes each encoded address back to its version and hash', () => {
    for (const version of VERSIONS) {
      for (const hash of hashes) expect(decodeStacksAddress(encodeStacksAddress(version, hash))).toEqual({ version, hash160: hash });
    }
  });

  it('decodes the addresses the project uses as @stacks/transactions does, the all-zero boot address included', () => {
    const addresses = [...Object.values(MAINNET), ...Object.values(TESTNET), 'SP000000000000000000002Q6VF78'];
    for (const address of addresses) {
      const theirs = createAddress(address);
      expect(decodeStacksAddress(address)).toEqual({ version: theirs.version, hash160: theirs.hash160 });
    }
  });

  it('reads the look-alikes O, I and L and lower case as c32check does', () => {
    const address = MAINNET.arkadiko;
    const sloppy = `S${address.slice(1).toLowerCase()}`.replace(/0/g, 'o').replace(/1/g, 'l');
    expect(validateStacksAddress(sloppy)).toBe(true);
    expect(decodeStacksAddress(sloppy)).toEqual(decodeStacksAddress(address));
  });

  it('refuses a wrong checksum, characters outside c32, a missing S and a too-short string, as @stacks/transactions does', () => {
    const address = MAINNET.arkadiko;
    const lastChar = address.at(-1)!;
    const cases = [
      `${address.slice(0, -1)}${lastChar === 'R' ? 'S' : 'R'}`,
      `${address.slice(0, -1)}U`,
      `X${address.slice(1)}`,
      'SP12',
      VERSION_ZERO.replace(/.$/, (c) => (c === '0' ? '1' : '0')),
    ];
    for (const text of cases) {
      expect(validateStacksAddress(text)).toBe(false);
      expect(decodeStacksAddress(text)).toBeNull();
    }
  });
});
