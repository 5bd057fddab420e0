// The terminal the local runner writes to: the one backfill progress line, which every other output clears
// first, and the exit codes.
import { createProgressReporter } from './progress';

export const EXIT = { ok: 0, failure: 1, usage: 2 } as const;

let progress: ReturnType<typeof createProgressReporter> | undefined;

/** Shows backfill progress on stderr until `end()`. */
export function startProgress(): ReturnType<typeof createProgressReporter> {
  progress = createProgressReporter(process.stderr);
  return progress;
}

export function endProgress(): void {
  progress?.end();
  progress = undefined;
}

export const clearProgress = (): void => progress?.clear();

/** Called after each block is done. */
export const showProgress = (p: { height: number; done: number; total: number }): void => progress?.update(p);
