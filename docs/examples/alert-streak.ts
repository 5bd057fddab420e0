// The worked example of CONTRIBUTING.md, "Adding a stage": a stage not shipped that remembers across blocks,
// type-checked by CI and tested (test/examples/alert-streak.test.ts). It counts the blocks in a row that had
// alerts and passes the alerts on unchanged; a shipped stage would act on its state (raise an alert of its
// own kind, hold some back). Registering it is one line in lambda/core/stages/registry.ts.
import type { BlockStage } from '../../lambda/core/stages/block-stage';

/** How many of the last blocks it keeps: a reorg deeper than that cannot be undone exactly. */
export const STREAK_KEPT_BLOCKS = 16;

/** Plain JSON: the cursor keeper stores it with the cursor, with the stage's version beside it. */
export interface StreakState {
  /** Heights of the last blocks that had alerts, ascending, at most STREAK_KEPT_BLOCKS. */
  heights: number[];
}

/** Blocks in a row, ending at `height`, that had alerts. */
export function streakAt(state: StreakState | undefined, height: number): number {
  let streak = 0;
  for (let i = (state?.heights.length ?? 0) - 1; i >= 0 && state!.heights[i] === height - streak; i -= 1) streak += 1;
  return streak;
}

export const alertStreakStage: BlockStage<StreakState> = {
  name: 'alertStreak',
  version: 1,
  // Small and bounded: it rides in the cursor write, so a crash rescans from the state that goes with the cursor.
  kept: 'cursor',
  open() {
    return {
      apply(at, alerts, state) {
        const height = at.block.header.height;
        const heights = (state?.heights ?? []).filter((h) => h < height);
        if (alerts.length > 0) heights.push(height);
        return { alerts, state: heights.length > 0 ? { heights: heights.slice(-STREAK_KEPT_BLOCKS) } : undefined };
      },
      rollback(state, forkHeight) {
        if (!state) return { state };
        const heights = state.heights.filter((h) => h <= forkHeight);
        // Below the oldest kept height the streak may have been longer than what is left: say so.
        const inexact = state.heights.length === STREAK_KEPT_BLOCKS && forkHeight < state.heights[0]! ? ['streak'] : [];
        return { state: heights.length > 0 ? { heights } : undefined, inexact };
      },
    };
  },
};
