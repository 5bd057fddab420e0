// A stage kept in a record of its own goes through the state's named records by its name: the run starts
// from that record, writes it back under that name before the cursor write, and a stage whose name is no
// record's is refused when the run opens its stages, rather than written nowhere.
import { describe, expect, it } from 'vitest';
import { DocumentStateStore, emptyDocument } from '../../../lambda/adapters/file/state-document';
import type { AnyBlockStage, RecordKeptStage } from '../../../lambda/core/stages/block-stage';
import { compileWatchRules } from '../../../lambda/core/rules/rule-lists';
import { emptyBook } from '../../../lambda/core/stages/balance-book';
import { OpenStages } from '../../../lambda/core/stages/open-stages';
import type { StageRun } from '../../../lambda/core/stages/block-stage';
import { config, RecordingTelemetry } from '../harness';
import { MemoryChain } from '../../support/memory-chain';

/** A book that only counts the blocks it saw in its base height, kept in the `balances` record. */
function countingStage(seen: { loaded: unknown[] }): RecordKeptStage<'balances'> {
  return {
    name: 'balances',
    version: 1,
    kept: 'record',
    open: () => ({
      apply: (at, alerts, state) => ({ alerts, state: { ...(state ?? emptyBook()), base: { height: at.block.header.height, entries: {} } } }),
      rollback: (state) => ({ state }),
      record: {
        loaded(stored, cursorHeight) {
          seen.loaded.push({ stored, cursorHeight });
          return stored ?? undefined;
        },
        take: (state) => state ?? null,
      },
    }),
  };
}

const run = (state?: DocumentStateStore): StageRun => ({
  deps: { chain: new MemoryChain(), clock: { now: () => 0 }, telemetry: new RecordingTelemetry(), ...(state ? { state } : {}) },
  rules: compileWatchRules(config({})),
  network: 'mainnet',
});

describe('a stage kept in a record of its own', () => {
  it('starts from the named record of its name and writes it back under that name', async () => {
    const state = new DocumentStateStore(emptyDocument('mainnet'));
    await state.writeRecord('balances', { base: { height: 7, entries: {} }, deltas: [] });
    const seen = { loaded: [] as unknown[] };
    const stages = OpenStages.open(run(state), [countingStage(seen)]);
    const loaded = await stages.load({ height: 7, hash: '0x07', time: 0 });
    expect(seen.loaded).toEqual([{ stored: { base: { height: 7, entries: {} }, deltas: [] }, cursorHeight: 7 }]);
    await stages.writeRecords({ balances: { ...(loaded.balances as object), base: { height: 8, entries: {} } } }, 8);
    expect(await state.readRecord('balances')).toEqual({ base: { height: 8, entries: {} }, deltas: [] });
  });

  it('starts from nothing in a replay, which has no state to read or write', async () => {
    const seen = { loaded: [] as unknown[] };
    const stages = OpenStages.open(run(), [countingStage(seen)]);
    await stages.load(null);
    expect(seen.loaded).toEqual([{ stored: null, cursorHeight: null }]);
    await expect(stages.writeRecords({ balances: emptyBook() }, 1)).resolves.toBeUndefined();
  });

  it('is refused when no named record has its name', () => {
    const stray = { ...countingStage({ loaded: [] }), name: 'streaks' } as unknown as AnyBlockStage;
    expect(() => OpenStages.open(run(), [stray])).toThrow(/stage streaks is kept in a record, but no record has that name/);
  });
});
