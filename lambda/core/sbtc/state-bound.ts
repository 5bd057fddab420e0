// The tracker's state in bytes. It is one record of the state store (one DynamoDB item of its own, at most 400 KB:
// 409,600 bytes), and a record's size depends on what it names: a deposit to a contract principal with a
// 128-character name, its mint and its alerts told is about 800 bytes, one to a plain address about 550.
// MAX_TRACKED records of the largest kind would be 400 KB, so a count alone does not bound the item: a block's
// new records are admitted only while the state stays within SBTC_STATE_MAX_BYTES.
import type { SbtcTrackerState } from './tracker-state';

/**
 * New records stop being followed past this: the records already followed can still grow by what they learn
 * (a mint, alerts told: about 260 bytes each at most), so the state stays under 240 KB + MAX_TRACKED × 260 bytes
 * = 370 KB, and its item (keys and attribute names add under 100 bytes) 39 KB under DynamoDB's 409,600 bytes.
 */
export const SBTC_STATE_MAX_BYTES = 240_000;

/** The state's size as stored (JSON; its text is ASCII, so characters are bytes). */
export const stateBytes = (state: SbtcTrackerState): number => JSON.stringify(state).length;

/**
 * Drops the records `after` added to `before`, newest first, until the state is within `maxBytes`, counting each
 * in `untracked`: a record not followed, never a state too big to store. Returns how many were dropped.
 */
export function admitWithin(before: SbtcTrackerState, after: SbtcTrackerState, maxBytes = SBTC_STATE_MAX_BYTES): number {
  let bytes = stateBytes(after);
  if (bytes <= maxBytes) return 0;
  const added = [
    ...Object.keys(after.deposits)
      .filter((id) => !(id in before.deposits))
      .map((id) => ({ id, book: after.deposits as Record<string, unknown> })),
    ...Object.keys(after.withdrawals)
      .filter((id) => !(id in before.withdrawals))
      .map((id) => ({ id, book: after.withdrawals as Record<string, unknown> })),
  ];
  let dropped = 0;
  for (const { id, book } of added.reverse()) {
    if (bytes <= maxBytes) break;
    bytes -= JSON.stringify({ [id]: book[id] }).length - 1;
    delete book[id];
    dropped += 1;
  }
  after.untracked += dropped;
  return dropped;
}
