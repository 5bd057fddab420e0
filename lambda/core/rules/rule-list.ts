// A rule list of the watch config (`contracts`, `calls`, `transfers`…) as one value: its name, its schema
// fragment, how it compiles into what a matcher looks up, and how `--check` words it. The config schema, the
// "nothing to watch" check, the `--check` text and the compiled rules all derive from the lists registered
// in rule-lists.ts; a matcher receives the compiled rules of the lists it reads, and nothing else.
import type * as z from '../../zod-mini';
import type { Network } from '../domain';
import type { RuleMetaParts } from '../watch-config/rule-meta-schema';
import type { RuleMetaCompiler } from '../stages/rule-meta';

export type Shape = Record<string, z.ZodMiniType>;

/** What a shape's keys hold once parsed: the watch config's slice a list owns. */
export type ShapeOutput<S> = S extends z.core.$ZodLooseShape ? z.output<z.ZodMiniObject<S>> : never;

export interface RuleList<Name extends string, S extends Shape, Compiled> {
  /** Its key in the watch config; its rules' default names start with it and a colon (rule-meta.ts). */
  name: Name;
  /**
   * Its keys in the watch config, checked against the network the file names (null: none valid); its rules
   * spread `meta.shape` (`name`, `severity`), a list of bare ids has a `meta.listRule(name)` beside it.
   */
  shape(network: Network | null, meta: RuleMetaParts): S;
  /**
   * The keys one entry may have, for "did you mean" hints: a rule object's, or for a list of bare ids, its
   * `…Rule` object's (`metaKey`).
   */
  entryKeys: readonly string[];
  /** A list of bare ids has one `…Rule` object (`addressesRule`) naming every alert it raises. */
  metaKey?: string;
  /**
   * What a window (`windows`) over this list's rules may add up: `amount` (the alerts' own field), `value` (a
   * path into a log's decoded value), null (their matches can only be counted). Absent: windows cannot name
   * its rules (not alerts found in blocks).
   */
  windowSum?: 'amount' | 'value' | null;
  /** true for a list over other lists' alerts (`windows`): it watches nothing alone. */
  aggregate?: true;
  /**
   * Compiled once per run into lookups its matchers answer per transaction or event: immutable data. Each
   * rule's metadata comes from `meta`, which keeps its cooldown and mute for the compiled rules' settings.
   */
  compile(config: ShapeOutput<S>, meta: RuleMetaCompiler): Compiled;
  /** `--check`: what the list watches, in words (several lines for several rules); null to say nothing. */
  describe(config: ShapeOutput<S>): string | null;
  /**
   * How a default name of one of its rules reads in a message (`detail`: what follows `name:`, or null for the
   * list's name alone): the name itself stays the alert's stable `rule`, which subscriptions filter on.
   */
  nameWords?(detail: string | null): string;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyRuleList = RuleList<string, any, any>;

export type CompiledOf<L> = L extends RuleList<string, Shape, infer C> ? C : never;

/** The compiled rules of `lists`, by list name: what the scan holds, and picks from for each kind. */
export type CompiledRules<L extends readonly AnyRuleList[]> = { [X in L[number] as X['name']]: CompiledOf<X> };

type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/** Every key `lists` add to the watch config. */
export type ShapesOf<L extends readonly AnyRuleList[]> = UnionToIntersection<ReturnType<L[number]['shape']>>;

/** The rule lists a chain kind reads, by name: its matcher and its fetch plan see only their compiled rules. */
export type Reads<R> = { [K in keyof R & string]: RuleList<K, Shape, R[K]> };

/** Rules grouped by what they watch (a contract id, an asset), each group in config order. */
export function groupBy<R, K>(rules: readonly R[], keyOf: (rule: R) => K): Map<K, R[]> {
  const map = new Map<K, R[]>();
  for (const rule of rules) {
    const key = keyOf(rule);
    const group = map.get(key) ?? [];
    group.push(rule);
    map.set(key, group);
  }
  return map;
}
