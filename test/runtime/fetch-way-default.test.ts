// FETCH_WAY, as `npm start` and the function read it: unset or blank is auto (the fetch plan's choice), each
// named way is itself, so a watcher reads the chain the cheapest way its rules allow unless told otherwise.
import { describe, expect, it } from 'vitest';
import { readFetchWay } from '../../lambda/runtime/api-env';

describe('FETCH_WAY', () => {
  it('reads unset or blank as auto, and each named way as itself', () => {
    expect(readFetchWay({})).toBe('auto');
    expect(readFetchWay({ FETCH_WAY: '  ' })).toBe('auto');
    for (const way of ['block-scan', 'auto', 'per-subject'] as const) expect(readFetchWay({ FETCH_WAY: way })).toBe(way);
  });
});
