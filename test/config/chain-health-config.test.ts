import { describe, expect, it } from 'vitest';
import { parseWatchConfig } from '../../lambda/config/watch-config';

const parse = (chainHealth: unknown) =>
  parseWatchConfig({ network: 'mainnet', addresses: ['SP2C2YFP12AJZB4MABJBAJ55XECVS7E4PMMZ89YZR'], ...(chainHealth === undefined ? {} : { chainHealth }) });

describe('the chainHealth section', () => {
  it('is off when left out, and on with the defaults as {}', () => {
    const off = parse(undefined);
    const on = parse({});
    expect(off.ok && off.config.chainHealth).toBeUndefined();
    expect(on.ok && on.config.chainHealth).toEqual({});
  });

  it('takes its two thresholds within their bounds', () => {
    const result = parse({ stallMinutes: 15, tenureBlocks: 3 });
    expect(result.ok && result.config.chainHealth).toEqual({ stallMinutes: 15, tenureBlocks: 3 });
  });

  it.each([
    [{ stallMinutes: 1 }, 'stallMinutes', 'a whole number from 2 to 1440'],
    [{ tenureBlocks: 0 }, 'tenureBlocks', 'a whole number from 1 to 144'],
    [{ stallMinutes: '10' }, 'stallMinutes', 'written without quotes'],
    [true, 'chainHealth', 'must be an object'],
  ])('refuses %j, naming what is wrong', (value, path, words) => {
    const result = parse(value);
    expect(result.ok).toBe(false);
    const text = JSON.stringify(!result.ok && result.problems);
    expect(text).toContain(path);
    expect(text).toContain(words);
  });

  it('refuses an unknown key inside it', () => {
    const result = parse({ stallMinute: 10 });
    expect(result.ok).toBe(false);
    expect(JSON.stringify(!result.ok && result.problems)).toContain('stallMinute');
  });
});
