// What a run may hold, chosen from the function's memory as Lambda tells it.
import { describe, expect, it } from 'vitest';
import { readAheadBlocksFor, requestsInFlightFor, SMALL_FUNCTION_READ_AHEAD } from '../../lambda/runtime/memory-bounds';

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

describe('the Hiro requests in flight from the function memory', () => {
  it('holds a 128 MB function (or smaller) to 2 requests in flight', () => {
    expect(requestsInFlightFor(128)).toEqual({ concurrency: 2 });
    expect(requestsInFlightFor(64)).toEqual({ concurrency: 2 });
  });

  it("leaves larger functions, and a run whose memory is unknown, at the client's own bound", () => {
    expect(requestsInFlightFor(129)).toEqual({});
    expect(requestsInFlightFor(1_024)).toEqual({});
    expect(requestsInFlightFor(undefined)).toEqual({});
  });
});
