// Every rule pack, in the order the docs and --check list them.
import { chainHealthPack } from './chain-health';
import type { AnyRulePack } from './pack';
import { pox5StakingPack } from './pox-5-staking';
import { sbtcBridgePack } from './sbtc-bridge';

export const RULE_PACKS: readonly AnyRulePack[] = [sbtcBridgePack, pox5StakingPack, chainHealthPack];
