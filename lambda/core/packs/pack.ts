// What a rule pack is: a named, versioned set of rules shipped with stacks-watch, enabled by one entry in the
// watch config's "packs" and expanded into ordinary rules before the config is checked, so every rule it
// stands for is validated, matched, named and shown by --check like one written by hand.
import type { Network } from '../domain';
import type * as z from '../../zod-mini';

/** The rule lists a pack may add to, in the order --check names them. */
export const PACK_LISTS = ['contractLogs', 'transfers'] as const;
export type PackList = (typeof PACK_LISTS)[number];

/** The config sections a pack may turn on (objects, not lists): a pack's section must agree with one written by hand. */
export const PACK_SECTIONS = ['chainHealth', 'sbtcLifecycle'] as const;
export type PackSection = (typeof PACK_SECTIONS)[number];

/** The rules a pack stands for, as they would be written in watch.json. */
export type PackRules = Partial<Record<PackList, Record<string, unknown>[]>> & Partial<Record<PackSection, Record<string, unknown>>>;

/** A problem with a pack's own settings, at a path inside its entry. */
export interface PackProblem {
  path: (string | number)[];
  message: string;
}

export interface RulePack<P = Record<string, unknown>> {
  name: string;
  /** Raised when what the pack stands for changes; an entry may pin the version it was written for. */
  version: number;
  /** One line for --check and the docs. */
  summary: string;
  /** The entry's own keys besides `name`, `version` and `$comment`. */
  params: (network: Network | null) => z.ZodMiniObject;
  /** Sense checks the shape cannot make (nobody to watch, a value the network needs). */
  problems?: (params: P, network: Network) => PackProblem[];
  expand(params: P, network: Network): PackRules;
  /**
   * What a section this pack turns on means, defaults filled in: a section written by hand beside the pack
   * agrees with the pack's when the two mean the same, though one spells a default out and the other not.
   */
  meaning?: (section: Record<string, unknown>) => Record<string, unknown>;
}

// The registry stores packs of different parameter types side by side.
// biome-ignore lint/suspicious/noExplicitAny: each pack checks its own parameters before expanding
export type AnyRulePack = RulePack<any>;
