// The lifecycle tracker's state: every deposit and withdrawal it follows, what it has already alerted about
// each, the signers' key rotations and the throttle. Plain JSON (amounts as decimal strings), with a version,
// so it can live in the state store beside the cursor (a record of its own: core/state-records.ts).
import type { SbtcStatus } from './records';

export const SBTC_STATE_VERSION = 1;

/**
 * Records followed at once; past it new ones are counted in `untracked`, not followed. The state is a record of
 * its own (the sbtcLifecycle stage; one DynamoDB item), about 360 bytes a record: 500 keep it near 180 KB, and
 * state-bound.ts bounds its bytes within the item, while mainnet has about a hundred open or finished-in-the-last-day.
 */
export const MAX_TRACKED = 500;

/** Bitcoin blocks (a day) a finished record is kept after it ends: deeper than any reorg, long past Emily's lag in moving it out of its open lists. */
export const RETAIN_FINISHED_BLOCKS = 144;

/** Where a completion was seen: a print (which a reorg can take back) or Emily (which cannot). */
export interface Completion {
  stacksTxid: string | null;
  /** The Stacks block of the print; null when Emily said so. */
  stacksHeight: number | null;
  sweepTxid: string | null;
  /**
   * With the settled follow-up on: the Bitcoin height of the print's Stacks block, where its depth counts from.
   * Absent for a completion Emily told of, or seen with the follow-up off (neither is followed to settled).
   */
  bitcoinHeight?: number;
  /** The Stacks block its settled alert was raised in, once raised; a reorg below it raises it again there. */
  settledAt?: number;
}

export interface DepositTrack {
  bitcoinTxid: string;
  outputIndex: number;
  recipient: string;
  amountSats: string;
  /** The Bitcoin height its clock starts at: when it was first seen confirmed (see tracker.ts). */
  clockFrom: number;
  lockTime: number | null;
  signersKey: string | null;
  status: SbtcStatus;
  replacedBy: string | null;
  minted: Completion | null;
  /** The situations already alerted, each once. */
  sent: string[];
  /** The Bitcoin height it finished at (minted, failed, replaced); null while open. */
  endedAt: number | null;
  /** Known only from its `completed-deposit` print (followed for the settled alert): a reorg that takes the print back forgets it. */
  fromPrint?: true;
}

export interface WithdrawalTrack {
  requestId: number;
  sender: string;
  recipient: string;
  amountSats: string;
  stacksTxid: string | null;
  /** The Bitcoin height of the request: the print's `block-height`, else when it was first seen. */
  requestedAt: number;
  /** The Stacks block of its `withdrawal-create` print; null when only Emily told of it. */
  createdAtStacks: number | null;
  fromEmily: boolean;
  accepted: Completion | null;
  rejected: Completion | null;
  sent: string[];
  endedAt: number | null;
}

export interface KeyRotation {
  stacksTxid: string;
  stacksHeight: number;
  address: string;
  /** The aggregate key in x-only form (32 bytes, hex): the key deposits lock to. */
  signersKey: string;
  /** The Bitcoin height the rotation was seen at. */
  bitcoinHeight: number;
}

export interface SbtcTrackerState {
  version: typeof SBTC_STATE_VERSION;
  deposits: Record<string, DepositTrack>;
  withdrawals: Record<string, WithdrawalTrack>;
  /** Newest last; the last few only. */
  rotations: KeyRotation[];
  /** Who switched the throttle on, while it is on. */
  throttle: string | null;
  /** Records not followed because MAX_TRACKED was reached. */
  untracked: number;
  /** What the operator was last told is wrong with Emily (emily-notices.ts); null while it answers well. */
  emilyProblem: string | null;
  /** When Emily was last asked (emily-polling.ts); absent before the first time. */
  polled?: EmilyPolled;
}

/** The Bitcoin heights Emily was last asked at: it changes once a Bitcoin block, so it is asked once a block. */
export interface EmilyPolled {
  /** Its open lists (asked, answered or not: a failure waits for the next block). */
  listsAt: number;
  /** Its limits, asked in the run after the lists', so that no run sends more than two requests in the common case. */
  limitsAt: number;
}

export function emptySbtcState(): SbtcTrackerState {
  return { version: SBTC_STATE_VERSION, deposits: {}, withdrawals: {}, rotations: [], throttle: null, untracked: 0, emilyProblem: null };
}

/** A stored state read back: the same version, or a clear refusal naming what it found. */
export function checkSbtcState(value: unknown): SbtcTrackerState {
  const state = value as Partial<SbtcTrackerState> | null;
  if (!state || typeof state !== 'object' || state.version !== SBTC_STATE_VERSION) {
    throw new Error(`sBTC tracker state has version ${String(state?.version)}; this stacks-watch reads version ${SBTC_STATE_VERSION}`);
  }
  if (typeof state.deposits !== 'object' || typeof state.withdrawals !== 'object' || !Array.isArray(state.rotations)) {
    throw new Error('sBTC tracker state is missing its deposits, withdrawals or rotations');
  }
  return state as SbtcTrackerState;
}

export const depositId = (txid: string, index: number): string => `${txid}:${index}`;

export function trackedCount(state: SbtcTrackerState): number {
  return Object.keys(state.deposits).length + Object.keys(state.withdrawals).length;
}
