// What the windows (`windows` rules) remember between blocks: per window, one small entry per block that had
// matches of its rule. The state rides on the cursor (CursorPosition.windows), written in the same write as
// the checkpoint that passes its blocks, so a crash rescans those blocks from the state that goes with the
// cursor and counts nothing twice (docs/windows.md). Bounded: an entry that stops counting (too old for the
// window, or, in a count window, behind enough newer matches) is dropped once the scan is
// WINDOW_REORG_MARGIN_BLOCKS past that point, so that a reorg at most that deep still finds every entry it
// needs back; the config check bounds what a window may hold at once (watch-config/window-checks.ts).

/** How deep a reorg the windows undo exactly: entries that stopped counting are kept this many blocks more. */
export const WINDOW_REORG_MARGIN_BLOCKS = 16;
/** A window alert lists at most this many contributing transactions (the latest). */
export const WINDOW_TX_IDS = 20;

/** One block's matches of a window's rule; short names, since every cursor write carries them. */
export interface WindowEntry {
  /** Block height. */
  h: number;
  /** Block time, Unix seconds. */
  t: number;
  /** Matches in the block. */
  n: number;
  /** Their summed field (decimal string); "0" in a count window. */
  v: string;
  /** Distinct transactions among them. */
  c: number;
  /** The block's last WINDOW_TX_IDS of them; emptied once older than the margin and behind WINDOW_TX_IDS newer ones. */
  tx: string[];
  /** The height from which the entry no longer counts (aged out, or behind `count` newer matches). */
  d?: number;
}

export interface WindowState {
  /** The rule it counts: a window pointed at another rule starts empty. */
  of: string;
  /** In height order. */
  entries: WindowEntry[];
  /** A rollback below this height cannot restore every entry (they were dropped past the margin). */
  exactFrom?: number;
}

/** By window name. */
export type WindowStates = Record<string, WindowState>;

/** Entries that count at the head: not stopped. */
export const counting = (state: WindowState) => state.entries.filter((e) => e.d === undefined);

/**
 * The state as it was at `height` (a reorg's fork point): entries of the replaced blocks leave, entries
 * those blocks had stopped counting count again. Returns the windows a rollback that deep cannot restore
 * exactly (a fork deeper than the margin), to be told.
 */
export function rollbackWindows(states: WindowStates | undefined, height: number): { states: WindowStates | undefined; inexact: string[] } {
  if (!states) return { states, inexact: [] };
  const inexact: string[] = [];
  const rolled: WindowStates = {};
  for (const [name, state] of Object.entries(states)) {
    if (state.exactFrom !== undefined && height < state.exactFrom) inexact.push(name);
    const entries = state.entries.filter((e) => e.h <= height).map(({ d, ...e }) => (d !== undefined && d <= height ? { ...e, d } : e));
    rolled[name] = { ...state, entries };
  }
  return { states: rolled, inexact };
}

/**
 * After a block at `height`: in a count window, entries behind `count` newer matches stop counting; entries
 * stopped more than the margin ago are dropped; transaction ids are kept only where a rollback within the
 * margin could still list them.
 */
export function settle(state: WindowState, height: number, count: number | null): WindowState {
  const entries = state.entries.map((e) => ({ ...e }));
  if (count !== null) {
    let newer = 0;
    for (let i = entries.length - 1; i >= 0; i -= 1) {
      const entry = entries[i]!;
      if (entry.d !== undefined) continue;
      if (newer >= count) entry.d = height;
      newer += entry.n;
    }
  }
  const floor = height - WINDOW_REORG_MARGIN_BLOCKS;
  let exactFrom = state.exactFrom;
  const kept = entries.filter((e) => {
    if (e.d === undefined || e.d >= floor) return true;
    exactFrom = Math.max(exactFrom ?? 0, e.d);
    return false;
  });
  // Ids of entries at or below the margin floor, newest first, until WINDOW_TX_IDS are kept: any rollback
  // within the margin sees at least the latest WINDOW_TX_IDS of what it keeps.
  let ids = 0;
  for (let i = kept.length - 1; i >= 0; i -= 1) {
    const entry = kept[i]!;
    if (entry.h > floor) continue;
    if (ids >= WINDOW_TX_IDS) entry.tx = [];
    ids += entry.tx.length;
  }
  return { of: state.of, entries: kept, ...(exactFrom !== undefined ? { exactFrom } : {}) };
}
