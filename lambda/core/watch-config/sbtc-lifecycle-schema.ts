// `sbtcLifecycle`: the sBTC deposit and withdrawal deadline alerts (core/sbtc, stages/sbtc-lifecycle.ts). Off
// unless the key is there: watching the sbtc-registry's prints does not by itself ask for deadline alerts, so a
// config says it wants them (the `sbtc-bridge` pack does). The registry followed is the one whose logs the
// contractLogs rules watch, so the section carries no address of its own.
import * as z from '../../zod-mini';
import { comment } from './schema-parts';

export const sbtcLifecycleSchema = z.optional(
  z.strictObject({ $comment: comment }, { error: 'must be an object: {} turns on the sBTC deposit and withdrawal deadline alerts' }),
);
