// Runs that fail at the same block, run after run. Each such run fails loudly on its own (an error log, a
// failed invocation), but a scheduled watcher retries every minute and the one error alarm reads the same
// for a blip as for a block that will never pass. So the failures at a height are counted in state, and the
// operator gets the block and its cause after a few runs in a row, then again each time the count doubles.
import type { BlockStall, OperatorChannel, StateStore, Telemetry } from '../ports';
import { ApiBackoffError } from '../follow/api-backoff';

/** Runs in a row failing at one block before the operator hears of it (a blip or a redeploy passes sooner). */
export const STUCK_AFTER_RUNS = 3;
/** An error message is kept to this many characters: enough for heights, hashes and advice. */
const MAX_CAUSE_CHARS = 2_000;

export interface BlockStallDeps {
  state: StateStore;
  operator: OperatorChannel;
  telemetry: Telemetry;
  clock: { now(): number };
}

/** Notify at the 3rd failure in a row, then the 6th, 12th, 24th...: a reminder that fades, never a flood. */
export function isNoticeDue(failures: number): boolean {
  if (failures < STUCK_AFTER_RUNS || failures % STUCK_AFTER_RUNS !== 0) return false;
  const ratio = failures / STUCK_AFTER_RUNS;
  return (ratio & (ratio - 1)) === 0;
}

/**
 * Counts a failed run at `height` and tells the operator when the count says so; returns the record, or null
 * when state could not be written. Never throws: the run is already failing with the error that matters, and
 * state may be what failed.
 */
export async function recordBlockFailure(deps: BlockStallDeps, height: number, error: unknown): Promise<BlockStall | null> {
  const cause = (error instanceof Error ? error.message : String(error)).slice(0, MAX_CAUSE_CHARS);
  let stall: BlockStall;
  try {
    const previous = await deps.state.readRecord('blockStall');
    stall =
      previous?.height === height
        ? { height, failures: previous.failures + 1, since: previous.since, cause }
        : { height, failures: 1, since: deps.clock.now(), cause };
    await deps.state.writeRecord('blockStall', stall);
  } catch (stateError) {
    deps.telemetry.log('error', 'could not record the failure at this block', {
      blockHeight: height,
      reason: stateError instanceof Error ? stateError.message : String(stateError),
    });
    return null;
  }
  if (!isNoticeDue(stall.failures)) return stall;
  const minutes = Math.round((deps.clock.now() - stall.since) / 60_000);
  await deps.operator.notify({
    kind: 'stuck-block',
    subject: `stacks-watch is stuck at block ${height} (${stall.failures} runs in a row)`,
    message:
      `The last ${stall.failures} runs failed at block ${height} (the first ${minutes} minutes ago); the cursor ` +
      `stays below it and nothing after it is alerted until it passes.\n\nLatest cause: ${cause}\n\n` +
      `${adviceFor(error)} This notice repeats each time the count doubles.`,
  });
  return stall;
}

/** What to do: an API that answers badly passes by itself; a spent request budget passes only once it has room. */
function adviceFor(error: unknown): string {
  if (error instanceof ApiBackoffError) {
    return (
      'Every one of these runs spent the request budget (the requests a minute the API allows, shared with anything ' +
      'else using the same API key) before this block was done. This does not pass by itself while the load stays ' +
      'the same: give the watcher an API key, take other traffic off the key, or lower what a run reads (see ' +
      '`npm start -- --check` for what the budget carries).'
    );
  }
  return 'If the cause is the API, the watcher recovers by itself once the API answers well; otherwise fix what the cause names.';
}

/** A run got past the failing block: drop the record (one read a run that scanned blocks, a delete if there was one). */
export async function clearBlockStall(deps: BlockStallDeps, cursorHeight: number): Promise<void> {
  const stall = await deps.state.readRecord('blockStall');
  if (!stall || stall.height > cursorHeight) return;
  await deps.state.writeRecord('blockStall', null);
  deps.telemetry.log('info', 'the scan got past the block that had been failing', {
    blockHeight: stall.height,
    failedRuns: stall.failures,
  });
}
