// The crash-at-every-step suite for one kind of state store: for each setting (a steady chain, a reorg), a
// crash at every pass of every crash point that a clean run makes, each scenario on fresh state, and a
// table of the counts printed at the end.
import { afterAll, describe, expect, it } from 'vitest';
import { DocumentStateStore, emptyDocument } from '../../lambda/adapters/file/state-document';
import { CRASH_POINTS, type CrashPoint } from '../support/crash-points';
import { REORGED, STEADY, type CrashSetting } from './crash-chains';
import { CALL_SIZE, runCrashScenario, type OpenState, type ScenarioResult } from './crash-scenario';

/** A clean run of each setting over the in-memory store: every pass it makes of a crash point is a place to crash. */
async function reference(setting: CrashSetting): Promise<ScenarioResult> {
  const store = new DocumentStateStore(emptyDocument('mainnet'));
  return runCrashScenario(setting, () => store, null, 0);
}
const SETTINGS = await Promise.all([STEADY, REORGED].map(async (setting) => ({ setting, reference: await reference(setting) })));

const typeCounts = (keys: Iterable<string>) => {
  const counts: Record<string, number> = {};
  for (const key of keys) counts[key.split(':')[0]!] = (counts[key.split(':')[0]!] ?? 0) + 1;
  return counts;
};

/** Passes of one point to crash at: every one, or (for slower stores) the first few and the last few. */
function occurrencesOf(passes: number, every: boolean): number[] {
  const all = Array.from({ length: passes }, (_, i) => i + 1);
  if (every || passes <= 7) return all;
  return [...all.slice(0, 4), ...all.slice(-3)];
}

/**
 * `fresh` gives each scenario its own empty state, returning how a new process opens it; `label` names the
 * store in test names and the printed table. `every: false` crashes at the first and last few passes of a
 * point that a run passes many times (a rescan), keeping slower stores fast.
 */
export function describeCrashAtEveryStep(label: string, fresh: () => Promise<OpenState>, options: { every: boolean }): void {
  for (const { setting, reference } of SETTINGS) {
    const table: string[] = [];
    afterAll(() => {
      const header = 'crash point | occurrence | runs | alerts | published | duplicates';
      console.log([`crash at every step, ${label}, ${setting.name}:`, header, ...table].join('\n'));
    });

    describe(`a crash at every step of a cycle (${label}, ${setting.name})`, () => {
      const expected = [...reference.counts.keys()];
      const occurrences = (point: CrashPoint) => occurrencesOf(reference.passes.get(point) ?? 0, options.every);

      it('has a clean run that publishes every alert once and passes every crash point', async () => {
        const clean = await runCrashScenario(setting, await fresh(), null, 0);
        expect(typeCounts(expected)).toEqual(setting.expects);
        expect(clean.counts).toEqual(new Map(expected.map((key) => [key, 1])));
        expect(clean.passes).toEqual(reference.passes);
        for (const point of CRASH_POINTS) expect(clean.passes.get(point), point).toBeGreaterThan(0);
      });

      for (const point of CRASH_POINTS) {
        for (const occurrence of occurrences(point)) {
          it(`ends with every alert published, a duplicate only in the documented window: ${point} #${occurrence}`, async () => {
            const result = await runCrashScenario(setting, await fresh(), point, occurrence);
            const published = [...result.counts.values()].reduce((a, b) => a + b, 0);
            const duplicated = [...result.counts].filter(([, n]) => n > 1).map(([key]) => key);
            table.push(`${point} | ${occurrence} | ${result.runs} | ${expected.length} | ${published} | ${duplicated.length}`);
            expect(result.crashed).toBe(true);
            expect(result.cursorHeight).toBe(result.chain.tip.height);
            expect(new Set(result.counts.keys())).toEqual(new Set(expected));
            for (const n of result.counts.values()) expect(n).toBeLessThanOrEqual(2);
            // The documented window: one publish call's alerts, published, then the run died before marking them sent.
            expect(result.interruptedBatch.length).toBeLessThanOrEqual(CALL_SIZE);
            for (const key of duplicated) expect(result.interruptedBatch).toContain(key);
          });
        }
      }
    });
  }
}
