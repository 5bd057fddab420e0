// The stages' states as the cursor carries them. Two stages older than the stage shape keep the fields the
// cursor has always had for them (`windows`, `quiet`), so a cursor stored before still loads as it was; every
// other stage kept with the cursor has its state under `stages`, by name, with its version beside it.
import type { CursorPosition } from '../ports';
import type { AnyBlockStage } from './block-stage';

/** By stage name: its state after the last block done (undefined: nothing remembered). */
export type StageStates = Record<string, unknown>;

/** A stage's state as stored under the cursor's `stages`: `v` is the stage's version when it was written. */
export interface StoredStageState {
  v: number;
  state: unknown;
}

/** The stages whose state has a field of its own on the cursor, at version 1. */
const OWN_FIELDS = ['windows', 'quiet'] as const;
type OwnField = (typeof OWN_FIELDS)[number];
const ownField = (name: string): name is OwnField => (OWN_FIELDS as readonly string[]).includes(name);

/** The cursor-kept stages' states a stored cursor carries; a state stored at another version is left behind. */
export function cursorStates(cursor: CursorPosition | null, stages: readonly AnyBlockStage[]): StageStates {
  const states: StageStates = {};
  if (!cursor) return states;
  for (const stage of stages) {
    if (stage.kept !== 'cursor') continue;
    if (ownField(stage.name)) {
      if (cursor[stage.name] !== undefined && stage.version === 1) states[stage.name] = structuredClone(cursor[stage.name]);
      continue;
    }
    const stored = cursor.stages?.[stage.name];
    if (stored && stored.v === stage.version) states[stage.name] = structuredClone(stored.state);
  }
  return states;
}

/** The position without any stage's state. */
export function bare(position: CursorPosition): CursorPosition {
  const { windows: _w, quiet: _q, stages: _s, ...rest } = position;
  return rest;
}

/** The position carrying the cursor-kept stages' states (those with a state). */
export function carrying(position: CursorPosition, states: StageStates, stages: readonly AnyBlockStage[]): CursorPosition {
  const next: CursorPosition = bare(position);
  const others: Record<string, StoredStageState> = {};
  for (const stage of stages) {
    const state = states[stage.name];
    if (stage.kept !== 'cursor' || state === undefined) continue;
    if (ownField(stage.name)) Object.assign(next, { [stage.name]: state });
    else others[stage.name] = { v: stage.version, state };
  }
  if (Object.keys(others).length > 0) next.stages = others;
  return next;
}
