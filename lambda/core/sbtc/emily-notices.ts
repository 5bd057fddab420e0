// What the operator is told about Emily, once per change: when it starts failing (or fails differently), when
// it sends records that cannot be read, and when it answers well again. Kept in the tracker's state
// (`emilyProblem`), so a failure that lasts a day is one notice, not one a run.
import type { MalformedRecord } from './records';

export interface EmilyReadOutcome {
  /** The read that failed this run, if one did. */
  error: { kind: string; message: string } | null;
  malformed: readonly MalformedRecord[];
}

const MALFORMED_SHOWN = 3;

/** The problem to keep and the notice to send (null: nothing new to say). */
export function emilyNotice(previous: string | null, outcome: EmilyReadOutcome): { problem: string | null; notice: string | null } {
  if (outcome.error) {
    const problem = `failing:${outcome.error.kind}`;
    if (problem === previous) return { problem, notice: null };
    return {
      problem,
      notice: `sBTC: Emily (sBTC's public API) is failing: ${outcome.error.message}. The Stacks side is watched as before; sBTC deadlines that need Emily wait until it answers, and nothing is alerted from what it could not tell.`,
    };
  }
  if (outcome.malformed.length > 0) {
    const problem = `malformed:${outcome.malformed
      .map((m) => m.id ?? `#${m.index}`)
      .sort()
      .join(',')}`;
    if (problem === previous) return { problem, notice: null };
    const shown = outcome.malformed
      .slice(0, MALFORMED_SHOWN)
      .map((m) => m.problem)
      .join('; ');
    const more = outcome.malformed.length > MALFORMED_SHOWN ? ` (and ${outcome.malformed.length - MALFORMED_SHOWN} more)` : '';
    return {
      problem,
      notice: `sBTC: Emily sent ${outcome.malformed.length} record(s) stacks-watch cannot read; they are set aside, nothing is alerted from them: ${shown}${more}`,
    };
  }
  if (previous === null) return { problem: null, notice: null };
  return { problem: null, notice: 'sBTC: Emily answers again; the sBTC deadlines that waited for it are checked from this run.' };
}
