// The run's choice: the block scan unless the budget asks otherwise; `auto` follows the fetch plan and says it
// in the run's log; `per-subject` reads per subject whenever the rules allow it; an adapter without the feeds
// keeps the block scan.
import { describe, expect, it } from 'vitest';
import { parseWatchConfig } from '../../lambda/config/watch-config';
import { compileWatchRules, type WatchRules } from '../../lambda/core/rules/rule-lists';
import { chooseRunSource, readRunTip } from '../../lambda/core/follow/fetch-choice';
import { MissingFeedRoutes } from '../../lambda/core/follow/subject-fallback';
import type { ChainApi } from '../../lambda/core/ports';
import { SubjectSource } from '../../lambda/core/follow/subject-source';
import type { SubjectFeedApi } from '../../lambda/core/follow/subject-feeds';
import { fakeAddress } from '../support/fake-hiro';
import { RecordingTelemetry } from './harness';

const sourceFor = (...args: Parameters<typeof chooseRunSource>) => chooseRunSource(...args).source;

function rules(addresses: number): WatchRules {
  const parsed = parseWatchConfig({ network: 'mainnet', addresses: Array.from({ length: addresses }, (_, i) => fakeAddress(`a${i}`)) });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return compileWatchRules(parsed.config);
}

function chain(retired: boolean, withFeeds = true): ChainApi {
  const subjects = { headerRoute: 'GET /extended/v3/blocks', eventsRetired: () => retired } as unknown as SubjectFeedApi;
  return { ...(withFeeds ? { subjects } : {}) } as ChainApi;
}

describe('choosing the source of a run', () => {
  it('keeps the block scan when the budget does not ask, and says nothing', () => {
    const telemetry = new RecordingTelemetry();

    expect(sourceFor(undefined, chain(true), rules(2), 7, telemetry)).toBeNull();
    expect(telemetry.logs).toEqual([]);
  });

  it('follows the plan under auto: per subject once /tx/multiple is gone, the block scan while it answers', () => {
    const telemetry = new RecordingTelemetry();

    const gone = sourceFor('auto', chain(true), rules(10), 7, telemetry);
    const answering = sourceFor('auto', chain(false), rules(10), 7, telemetry);

    expect(gone).toBeInstanceOf(SubjectSource);
    expect(answering).toBeNull();
    expect(telemetry.logs.map((line) => [line.message, line.attributes?.reason])).toEqual([
      ['fetch plan: per subject', 'reading 10 subjects over 7 blocks costs about 12 requests, against 113 for the block scan'],
      ['fetch plan: the block scan', 'the block scan costs about 10 requests for 7 blocks, no more than the 12 of reading 10 subjects'],
    ]);
  });

  it('reads per subject when asked even where the block scan is cheaper, but never without the feeds', () => {
    const telemetry = new RecordingTelemetry();

    expect(sourceFor('per-subject', chain(false), rules(10), 7, telemetry)).toBeInstanceOf(SubjectSource);
    expect(sourceFor('per-subject', chain(false, false), rules(10), 7, telemetry)).toBeNull();
  });

  it('counts walking the header chain and every feed down from the tip: the block scan far behind it, per subject near it', () => {
    const telemetry = new RecordingTelemetry();

    expect(sourceFor('auto', chain(false), rules(10), 10, telemetry, 600)).toBeNull();
    expect(sourceFor('auto', chain(false), rules(10), 10, telemetry, 10)).toBeInstanceOf(SubjectSource);
    expect(telemetry.logs.map((line) => line.attributes?.reason)).toEqual([
      'the block scan costs about 13 requests for 10 blocks, no more than the 31 of reading 10 subjects',
      'reading 10 subjects over 10 blocks costs about 12 requests, against 13 for the block scan',
    ]);
  });

  it('keeps the block scan while the run is further behind the tip than the header chain reaches', () => {
    const telemetry = new RecordingTelemetry();

    expect(sourceFor('per-subject', chain(true), rules(2), 500, telemetry, 601)).toBeNull();
    expect(sourceFor('per-subject', chain(true), rules(2), 500, telemetry, 600)).toBeInstanceOf(SubjectSource);
    expect(telemetry.logs[0]?.attributes?.reason).toBe("601 blocks behind the tip, more than the header chain's reach of 600");
  });
});

describe("the run's tip", () => {
  const header = { height: 9, hash: '0x09' };
  const API = 'http://127.0.0.1:3999/';
  function tipChain(asked: string[]): ChainApi {
    const subjects = { api: API, tip: async () => (asked.push('header chain'), header) } as unknown as SubjectFeedApi;
    return { subjects, getTip: async () => (asked.push('tip route'), header) } as unknown as ChainApi;
  }

  it('comes from the header chain under auto, and from the tip route while a route the process found missing is not due again', async () => {
    const asked: string[] = [];
    const routes = new MissingFeedRoutes();
    await readRunTip(tipChain(asked), 'auto', { routes, now: 1_000 });
    routes.of(API).missing.set('GET /extended/v3/blocks', 2_000);

    await readRunTip(tipChain(asked), 'auto', { routes, now: 1_500 });
    await readRunTip(tipChain(asked), 'auto', { routes, now: 2_000 });

    expect(asked).toEqual(['header chain', 'tip route', 'header chain']);
  });
});
