import { afterAll, describe, expect, it } from 'vitest';
import { DocumentStateStore, emptyDocument } from '../../lambda/adapters/file/state-document';
import { CRASH_POINTS } from '../support/crash-points';
import { runCrashScenario, scenarioChain } from './crash-scenario';

const table: string[] = [];
afterAll(() => {
  console.log(['crash point | occurrence | runs | alerts | published | duplicates', ...table].join('\n'));
});

describe('a crash at every step of a cycle (in-memory document store)', async () => {
  const reference = await runCrashScenario(scenarioChain(), new DocumentStateStore(emptyDocument('mainnet')), null, 0);
  const expected = [...reference.counts.keys()];

  it('has a reference run that publishes every alert once', () => {
    expect(expected).toHaveLength(8); // 1 status + 3 transfers + 4 logs
    expect([...reference.counts.values()].every((n) => n === 1)).toBe(true);
  });

  for (const point of CRASH_POINTS) {
    for (const occurrence of [1, 2, 3, 5, 8]) {
      it(`ends with every alert published, a duplicate only in the documented window: ${point} #${occurrence}`, async () => {
        const chain = scenarioChain();
        const result = await runCrashScenario(chain, new DocumentStateStore(emptyDocument('mainnet')), point, occurrence);
        const published = [...result.counts.values()].reduce((a, b) => a + b, 0);
        const duplicates = [...result.counts.values()].filter((n) => n > 1).length;
        table.push(`${point} | ${occurrence} | ${result.runs} | ${expected.length} | ${published} | ${duplicates}`);
        expect(result.cursorHeight).toBe(chain.tip.height);
        expect(new Set(result.counts.keys())).toEqual(new Set(expected));
        for (const n of result.counts.values()) expect(n).toBeLessThanOrEqual(2);
        const duplicated = [...result.counts].filter(([, n]) => n > 1).map(([key]) => key);
        // The documented window: published, then the run died before marking them sent.
        for (const key of duplicated) expect(result.interruptedBatch).toContain(key);
      });
    }
  }
});
