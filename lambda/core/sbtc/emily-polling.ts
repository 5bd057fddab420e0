// When the sBTC lifecycle stage asks Emily, and what. Emily's records change once a Bitcoin block (its signers
// act on each new one), so it is asked once a block, at the first block the scan applies at the chain tip's
// Bitcoin height: in that run the two open deposit lists (`pending`, `accepted`), in the next its limits,
// and in the runs between nothing. A followed deposit that left the lists without the print of its mint is
// read on its own, since Emily alone can say it failed or was replaced: not in the common case. A read that
// fails changes no record: the operator is told once, and Emily is asked again at the next Bitcoin block.
import { emilyNotice } from './emily-notices';
import type { EmilyApi, EmilyRead, EmilyReadPlan } from './emily-port';
import type { SbtcObservation } from './observations';
import type { MalformedRecord } from './records';
import { depositId, type EmilyPolled, type SbtcTrackerState } from './tracker-state';

/** The longest a poll may take (its retries included), so that a slow Emily holds the scan up this long at most. */
export const EMILY_POLL_SLICE_MS = 10_000;

/** Followed deposits read one by one in a run at most; the others wait for the next Bitcoin block. */
export const MAX_RECORD_READS = 8;

/** What a poll at one block gives the stage. */
export interface EmilyTurn {
  /** Records to apply at the block, before the block's prints; empty when the read failed. */
  observations: SbtcObservation[];
  polled: EmilyPolled;
  /** The problem to keep in the state, and the operator notice to send (null: nothing new to say). */
  problem: string | null;
  notice: string | null;
  requests: number;
}

const NONE: Omit<EmilyReadPlan, 'openDeposits' | 'limits'> = { openWithdrawals: false, deposits: [] };

/** What to ask at Bitcoin height `height`: the lists once a block, the limits once a block in a later run; null when both are done. */
export function emilyPlanAt(polled: EmilyPolled | undefined, height: number): EmilyReadPlan | null {
  // The first time, the open withdrawals too: those requested before the watcher started have no print to come.
  if (!polled) return { ...NONE, openDeposits: true, openWithdrawals: true, limits: false };
  if (polled.listsAt < height) return { ...NONE, openDeposits: true, limits: false };
  if (polled.limitsAt < height) return { ...NONE, openDeposits: false, limits: true };
  return null;
}

/** Followed deposits still open by what the watcher knows that the open lists no longer hold (nor this block's prints completed). */
export function depositsToRead(state: SbtcTrackerState, listed: readonly SbtcObservation[], completedHere: ReadonlySet<string>): string[] {
  const seen = new Set(listed.flatMap((o) => (o.source === 'emily' && 'deposit' in o ? [depositId(o.deposit.bitcoinTxid, o.deposit.outputIndex)] : [])));
  return Object.entries(state.deposits)
    .filter(([id, d]) => d.endedAt === null && d.minted === null && !seen.has(id) && !completedHere.has(id))
    .map(([id]) => id)
    .slice(0, MAX_RECORD_READS);
}

/** One poll at Bitcoin height `height`, or null when nothing is due there. */
export async function pollEmilyAt(
  api: EmilyApi,
  state: SbtcTrackerState,
  height: number,
  deadlineMs: number,
  completedHere: ReadonlySet<string> = new Set(),
): Promise<EmilyTurn | null> {
  const plan = emilyPlanAt(state.polled, height);
  if (!plan) return null;
  const polled: EmilyPolled = {
    listsAt: plan.openDeposits ? height : state.polled!.listsAt,
    // Before the first lists there is no limits read to keep apart from them: the next run reads it.
    limitsAt: plan.limits ? height : (state.polled?.limitsAt ?? -1),
  };
  const first = await readSafely(api, plan, deadlineMs);
  const reads = [first];
  // A list read that failed part-way is no evidence that a record left the lists: nothing of it is used.
  const observations = first.error ? [] : [...first.observations];
  if (!first.error && plan.openDeposits) {
    const deposits = depositsToRead(state, first.observations, completedHere);
    if (deposits.length > 0) {
      const second = await readSafely(api, { ...NONE, openDeposits: false, limits: false, deposits }, deadlineMs);
      reads.push(second);
      observations.push(...second.observations);
    }
  }
  const error = reads.find((r) => r.error)?.error ?? null;
  const malformed: MalformedRecord[] = reads.flatMap((r) => r.malformed);
  // A limits read that answered cannot tell whether the deposit routes that failed answer again: only the lists' read clears a problem.
  const blind = !plan.openDeposits && error === null && state.emilyProblem !== null;
  const { problem, notice } = blind ? { problem: state.emilyProblem, notice: null } : emilyNotice(state.emilyProblem, { error, malformed });
  return { observations, polled, problem, notice, requests: reads.reduce((n, r) => n + r.requests, 0) };
}

/** The port promises never to throw; a bug behind it is one more failed read, never a failed block. */
async function readSafely(api: EmilyApi, plan: EmilyReadPlan, deadlineMs: number): Promise<EmilyRead> {
  try {
    return await api.read(plan, deadlineMs);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { observations: [], malformed: [], error: { kind: 'adapter', message }, requests: 0 };
  }
}
