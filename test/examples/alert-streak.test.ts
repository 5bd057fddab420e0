// The worked example of CONTRIBUTING.md, "Adding a stage": a stage registered beside the shipped ones (the one
// line registry.ts would get) runs over every block, its state rides the cursor write through the state store
// and loads again in the next run, and a reorg takes it back to the fork point.
import { describe, expect, it } from 'vitest';
import type { ChainAlert } from '../../lambda/core/alert-kinds/alert';
import { compileWatchRules } from '../../lambda/core/rules/rule-lists';
import type { Block } from '../../lambda/core/domain';
import { CursorKeeper } from '../../lambda/core/scan/cursor-keeper';
import { OpenStages } from '../../lambda/core/stages/open-stages';
import { BLOCK_STAGES } from '../../lambda/core/stages/registry';
import { DocumentStateStore, emptyDocument } from '../../lambda/adapters/file/state-document';
import { alertStreakStage, streakAt, STREAK_KEPT_BLOCKS, type StreakState } from '../../docs/examples/alert-streak';
import { config, RecordingTelemetry } from '../core/harness';
import { MemoryChain } from '../support/memory-chain';

const registry = [...BLOCK_STAGES, alertStreakStage];
const block = (height: number): Block => ({
  header: { height, hash: `0x${height}`, parentHash: `0x${height - 1}`, time: 1_700_000_000 + height * 10, txCount: 0 },
  transactions: [],
});
const alert = (height: number) =>
  ({
    type: 'stx_transfer',
    key: `stx_transfer:0x${height}:0`,
    network: 'mainnet',
    rule: 'transfers',
    severity: 'warning',
    tx_id: `0x${height}`,
    block_height: height,
  }) as unknown as ChainAlert;

function run(state: DocumentStateStore) {
  const telemetry = new RecordingTelemetry();
  const deps = { chain: new MemoryChain(), state, clock: { now: () => 0 }, telemetry };
  return OpenStages.open({ deps, rules: compileWatchRules(config()), network: 'mainnet' }, registry);
}

/** Blocks through the stages and the keeper, as the scanner runs them: [height, alerts in it]. */
async function scan(state: DocumentStateStore, blocks: [number, number][]) {
  const stages = run(state);
  const keeper = new CursorKeeper(state, new RecordingTelemetry(), await state.readCursor());
  keeper.carry(stages, await stages.load(keeper.cursor));
  for (const [height, n] of blocks) {
    const staged = await stages.apply(
      { block: block(height), events: new Map(), network: 'mainnet' },
      Array.from({ length: n }, () => ({ alert: alert(height), at: { txIndex: 0, eventIndex: 0 } })),
      keeper.states,
    );
    expect(staged.send).toHaveLength(n);
    await keeper.blockDone(
      block(height).header,
      staged.alerts.map((a) => a.key),
      undefined,
      staged.states,
    );
  }
  await keeper.save();
  return { stages, keeper };
}

describe('a stage added to the registry', () => {
  it('keeps its state with the cursor, under its name and version, and the next run loads it', async () => {
    const state = new DocumentStateStore(emptyDocument('mainnet'));
    await scan(state, [
      [1, 1],
      [2, 0],
      [3, 2],
      [4, 1],
    ]);
    const stored = await state.readCursor();
    expect(stored?.stages).toEqual({ alertStreak: { v: 1, state: { heights: [1, 3, 4] } } });
    const next = await scan(state, [[5, 1]]);
    expect(streakAt(next.keeper.states.alertStreak as StreakState, 5)).toBe(3);
  });

  it('is taken back to the fork point by a reorg, and says when the fork is deeper than it keeps', async () => {
    const state = new DocumentStateStore(emptyDocument('mainnet'));
    const { stages, keeper } = await scan(state, [
      [1, 1],
      [2, 1],
      [3, 1],
    ]);
    const back = stages.rollback(keeper.states, 1);
    expect(back.states.alertStreak).toEqual({ heights: [1] });
    expect(back.inexact).toEqual({});
    const blocks: [number, number][] = Array.from({ length: STREAK_KEPT_BLOCKS + 4 }, (_, i) => [10 + i, 1]);
    const long = await scan(new DocumentStateStore(emptyDocument('mainnet')), blocks);
    expect(long.stages.rollback(long.keeper.states, 11).inexact).toEqual({ alertStreak: ['streak'] });
  });

  it('leaves a state stored at another version behind rather than hand it to the stage', async () => {
    const state = new DocumentStateStore(emptyDocument('mainnet'));
    await state.writeCursor({ height: 7, hash: '0x7', time: 0, stages: { alertStreak: { v: 2, state: { other: 'shape' } } } }, null);
    const stages = run(state);
    expect((await stages.load(await state.readCursor())).alertStreak).toBeUndefined();
  });
});
