// `chain-health`: the watch config's `chainHealth` section (docs/chain-health.md) as a pack entry, so a config
// built from packs turns it on the same way. Its settings are the section's, with the section's bounds; a
// `chainHealth` section written beside it must say the same (expand.ts), or the config is refused.
import * as z from '../../zod-mini';
import { CHAIN_HEALTH_DEFAULTS } from '../health/chain-health';
import { CHAIN_HEALTH_BOUNDS } from '../watch-config/chain-health-schema';
import { wholeNumber } from '../watch-config/schema-parts';
import type { RulePack } from './pack';

const params = () =>
  z.object({
    stallMinutes: z.optional(wholeNumber(...CHAIN_HEALTH_BOUNDS.stallMinutes)),
    tenureBlocks: z.optional(wholeNumber(...CHAIN_HEALTH_BOUNDS.tenureBlocks)),
  });

type Params = z.output<ReturnType<typeof params>>;

export const chainHealthPack: RulePack<Params> = {
  name: 'chain-health',
  version: 1,
  summary: 'chain health: alerts when the chain (or the API) stops, or no new tenure starts (the chainHealth section)',
  params,
  expand(p) {
    // Only the settings given: the section's defaults then stay the watcher's, as with "chainHealth": {}.
    const section: Record<string, unknown> = {};
    if (p.stallMinutes !== undefined) section.stallMinutes = p.stallMinutes;
    if (p.tenureBlocks !== undefined) section.tenureBlocks = p.tenureBlocks;
    return { chainHealth: section };
  },
  meaning: (section) => ({
    stallMinutes: section.stallMinutes ?? CHAIN_HEALTH_DEFAULTS.stallMinutes,
    tenureBlocks: section.tenureBlocks ?? CHAIN_HEALTH_DEFAULTS.tenureBlocks,
  }),
};
