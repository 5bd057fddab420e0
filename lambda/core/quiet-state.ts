// What a rule's cooldown or mute is holding back (rule-quiet.ts decides; see docs/rules-and-conditions.md,
// "Cooldowns and mutes"): kept with the cursor, so that it moves with the scan. A crash rescans from the stored
// cursor with the state as it was there, and decides every alert again the same way.
import type { Severity } from './rule-meta';
import type { CarriedFields } from './alert-kinds/kind';

/** A match held back, as a summary and `--status` list it. */
export interface HeldMatch {
  key: string;
  tx_id: string | null;
  block_height: number;
}

/** What one rule has held back so far. */
export interface QuietTally {
  rule: string;
  severity: Severity;
  /** Matches held back. */
  held: number;
  /** The first few of them (QUIET_LISTED), in chain order. */
  first: HeldMatch[];
  fromHeight: number | null;
  toHeight: number | null;
}

/** A cooldown running: started by an alert that went out, it holds the rule's matches until `until`. */
export interface CooldownTally extends QuietTally {
  /** The key of the alert that started it: names its summary, so that a rescan sends that summary once. */
  startedBy: string;
  /** Unix seconds (block time) of the block that started it. */
  startedAt: number;
  /** Unix seconds (block time): the first block at or past it ends the cooldown and sends the summary. */
  until: number;
  minutes: number;
  /** What the starting alert is filtered on (its address, asset, contract): the summary carries it too. */
  carried?: CarriedFields;
}

/** A mute's tally: kept for `--status` while the mute lasts and for a day after (block time). */
export interface MuteTally extends QuietTally {
  /** Unix seconds: the rule's `mutedUntil`. */
  until: number;
}

export interface QuietState {
  /**
   * The highest block height whose matches are counted: a rescan after a reorg decides those heights again
   * (held stays held) without counting them twice.
   */
  throughHeight: number;
  cooldowns: CooldownTally[];
  mutes: MuteTally[];
}

/** What the cursor carries of it (ports.ts, CursorPosition). */
export interface QuietCursorPart {
  /** What rules' cooldowns and mutes hold as of this block; absent when nothing is held. */
  quiet?: QuietState;
}

/** How an alert record says that a match was quieted rather than sent. */
export type QuietRecordState = 'held' | 'muted';

/** An alert record's state. `held` and `muted` record a match never sent: never retracted, and free to claim (alert-claims.ts). */
export type AlertRecordState = 'pending' | 'sent' | 'retracted' | 'parked' | QuietRecordState;

/** The stores' primitive write for a quieted match (beside AlertRecordStore's, in ports.ts). */
export interface QuietRecordWrites {
  /** Records a match held or muted, only if there is no live record or it is retracted, held or muted. */
  writeQuiet(key: string, nowMs: number, alert: unknown, state: QuietRecordState, reason: string): Promise<void>;
}

export interface QuietRecordStore {
  /**
   * Record a match a rule's cooldown held or its mute silenced (with why), unless the key is sent, parked or
   * claimed: the record says what happened to it and is never retracted (rule-quiet.ts).
   */
  recordQuietAlert(key: string, nowMs: number, alert: unknown, state: QuietRecordState, reason: string): Promise<void>;
}
