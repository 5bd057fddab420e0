// Parallel work of one read (a block's pages, a batch of events) that settles together: at most `limit` pieces
// at once, and the first failure aborts the rest (pieces not started never start; running ones get the abort
// through their signal, which cancels their requests) and is thrown once every started piece has settled. So a
// failed read leaves nothing of itself in flight or queued behind it, and a second failure is never left
// unhandled. A caller's signal (a Ctrl-C, a read-ahead given up) aborts the same way. It starts each piece
// itself, rather than waiting on promises already started, so that a failure can stop those not yet begun.

import { onAbort } from '../core/shared-abort';

/** Runs `work` over `items`, at most `limit` at once; results in the order of `items`. */
export async function cancelOnFailure<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T, signal: AbortSignal) => Promise<R>,
  caller?: AbortSignal,
): Promise<R[]> {
  const controller = new AbortController();
  // The caller's signal may be shared by many reads at once (a Ctrl-C's): one listener on it for all of them.
  const stopFollowing = caller ? onAbort(caller, () => controller.abort(caller.reason)) : () => {};
  const results: R[] = new Array<R>(items.length);
  let failure: { error: unknown } | null = null;
  let next = 0;
  const worker = async (): Promise<void> => {
    while (!controller.signal.aborted && next < items.length) {
      const index = next++;
      try {
        results[index] = await work(items[index]!, controller.signal);
      } catch (error) {
        failure ??= { error };
        controller.abort(failure.error);
      }
    }
  };
  try {
    // Workers never reject: this waits for every started piece.
    await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  } finally {
    stopFollowing();
  }
  if (failure) throw (failure as { error: unknown }).error;
  if (controller.signal.aborted) throw controller.signal.reason;
  return results;
}
