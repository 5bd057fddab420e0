// The numbered addresses are c32check's, address for address: small numbers (leading zero bytes, the checksum's
// own included), large ones, and a run long enough to cross every digit boundary.
import { c32address } from 'c32check';
import { describe, expect, it } from 'vitest';
import { numberedAddress, numberedAddresses } from './numbered-addresses';

const library = (n: number) => c32address(22, n.toString(16).padStart(40, '0'));

describe('numbered addresses', () => {
  it("are c32check's addresses for the same hash160", () => {
    const numbers = [...Array.from({ length: 3_000 }, (_, n) => n), 2 ** 32 - 1, 2 ** 32, 2 ** 40 + 7, Number.MAX_SAFE_INTEGER];
    expect(numbers.filter((n) => numberedAddress(n) !== library(n))).toEqual([]);
  });

  it('come in order, the same each time, however many are asked for', () => {
    const few = numberedAddresses(5);
    const more = numberedAddresses(20);
    expect(more.slice(0, 5)).toEqual(few);
    expect(new Set(more).size).toBe(20);
    expect(more[19]).toBe(library(19));
  });
});
