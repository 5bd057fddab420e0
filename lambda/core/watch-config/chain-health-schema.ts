// `chainHealth`: alerts about the chain itself (core/health/chain-health.ts). Off unless the key is there: a chain
// health alert is no rule's match and goes to every subscriber, so a config says it wants them; `{}` takes the
// defaults. Bounded both ways: a stall shorter than 2 minutes is a slow block, a day is no alert at all.
import * as z from '../../zod-mini';
import { comment, wholeNumber } from './schema-parts';

export const CHAIN_HEALTH_BOUNDS = { stallMinutes: [2, 1_440], tenureBlocks: [1, 144] } as const;

export const chainHealthSchema = z.optional(
  z.strictObject(
    {
      $comment: comment,
      /** Minutes without a new Stacks block before the chain (or the API) counts as stopped. Default 10. */
      stallMinutes: z.optional(wholeNumber(...CHAIN_HEALTH_BOUNDS.stallMinutes)),
      /** Bitcoin blocks past the tip's tenure before "no new tenure". Default 2. */
      tenureBlocks: z.optional(wholeNumber(...CHAIN_HEALTH_BOUNDS.tenureBlocks)),
    },
    { error: 'must be an object {"stallMinutes": 10, "tenureBlocks": 2} (either may be left out: {} takes both defaults)' },
  ),
);
