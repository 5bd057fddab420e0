// What a run may hold, chosen from the function's memory as Lambda tells it.
import { describe, expect, it } from 'vitest';
import { readAheadBlocksFor, SMALL_FUNCTION_READ_AHEAD } from '../../lambda/runtime/memory-bounds';

describe('the read-ahead bound from the function memory', () => {
  it('holds a 128 MB function (or smaller) to 2 blocks read ahead', () => {
    expect(SMALL_FUNCTION_READ_AHEAD).toBe(2);
    expect(readAheadBlocksFor(128)).toEqual({ readAheadBlocks: 2 });
    expect(readAheadBlocksFor(64)).toEqual({ readAheadBlocks: 2 });
  });

  it('leaves larger functions, and a run whose memory is unknown, to the read-ahead own bound', () => {
    expect(readAheadBlocksFor(129)).toEqual({});
    expect(readAheadBlocksFor(256)).toEqual({});
    expect(readAheadBlocksFor(undefined)).toEqual({});
  });
});
