// What a rule's cooldown or mute is holding back (cooldowns-and-mutes.ts decides; see docs/rules-and-conditions.md,
// "Cooldowns and mutes"): kept with the cursor, so that it moves with the scan. A crash rescans from the stored
// cursor with the state as it was there, and decides every alert again the same way; a reorg takes it back to
// the fork point (cooldown-mute-rollback.ts): each tally remembers what it was before each recent block added to it,
// and a cooldown or mute that ended in a recent block is kept (marked ended) until a reorg can no longer
// reach that block, like the windows' entries (window-state.ts).
import type { Severity } from './rule-meta';
import type { CarriedFields } from '../alert-kinds/kind';

/** A match held back, as a summary and `--status` list it. */
export interface HeldMatch {
  key: string;
  tx_id: string | null;
  block_height: number;
}

/** What one rule has held back so far. */
export interface CooldownMuteTally {
  rule: string;
  severity: Severity;
  /** Matches held back. */
  held: number;
  /** The first few of them (COOLDOWN_MUTE_LISTED), in chain order. */
  first: HeldMatch[];
  fromHeight: number | null;
  toHeight: number | null;
  /**
   * The tally as it was before each recent block that added to it, oldest first: a rollback below `h` restores
   * it. Kept for blocks a reorg can still replace (COOLDOWN_MUTE_REORG_MARGIN_BLOCKS), at most one per block.
   */
  steps?: CooldownMuteStep[];
  /** Set once it has ended (a cooldown's end, a mute's tally dropped): the height of the block that ended it. */
  d?: number;
}

/** A tally before one block's matches: what a rollback below that block restores. Short names: the cursor carries them. */
export interface CooldownMuteStep {
  /** The block's height. */
  h: number;
  /** `held` before it. */
  n: number;
  /** How many of `first` were listed before it. */
  l: number;
  /** `toHeight` before it. */
  to: number | null;
}

/** A cooldown running: started by an alert that went out, it holds the rule's matches until `until`. */
export interface CooldownTally extends CooldownMuteTally {
  /** The key of the alert that started it: names its summary, so that a rescan sends that summary once. */
  startedBy: string;
  /** Unix seconds (block time) of the block that started it. */
  startedAt: number;
  /** The height of that block: a rollback below it drops the cooldown (absent in states written before it was kept). */
  startedHeight?: number;
  /** Unix seconds (block time): the first block at or past it ends the cooldown and sends the summary. */
  until: number;
  minutes: number;
  /** What the starting alert is filtered on (its address, asset, contract): the summary carries it too. */
  carried?: CarriedFields;
}

/** A mute's tally: kept for `--status` while the mute lasts and for a day after (block time). */
export interface MuteTally extends CooldownMuteTally {
  /** Unix seconds: the rule's `mutedUntil`. */
  until: number;
}

export interface CooldownMuteState {
  /** The last block height decided: the state is as of the end of that block. */
  throughHeight: number;
  /** Running and recently ended (`d` set) cooldowns. */
  cooldowns: CooldownTally[];
  /** Mutes' tallies, kept and recently dropped (`d` set). */
  mutes: MuteTally[];
  /** A rollback below this height cannot restore every tally (what it needed was dropped past the margin). */
  exactFrom?: number;
}

/** What the cursor carries of it (ports.ts, CursorPosition). */
export interface QuietCursorPart {
  /** What rules' cooldowns and mutes hold as of this block; absent when nothing is held. */
  quiet?: CooldownMuteState;
}

/** How an alert record says that a match was held or muted rather than sent. */
export type HeldOrMutedState = 'held' | 'muted';

/** An alert record's state. `held` and `muted` record a match never sent: never retracted, and free to claim (alert-claims.ts). */
export type AlertRecordState = 'pending' | 'sent' | 'retracted' | 'parked' | HeldOrMutedState;

/** The stores' primitive write for a held or muted match (beside AlertRecordStore's, in ports.ts). */
export interface HeldOrMutedWrites {
  /** Records a match held or muted, only if there is no live record or it is retracted, held or muted. */
  writeHeldOrMuted(key: string, nowMs: number, alert: unknown, state: HeldOrMutedState, reason: string): Promise<void>;
}

export interface HeldOrMutedRecords {
  /**
   * Record a match a rule's cooldown held or its mute silenced (with why), unless the key is sent, parked or
   * claimed: the record says what happened to it and is never retracted (cooldowns-and-mutes.ts).
   */
  recordHeldOrMuted(key: string, nowMs: number, alert: unknown, state: HeldOrMutedState, reason: string): Promise<void>;
}
