// Retractions: an alert already sent for an event that a reorg took off the canonical chain is followed
// by a `retraction` alert, so that nobody acts on an event that did not happen.
import type { ChainAlert, Network, RetractionAlert } from './domain';
import { alertKeys } from './alert-keys';
import type { PendingRetractions, StateStore, Telemetry } from './ports';

/**
 * How far past the replaced chain's height the rescan goes before retracting: a transaction dropped by a
 * reorg usually returns from the mempool within a few blocks, and is then the same event, not a retraction.
 */
export const RETRACTION_GRACE_BLOCKS = 10;

/** Add the alert keys of orphaned blocks to what is waiting for confirmation on the new chain. */
export function mergePending(
  existing: PendingRetractions | undefined,
  keys: readonly string[],
  untilHeight: number,
): PendingRetractions | undefined {
  const merged = new Set([...(existing?.keys ?? []), ...keys]);
  if (merged.size === 0) return undefined;
  const until = untilHeight + RETRACTION_GRACE_BLOCKS;
  return { untilHeight: Math.max(until, existing?.untilHeight ?? 0), keys: [...merged] };
}

/** Remove the keys the rescan found again on the new chain: those events still happened. */
export function confirmOnNewChain(
  pending: PendingRetractions | undefined,
  seenKeys: readonly string[],
): PendingRetractions | undefined {
  if (!pending) return undefined;
  const seen = new Set(seenKeys);
  const keys = pending.keys.filter((k) => !seen.has(k));
  return keys.length === 0 ? undefined : { ...pending, keys };
}

function isChainAlert(value: unknown): value is ChainAlert {
  if (typeof value !== 'object' || value === null) return false;
  const type = (value as { type?: unknown }).type;
  return type === 'token_transfer' || type === 'contract_log';
}

export function retractionOf(original: ChainAlert, network: Network): RetractionAlert {
  const summary =
    original.type === 'token_transfer'
      ? `${original.amount} micro-STX from ${original.sender} to ${original.recipient}`
      : `${original.topic} event #${original.event_index} from ${original.contract_id}`;
  return {
    type: 'retraction',
    key: alertKeys.retraction(original.key, original.block_hash),
    network,
    retracts: original.key,
    retracted_type: original.type,
    tx_id: original.tx_id,
    block_height: original.block_height,
    block_hash: original.block_hash,
    summary,
    ...(original.type === 'token_transfer' ? { recipient: original.recipient } : { contract_id: original.contract_id }),
  };
}

/** The retraction alerts for keys never seen again on the new chain, read from their delivery records. */
export async function retractionsFor(
  keys: readonly string[],
  state: StateStore,
  network: Network,
  telemetry: Telemetry,
): Promise<RetractionAlert[]> {
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
