// The windows (`windows` rules) as a stage: each block's alerts feed the windows of their rules, and a window
// that crosses its threshold raises `window_threshold` after them (window-stage.ts counts; window-state.ts
// keeps the counts and takes them back to a fork point). Alerts of rules that say `"alert": false` only feed
// their windows and go no further. The counts ride with the cursor.
import { advanceWindows } from './window-stage';
import { rollbackWindows, type WindowStates } from './window-state';
import type { BlockStage } from './block-stage';

export const windowsStage: BlockStage<WindowStates> = {
  name: 'windows',
  version: 1,
  kept: 'cursor',
  open({ rules }) {
    return {
      apply(at, alerts, state) {
        const outcome = advanceWindows(rules.windows, state, at.block.header, alerts, at.network);
        return { alerts: [...outcome.sent, ...outcome.alerts], state: outcome.states };
      },
      rollback(state, forkHeight) {
        const back = rollbackWindows(state, forkHeight);
        return { state: back.states, inexact: back.inexact };
      },
    };
  },
};
