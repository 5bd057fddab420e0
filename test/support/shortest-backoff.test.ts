// drawShortestBackoff: inside its block every backoff pause is 0 ms, test after test, even once a suite has put
// its mocks back; after the block the pauses are drawn at random again.
import { describe, expect, it, vi } from 'vitest';
import { backoffDelay } from '../../lambda/adapters/aws/retry';
import { drawShortestBackoff } from './shortest-backoff';

const policy = { maxAttempts: 5, baseDelayMs: 1_000, maxDelayMs: 10_000 };
const pauses = () => [1, 2, 3, 4, 5].map((attempt) => backoffDelay(attempt, policy));

describe.sequential('a block that draws the shortest backoff', () => {
  drawShortestBackoff();

  it('pauses 0 ms before every retry', () => {
    expect(pauses()).toEqual([0, 0, 0, 0, 0]);
    // As lambdaOnDynalite does after each test.
    vi.restoreAllMocks();
  });

  it('still does in the next test, after a suite put every mock back', () => {
    expect(pauses()).toEqual([0, 0, 0, 0, 0]);
  });
});

describe.sequential('after that block', () => {
  it('draws the pauses at random again', () => {
    expect(vi.isMockFunction(Math.random)).toBe(false);
    const drawn = new Set(Array.from({ length: 20 }, () => backoffDelay(5, policy)));
    expect(drawn.size).toBeGreaterThan(1);
  });
});
