// The fetch plan estimates with what a process's earlier runs saw (observed-activity.ts): each subject's feed
// items a block, the share of named transactions read, and the block scan's blocks, each an exponentially
// weighted figure beside the mainnet-like pace, fading back to the pace when not seen again, for a bounded
// number of subjects.
import { describe, expect, it } from 'vitest';
import { parseWatchConfig } from '../../lambda/config/watch-config';
import { compileWatchRules, type WatchRules } from '../../lambda/core/rules/rule-lists';
import { chooseFetchPlan, MAINNET_PACE } from '../../lambda/core/follow/fetch-plan';
import { FADE_HALF_LIFE_MS, ObservedActivity, RunActivity } from '../../lambda/core/follow/observed-activity';
import type { Block } from '../../lambda/core/domain';
import { fakeAddress } from '../support/fake-hiro';

const addresses = Array.from({ length: 10 }, (_, i) => fakeAddress(`payer-${i}`));
const NOW = 1_780_000_000_000;

function rules(watched: readonly string[] = addresses): WatchRules {
  const parsed = parseWatchConfig({ network: 'mainnet', addresses: watched });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return compileWatchRules(parsed.config);
}

/** A run that read `blocks` blocks per subject and saw each subject's feed name `perBlock` items a block, each read for its events. */
function runSeeing(perBlock: number, blocks = 10, subjects = addresses): RunActivity {
  const run = new RunActivity();
  for (const subject of subjects) run.subject(subject, perBlock * blocks, blocks);
  run.namedRead(perBlock * blocks * subjects.length, perBlock * blocks * subjects.length);
  return run;
}

const plan = (observed?: ObservedActivity, at = NOW, retired = false, watched = addresses) =>
  chooseFetchPlan({ rules: rules(watched), blocks: 10, budget: Number.POSITIVE_INFINITY, retired, ...(observed ? { observed: observed.paceAt(at) } : {}) });

describe('the fetch plan with what earlier runs saw', () => {
  it('reads per subject at the pace, and turns to the block scan once the subjects are seen far busier than it', () => {
    const busy = new ObservedActivity();
    busy.record(runSeeing(3), NOW);

    expect(plan()).toMatchObject({ way: 'per-subject', estimate: { perSubject: 12, blockScan: 13 } });
    expect(plan(busy)).toMatchObject({ way: 'block-scan', observed: { subjects: 10, blockScan: false } });
    expect(plan(busy).estimate.perSubject).toBeGreaterThan(13);
    expect(plan(busy).reason).toMatch(
      /^the block scan costs about 13 requests for 10 blocks, no more than the \d+ of reading 10 subjects \(estimated from what earlier runs saw: 10 of 10 subject feeds\)$/,
    );
  });

  it('keeps reading per subject when the subjects are seen as quiet as the pace or quieter, and says it estimated from them', () => {
    const quiet = new ObservedActivity();
    quiet.record(runSeeing(0), NOW);

    expect(plan(quiet)).toMatchObject({ way: 'per-subject', observed: { subjects: 10, blockScan: false } });
    expect(plan(quiet).reason).toBe(
      'reading 10 subjects over 10 blocks costs about 12 requests, against 13 for the block scan (estimated from what earlier runs saw: 10 of 10 subject feeds)',
    );
  });

  it('estimates the block scan from the blocks it read: small blocks with no event to read make it the cheaper way', () => {
    const thirty = Array.from({ length: 30 }, (_, i) => fakeAddress(`holder-${i}`));
    const scanned = new ObservedActivity();
    const run = new RunActivity();
    const small = { header: { height: 1 }, transactions: [{ txId: '0x01' }] } as unknown as Block;
    run.scan(
      Array.from({ length: 200 }, () => small),
      0,
    );
    scanned.record(run, NOW);

    // Once /tx/multiple answers 410, the pace's 15 event reads a block make the block scan dear; these blocks had none.
    expect(plan(undefined, NOW, true, thirty)).toMatchObject({ way: 'per-subject', estimate: { perSubject: 34, blockScan: 161 } });
    expect(plan(scanned, NOW, true, thirty)).toMatchObject({ way: 'block-scan', estimate: { blockScan: 14 }, observed: { subjects: 0, blockScan: true } });
    expect(plan(scanned, NOW, true, thirty).reason).toContain("(estimated from what earlier runs saw: the block scan's blocks)");
  });

  it('fades back to the pace when the subjects are not seen again, so that a later run reads per subject and sees afresh', () => {
    const busy = new ObservedActivity();
    busy.record(runSeeing(3), NOW);

    expect(plan(busy, NOW + FADE_HALF_LIFE_MS).way).toBe('block-scan');
    expect(plan(busy, NOW + 12 * FADE_HALF_LIFE_MS).way).toBe('per-subject');
  });

  it('weighs each observation down by half for every 100 blocks seen after it, the pace weighing as 3 blocks', () => {
    const seen = new ObservedActivity();
    const [subject] = addresses;
    const run = (perBlock: number) => {
      const activity = new RunActivity();
      activity.subject(subject!, perBlock * 100, 100);
      return activity;
    };
    seen.record(run(1), NOW);
    seen.record(run(0), NOW);

    // (100 × ½ + 0) / (100 × ½ + 100), beside the pace's 0.05 weighing as 3 blocks.
    expect(seen.paceAt(NOW).itemsPerBlock(subject!, MAINNET_PACE.hitsPerSubjectBlock)).toBeCloseTo((50 + 0.05 * 3) / (150 + 3), 9);
    expect(seen.paceAt(NOW).itemsPerBlock(fakeAddress('never-seen'), MAINNET_PACE.hitsPerSubjectBlock)).toBeUndefined();
  });

  it('remembers at most its ceiling of subjects, forgetting the least recently seen first', () => {
    const seen = new ObservedActivity(3);
    const [a, b, c, d] = addresses as [string, string, string, string];
    seen.record(runSeeing(1, 10, [a, b, c]), NOW);
    seen.record(runSeeing(1, 10, [a]), NOW);
    seen.record(runSeeing(1, 10, [d]), NOW);

    const pace = seen.paceAt(NOW);
    expect(seen.size).toBe(3);
    expect([a, b, c, d].map((s) => pace.itemsPerBlock(s, 0.05) !== undefined)).toEqual([true, false, true, true]);
  });
});
