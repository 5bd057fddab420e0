// Retries without the seconds of real waiting. Every backoff pause of the watcher (the Hiro and Emily clients'
// jitter, the AWS retries in lambda/adapters/aws/retry.ts) is drawn uniformly from zero with Math.random, read
// when a client is built or a pause drawn. A draw of 0 is one production makes: the retries happen as they
// would, as many and in the same order, each after a pause of 0 ms. Nothing in the watcher draws anything else.
import { afterAll, beforeEach, vi } from 'vitest';

const drawnAtZero = () => vi.isMockFunction(Math.random);

/**
 * For every test of the enclosing file or describe block, every backoff pause drawn at its shortest. Set again
 * before each test (a suite's `vi.restoreAllMocks()` after a test ends it), and put back after the last.
 */
export function drawShortestBackoff(): void {
  beforeEach(() => {
    if (!drawnAtZero()) vi.spyOn(Math, 'random').mockReturnValue(0);
  });
  afterAll(() => {
    if (drawnAtZero()) vi.mocked(Math.random).mockRestore();
  });
}
