// When to retract: the keys of replaced blocks wait, through a grace period, to be seen again on the new
// chain; those never seen get a `retraction` alert (alert-kinds/retraction.ts says what it reads like).
import type { ChainAlert, RetractionAlert } from '../alert-kinds/alert';
import type { Network } from '../domain';
import { isChainAlertType } from '../alert-kinds/chain-kinds';
import { retractionOf } from '../alert-kinds/retraction';
import type { PendingRetractions, StateStore, Telemetry } from '../ports';

/**
 * How far past the replaced chain's height the rescan goes before retracting: a transaction dropped by a
 * reorg usually returns from the mempool within a few blocks, and is then the same event, not a retraction.
 */
export const RETRACTION_GRACE_BLOCKS = 10;

/** Add the alert keys of orphaned blocks to what is waiting for confirmation on the new chain. */
export function mergePending(existing: PendingRetractions | undefined, keys: readonly string[], untilHeight: number): PendingRetractions | undefined {
  const merged = new Set([...(existing?.keys ?? []), ...keys]);
  if (merged.size === 0) return undefined;
  const until = untilHeight + RETRACTION_GRACE_BLOCKS;
  return { untilHeight: Math.max(until, existing?.untilHeight ?? 0), keys: [...merged] };
}

/** Remove the keys the rescan found again on the new chain: those events still happened. */
export function confirmOnNewChain(pending: PendingRetractions | undefined, seenKeys: readonly string[]): PendingRetractions | undefined {
  if (!pending) return undefined;
  const seen = new Set(seenKeys);
  const keys = pending.keys.filter((k) => !seen.has(k));
  return keys.length === 0 ? undefined : { ...pending, keys };
}

function isChainAlert(value: unknown): value is ChainAlert {
  return typeof value === 'object' && value !== null && isChainAlertType((value as { type?: unknown }).type);
}

/** The retraction alerts for keys never seen again on the new chain, read from their delivery records. */
export async function retractionsFor(keys: readonly string[], state: StateStore, network: Network, telemetry: Telemetry): Promise<RetractionAlert[]> {
  const retractions: RetractionAlert[] = [];
  for (const key of keys) {
    const record = await state.getAlertRecord(key);
    if (!record || record.state !== 'sent') continue; // never delivered, or already retracted: nothing to void
    if (!isChainAlert(record.alert)) {
      telemetry.log('warn', 'cannot retract an alert whose record lost its content', { key });
      continue;
    }
    retractions.push(retractionOf(record.alert, network));
  }
  return retractions;
}
