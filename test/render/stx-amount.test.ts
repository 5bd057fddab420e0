import { describe, expect, it } from 'vitest';
import { formatCount, formatStx } from '../../lambda/core/render';

describe('formatStx', () => {
  it.each([
    ['0', '0.000000 STX'],
    ['1', '0.000001 STX'],
    ['999999', '0.999999 STX'],
    ['1000000', '1.000000 STX'],
    ['1250500000', '1,250.500000 STX'],
    ['123456789012345678901234', '123,456,789,012,345,678.901234 STX'],
  ])('shows %s micro-STX exactly as %s', (micro, expected) => {
    expect(formatStx(micro)).toBe(expected);
  });

  it.each([
    ['0', '0 STX'],
    ['1', '0.000001 STX'],
    ['1000000', '1 STX'],
    ['1250500000', '1,250.5 STX'],
    ['123456789012345678901234', '123,456,789,012,345,678.901234 STX'],
  ])('drops only trailing zeros in the short style: %s → %s', (micro, expected) => {
    expect(formatStx(micro, 'short')).toBe(expected);
  });

  it('leaves out grouping in the plain style', () => {
    expect(formatStx('1250500000', 'plain')).toBe('1250.5 STX');
  });

  it('keeps every digit of an amount beyond 2^53, where a float would round', () => {
    const micro = '9007199254740993'; // 2^53 + 1
    expect(Number(micro) / 1e6).not.toBe(9007199254.740993);
    expect(formatStx(micro, 'plain')).toBe('9007199254.740993 STX');
  });

  it.each([['-1'], ['1.5'], [''], ['1e6'], [' 1']])('refuses %j, which is no micro-STX amount', (bad) => {
    expect(() => formatStx(bad)).toThrow(/not a micro-STX amount/);
  });
});

describe('formatCount', () => {
  it('groups thousands', () => {
    expect(formatCount(182345)).toBe('182,345');
    expect(formatCount(7)).toBe('7');
  });
});
