// Rules' cooldowns and mutes as a stage: each of the block's alerts is sent, held by its rule's cooldown or
// muted (cooldowns-and-mutes.ts decides, on block time); a held or muted one stays one of the block's alerts (its key
// is the block's) but is recorded instead of sent, once the block's alerts are delivered. The summaries of
// the cooldowns the block's time ends go out first. The state rides with the cursor (cooldown-mute-state.ts) and a
// reorg takes it back to the fork point (cooldown-mute-rollback.ts).
import { cooldownSummaryOf } from '../alert-kinds/cooldown-summary';
import type { CooldownMuteState } from './cooldown-mute-state';
import { rollbackCooldownsAndMutes } from './cooldown-mute-rollback';
import { decideCooldownsAndMutes } from './cooldowns-and-mutes';
import type { BlockStage } from './block-stage';

export const cooldownsAndMutesStage: BlockStage<CooldownMuteState> = {
  name: 'quiet',
  version: 1,
  kept: 'cursor',
  open({ rules, deps }) {
    const policies = rules.cooldownsAndMutes;
    const store = deps.state;
    return {
      apply(at, alerts, state) {
        const decided = decideCooldownsAndMutes(state, at.block.header, alerts, policies);
        const summaries = decided.ended.map((ended) => cooldownSummaryOf(ended, at.network));
        const record = async () => {
          for (const { alert, state: recorded, reason } of decided.heldOrMuted)
            await store?.recordHeldOrMuted(alert.key, deps.clock.now(), alert, recorded, reason);
        };
        return {
          alerts: [...summaries, ...alerts],
          state: decided.state,
          unsent: decided.heldOrMuted.map((q) => q.alert),
          ...(decided.heldOrMuted.length > 0 && store ? { afterDelivery: record } : {}),
        };
      },
      rollback(state, forkHeight) {
        const back = rollbackCooldownsAndMutes(state, forkHeight);
        return { state: back.state, inexact: back.inexact ? ['cooldowns and mutes'] : [] };
      },
    };
  },
};
