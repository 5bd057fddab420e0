// Every stage, in the order a block goes through them after the matchers: the one list a new stage joins.
// The order matters: balance crossings join the matchers' alerts in chain order first; the mempool marking names mined alerts before windows count them; windows raise their
// crossings before cooldowns and mutes decide what goes out, so that a window's alert can be held too.
import type { AnyBlockStage } from './block-stage';
import { balancesStage } from './balances';
import { minedPendingStage } from './mined-pending';
import { cooldownsAndMutesStage } from './cooldown-mute-stage';
import { sbtcLifecycleStage } from './sbtc-lifecycle';
import { windowsStage } from './windows';

export const BLOCK_STAGES: readonly AnyBlockStage[] = [balancesStage, minedPendingStage, windowsStage, cooldownsAndMutesStage, sbtcLifecycleStage];
