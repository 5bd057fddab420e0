// Cooldowns and mutes under reorgs: the cooldowns-and-mutes state (cooldown-mute-state.ts) taken back to a fork point, so that the
// rescan of the new chain decides every match as a live run that only ever saw the new chain would. Each
// tally keeps, for the recent blocks that added to it, what it was before them (its steps); a cooldown keeps
// the height that started it; a cooldown or mute that ended stays, marked with the ending height, until no
// reorg within the margin can reach back past it. A rollback to F then drops what heights above F added,
// the cooldowns (and mutes' tallies) started above F, and takes back the ends above F. Bounded like the
// windows (window-state.ts): nothing is kept for a block more than the margin below the head.
import type { CooldownTally, CooldownMuteState, CooldownMuteTally } from './cooldown-mute-state';
import { WINDOW_REORG_MARGIN_BLOCKS } from './window-state';

/** How deep a reorg cooldowns and mutes undo exactly: the windows' margin, for one answer to "how deep". */
export const COOLDOWN_MUTE_REORG_MARGIN_BLOCKS = WINDOW_REORG_MARGIN_BLOCKS;
/** A hard cap on the ended cooldowns and mutes kept for a rollback (the oldest go first, and the state says inexact). */
export const COOLDOWN_MUTE_ENDED_KEPT = 64;

/** The height a tally started at: a cooldown's starting block (0 in a state written before it was kept: never dropped), a mute's first match. */
function startedAt(t: CooldownMuteTally): number {
  if ('startedBy' in t) return (t as CooldownTally).startedHeight ?? 0;
  return t.fromHeight ?? 0;
}

/** The tally as it was at the end of block `height`. */
function restored<T extends CooldownMuteTally>(t: T, height: number): T {
  const { d, steps = [], ...rest } = t;
  const at = steps.findIndex((s) => s.h > height);
  const back: CooldownMuteTally = { ...rest };
  if (at >= 0) {
    const before = steps[at]!;
    back.held = before.n;
    back.first = t.first.slice(0, before.l);
    back.toHeight = before.to;
    if (before.n === 0) back.fromHeight = null;
  }
  const kept = at >= 0 ? steps.slice(0, at) : steps;
  return { ...back, ...(kept.length > 0 ? { steps: kept } : {}), ...(d !== undefined && d <= height ? { d } : {}) } as T;
}

/** Nothing running, nothing a rollback could bring back. */
export const isIdle = (state: CooldownMuteState) => state.cooldowns.length === 0 && state.mutes.length === 0;

/**
 * The state as it was at the end of block `height` (a reorg's fork point). `inexact`: the fork is deeper than
 * what the state kept (a warning to log); what it kept is still taken back.
 */
export function rollbackCooldownsAndMutes(state: CooldownMuteState | undefined, height: number): { state: CooldownMuteState | undefined; inexact: boolean } {
  if (!state) return { state, inexact: false };
  const inexact = state.exactFrom !== undefined && height < state.exactFrom;
  const back: CooldownMuteState = {
    throughHeight: Math.min(state.throughHeight, height),
    cooldowns: state.cooldowns.filter((c) => startedAt(c) <= height).map((c) => restored(c, height)),
    mutes: state.mutes.filter((m) => startedAt(m) <= height).map((m) => restored(m, height)),
    ...(state.exactFrom !== undefined ? { exactFrom: state.exactFrom } : {}),
  };
  return { state: isIdle(back) ? undefined : back, inexact };
}

/** Before block `height` adds its first match to `t`: remember the tally as it was, for a rollback below it. */
export function stepBefore(t: CooldownMuteTally, height: number): void {
  const steps = (t.steps ??= []);
  if (steps[steps.length - 1]?.h === height) return;
  steps.push({ h: height, n: t.held, l: t.first.length, to: t.toHeight });
}

/**
 * After block `height`: steps and ended tallies no reorg within the margin can reach are dropped (the state
 * remembers from where a rollback is no longer exact), and the ended ones are capped.
 */
export function settleCooldownsAndMutes(state: CooldownMuteState, height: number): void {
  const floor = height - COOLDOWN_MUTE_REORG_MARGIN_BLOCKS;
  const dropped = (from: number) => (state.exactFrom = Math.max(state.exactFrom ?? 0, from));
  const settle = <T extends CooldownMuteTally>(list: T[]): T[] => {
    const kept = list.filter((t) => {
      if (t.d === undefined || t.d > floor) return true;
      dropped(t.d);
      return false;
    });
    const ended = kept.filter((t) => t.d !== undefined).sort((a, b) => a.d! - b.d!);
    for (const t of ended.slice(0, Math.max(0, ended.length - COOLDOWN_MUTE_ENDED_KEPT))) {
      dropped(t.d!);
      kept.splice(kept.indexOf(t), 1);
    }
    for (const t of kept) {
      const steps = (t.steps ?? []).filter((s) => {
        if (s.h > floor) return true;
        dropped(s.h);
        return false;
      });
      if (steps.length > 0) t.steps = steps;
      else delete t.steps;
    }
    return kept;
  };
  state.cooldowns = settle(state.cooldowns);
  state.mutes = settle(state.mutes);
}
