// PublishBatch takes at most 10 messages and 256 KiB in all; alerts are packed in order into as few
// batches as both limits allow.
import { SNS_MAX_PAYLOAD_BYTES } from './sns-message';

export const SNS_MAX_BATCH_ENTRIES = 10;

export function planBatches<T extends { bytes: number }>(
  entries: readonly T[],
  limits: { maxEntries: number; maxBytes: number } = { maxEntries: SNS_MAX_BATCH_ENTRIES, maxBytes: SNS_MAX_PAYLOAD_BYTES },
): T[][] {
  const batches: T[][] = [];
  let current: T[] = [];
  let currentBytes = 0;
  for (const entry of entries) {
    if (current.length > 0 && (current.length === limits.maxEntries || currentBytes + entry.bytes > limits.maxBytes)) {
      batches.push(current);
      current = [];
      currentBytes = 0;
    }
    current.push(entry);
    currentBytes += entry.bytes;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

/** A batch entry id: unique within a publish (the index), readable in logs (the key), valid for SNS. */
export function entryId(index: number, alertKey: string): string {
  return `${index}-${alertKey.replace(/[^A-Za-z0-9_-]/g, '_')}`.slice(0, 80);
}
