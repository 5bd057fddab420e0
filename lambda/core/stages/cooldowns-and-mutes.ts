// Cooldowns and mutes on any rule (`cooldownMinutes`, `mutedUntil`): between matching a block and delivering
// its alerts, each alert is sent, held by its rule's cooldown, or muted. Pure: the decision is a function of
// the rules, the block (its height and time) and the state the previous block left (cooldown-mute-state.ts), so a
// rescan after a crash, a reorg's rescan and `--replay` decide every alert the same way.
//
// Time is the block's time, not the clock's: "30 minutes" is 30 minutes of chain, so a catch-up after an
// outage holds what a live run would have held, and `--replay` gives the same answer. Near the tip the two
// differ by the few seconds a block takes to be scanned (docs/rules-and-conditions.md says why).
import type { ChainAlert } from '../alert-kinds/alert';
import { chainKindOf } from '../alert-kinds/chain-kinds';
import type { EndedCooldown } from '../alert-kinds/cooldown-summary';
import type { CooldownTally, MuteTally, HeldOrMutedState, CooldownMuteState, CooldownMuteTally } from './cooldown-mute-state';
import { isIdle, settleCooldownsAndMutes, stepBefore } from './cooldown-mute-rollback';
import type { RulePolicies } from './rule-meta';

/** How many held matches a summary and `--status` name; the rest are counted. */
export const COOLDOWN_MUTE_LISTED = 5;
/** A mute's tally stays this long after the mute ends (block time), for `--status`. */
export const MUTE_TALLY_KEPT_SECONDS = 86_400;

/** Each rule's cooldown and mute, by the rule name its alerts carry (compileWatchRules gives them). */
export type { RulePolicies } from './rule-meta';

/** An alert that was not sent, and what its record says about it. */
export interface HeldOrMutedAlert {
  alert: ChainAlert;
  state: HeldOrMutedState;
  reason: string;
}

export interface CooldownMuteDecision {
  /** Alerts to deliver, in chain order. */
  send: ChainAlert[];
  /** Alerts held by a cooldown or muted: recorded, never sent. */
  heldOrMuted: HeldOrMutedAlert[];
  /** Cooldowns this block's time ended that held something: one summary each, before the block's alerts. */
  ended: EndedCooldown[];
  /** The state after this block (undefined: nothing held, nothing running). */
  state: CooldownMuteState | undefined;
}

/** Unix seconds as ISO-8601. */
export const isoTime = (seconds: number) => new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');

/** The block being decided: its height, hash and time (Unix seconds). */
export interface CooldownMuteAt {
  height: number;
  hash: string;
  time: number;
}

/** Decides the block's alerts: see the module comment. */
export function decideCooldownsAndMutes(
  previous: CooldownMuteState | undefined,
  at: CooldownMuteAt,
  alerts: readonly ChainAlert[],
  policies: RulePolicies,
): CooldownMuteDecision {
  if (policies.size === 0 && previous === undefined) return { send: [...alerts], heldOrMuted: [], ended: [], state: undefined };
  // A reorg has taken the state back to the fork point already (cooldown-mute-rollback.ts, from the block scanner).
  const state: CooldownMuteState = previous ? structuredClone(previous) : { throughHeight: 0, cooldowns: [], mutes: [] };
  const ended = endCooldowns(state, at, policies);
  endMutes(state, at, policies);
  const send: ChainAlert[] = [];
  const heldOrMuted: HeldOrMutedAlert[] = [];
  for (const alert of alerts) {
    const rule = alert.rule ?? '';
    const policy = policies.get(rule);
    if (policy?.mutedUntil !== undefined && at.time < policy.mutedUntil) {
      tally(muteTally(state, alert, policy.mutedUntil), alert, at.height);
      heldOrMuted.push({ alert, state: 'muted', reason: `rule "${rule}" is muted until ${isoTime(policy.mutedUntil)} (block time)` });
      continue;
    }
    const cooldown = state.cooldowns.find((c) => c.rule === rule && c.d === undefined);
    if (cooldown && cooldown.startedBy !== alert.key) {
      tally(cooldown, alert, at.height);
      const reason = `held by rule "${rule}"'s ${cooldown.minutes}-minute cooldown until ${isoTime(cooldown.until)} (block time); counted in cooldown_summary:${cooldown.startedBy}`;
      heldOrMuted.push({ alert, state: 'held', reason });
      continue;
    }
    send.push(alert);
    if (!cooldown && policy?.cooldownMinutes !== undefined) state.cooldowns.push(startCooldown(alert, at, policy.cooldownMinutes));
  }
  state.throughHeight = at.height;
  settleCooldownsAndMutes(state, at.height);
  return { send, heldOrMuted, ended, state: isIdle(state) ? undefined : state };
}

/**
 * Ends the cooldowns the block's time has reached (or whose rule lost its cooldown): marked ended, kept while
 * a reorg could take the end back; those that held something are summed up.
 */
function endCooldowns(state: CooldownMuteState, at: CooldownMuteAt, policies: RulePolicies): EndedCooldown[] {
  const over = (c: CooldownTally) => c.d === undefined && (at.time >= c.until || policies.get(c.rule)?.cooldownMinutes === undefined);
  const ended = state.cooldowns.filter(over);
  for (const c of ended) c.d = at.height;
  return ended.filter((c) => c.held > 0).map((c) => ({ tally: c, endedAtHeight: at.height, endedInBlock: at.hash }));
}

/** A mute's tally is dropped a day after its end, or when the rule's mute changes (marked ended, like a cooldown). */
function endMutes(state: CooldownMuteState, at: { height: number; time: number }, policies: RulePolicies): void {
  for (const m of state.mutes) {
    if (m.d !== undefined) continue;
    if (policies.get(m.rule)?.mutedUntil !== m.until || at.time >= m.until + MUTE_TALLY_KEPT_SECONDS) m.d = at.height;
  }
}

function startCooldown(alert: ChainAlert, at: { height: number; time: number }, minutes: number): CooldownTally {
  return {
    rule: alert.rule ?? '',
    severity: alert.severity ?? 'warning',
    startedBy: alert.key,
    startedAt: at.time,
    startedHeight: at.height,
    until: at.time + minutes * 60,
    minutes,
    held: 0,
    first: [],
    fromHeight: null,
    toHeight: null,
    carried: chainKindOf(alert).chain.retraction.carried(alert),
  };
}

function muteTally(state: CooldownMuteState, alert: ChainAlert, until: number): MuteTally {
  const rule = alert.rule ?? '';
  let found = state.mutes.find((m) => m.rule === rule && m.until === until && m.d === undefined);
  if (!found) {
    found = { rule, severity: alert.severity ?? 'warning', until, held: 0, first: [], fromHeight: null, toHeight: null };
    state.mutes.push(found);
  }
  return found;
}

function tally(t: CooldownMuteTally, alert: ChainAlert, height: number): void {
  stepBefore(t, height);
  t.held += 1;
  if (t.first.length < COOLDOWN_MUTE_LISTED) t.first.push({ key: alert.key, tx_id: alert.tx_id, block_height: alert.block_height });
  t.fromHeight = t.fromHeight === null ? alert.block_height : Math.min(t.fromHeight, alert.block_height);
  t.toHeight = t.toHeight === null ? alert.block_height : Math.max(t.toHeight, alert.block_height);
}
