import { describe, expect, it, vi } from 'vitest';
import { formatCount, formatStx } from '../../lambda/core/render';
import { groupDigits } from '../../lambda/core/render/stx-amount';

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

describe('digit grouping', () => {
  // The renderer groups by hand (no ICU in the function); en-US's own grouping is the reference.
  const reference = new Intl.NumberFormat('en-US', { useGrouping: true });
  const samples = [0n, 1n, 12n, 123n, 1234n, 12345n, 123456n, 1234567n, 1000000n, 999999999n, 2n ** 53n + 1n, 2n ** 128n - 1n];

  it.each(samples.flatMap((n) => [n, -n]))('groups %s as en-US does', (value) => {
    expect(groupDigits(value)).toBe(reference.format(value));
  });

  it.each([0, 7, 999, 1000, -1000, 182345, Number.MAX_SAFE_INTEGER])('counts %s as en-US does', (value) => {
    expect(formatCount(value)).toBe(reference.format(value));
  });

  it('renders amounts and counts without ICU: no Intl.NumberFormat formats them', () => {
    // `format` is an accessor of the prototype: any NumberFormat, made now or cached earlier, goes through it.
    const formatted = vi.spyOn(Intl.NumberFormat.prototype as unknown as { format: unknown }, 'format', 'get');
    const built = vi.spyOn(Intl, 'NumberFormat');
    try {
      formatStx('1250500000');
      formatCount(182345);
      groupDigits(10n ** 30n);
      expect(formatted).not.toHaveBeenCalled();
      expect(built).not.toHaveBeenCalled();
    } finally {
      formatted.mockRestore();
      built.mockRestore();
    }
  });
});
