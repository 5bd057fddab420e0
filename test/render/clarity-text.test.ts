import { describe, expect, it } from 'vitest';
import { Cl, serializeCV } from '@stacks/transactions';
import { decodeClarity } from '../../lambda/core/clarity/decode';
import { readableClarity, tupleFields } from '../../lambda/core/render/clarity-text';

const tree = (value: Parameters<typeof serializeCV>[0]) => decodeClarity(`0x${serializeCV(value)}`);

describe('a Clarity value as a person reads it', () => {
  it('groups the digits of integers of any size, and writes text, principals and words as they are', () => {
    expect(readableClarity(tree(Cl.uint(340282366920938463463374607431768211455n)))).toBe('340,282,366,920,938,463,463,374,607,431,768,211,455');
    expect(readableClarity(tree(Cl.int(-1_000_000)))).toBe('-1,000,000');
    expect(readableClarity(tree(Cl.stringUtf8('gm')))).toBe('gm');
    expect(readableClarity(tree(Cl.principal('SP2C2YFP12AJZB4MABJBAJ55XECVS7E4PMMZ89YZR')))).toBe('SP2C2YFP12AJZB4MABJBAJ55XECVS7E4PMMZ89YZR');
    expect(readableClarity(tree(Cl.none()))).toBe('none');
    expect(readableClarity(tree(Cl.some(Cl.uint(5))))).toBe('5');
    expect(readableClarity(tree(Cl.error(Cl.uint(1001))))).toBe('err 1,001');
  });

  it('puts nested values inline, a long list cut with how many more', () => {
    expect(readableClarity(tree(Cl.tuple({ a: Cl.tuple({ b: Cl.uint(1000) }) })))).toBe('{a: {b: 1,000}}');
    expect(readableClarity(tree(Cl.list(Array.from({ length: 12 }, (_, i) => Cl.uint(i)))))).toBe('[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, … 2 more]');
  });

  it("gives a tuple's fields as pairs, and nothing for other values", () => {
    expect(tupleFields(tree(Cl.tuple({ topic: Cl.stringAscii('withdrawal-create'), amount: Cl.uint(100_000_000) })))).toEqual([
      ['amount', '100,000,000'],
      ['topic', 'withdrawal-create'],
    ]);
    expect(tupleFields(tree(Cl.uint(1)))).toBeNull();
    expect(tupleFields(null)).toBeNull();
  });
});
