// drawShortestBackoff: inside its block every backoff pause is 0 ms, test after test, even once a suite has put
// its mocks back; after the block the pauses are drawn at random again. And the watcher draws nothing else with
// Math.random, which the helper stubs for a whole file.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { backoffDelay } from '../../lambda/adapters/aws/retry';
import { drawShortestBackoff } from './shortest-backoff';

const LAMBDA = fileURLToPath(new URL('../../lambda/', import.meta.url));
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

describe('what the watcher draws with Math.random', () => {
  it('is a backoff pause and nothing else: the three backoffs are its only callers', () => {
    const callers = readdirSync(LAMBDA, { recursive: true, encoding: 'utf8' })
      .filter((path) => path.endsWith('.ts') && readFileSync(`${LAMBDA}${path}`, 'utf8').includes('Math.random'))
      .sort();
    expect(callers).toEqual(['adapters/aws/retry.ts', 'emily/options.ts', 'hiro/options.ts']);
  });
});
