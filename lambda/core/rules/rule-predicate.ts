// One predicate per rule list, built from a table with a line for every field its rules are written with. The
// mined matchers and the pending (mempool) matcher both call it, each on a small "candidate" that a mined
// transaction and a waiting one both produce: a field added to a list's schema does not compile until its line
// says how it is tested (or why it is no filter), and then it is tested wherever the list is matched.
import type { RuleMetaConfig } from '../stages/rule-meta';

/** A field that tests nothing, and why: the rules are looked up by it, it picks the pending rules, or it names, ranks, holds back or shows the alert. */
export type NotAFilter = 'lookup key' | 'picks pending rules' | 'not a filter';

/** Whether `rule` lets `candidate` through on one field (a rule without the field lets everything through). */
export type FieldTest<Compiled, Candidate> = (rule: Compiled, candidate: Candidate) => boolean;

/**
 * A line for every field of `Written` (the rule as the schema gives it): `-?` makes the optional fields
 * required here too, so a new field is a compile error until it gets its line.
 */
export type RuleFields<Written, Compiled, Candidate> = { readonly [K in keyof Written]-?: FieldTest<Compiled, Candidate> | NotAFilter };

/** The lines of the metadata every rule takes (`name`, `severity`, …): none filters. */
export const RULE_META_FIELDS = {
  name: 'not a filter',
  severity: 'not a filter',
  alert: 'not a filter',
  cooldownMinutes: 'not a filter',
  mutedUntil: 'not a filter',
} as const satisfies { readonly [K in keyof RuleMetaConfig]-?: NotAFilter };

/** The fields of `fields` that test something, in the table's order (cheap tests first). */
export function filterFields<W, C, D>(fields: RuleFields<W, C, D>): string[] {
  return Object.entries(fields)
    .filter(([, line]) => typeof line === 'function')
    .map(([field]) => field);
}

/** `rule` meets `candidate` when every field's test lets it through, in the table's order. */
export function rulePredicate<W, C, D>(fields: RuleFields<W, C, D>): (rule: C, candidate: D) => boolean {
  const tests = Object.values(fields).filter((line): line is FieldTest<C, D> => typeof line === 'function');
  return (rule, candidate) => {
    for (const test of tests) if (!test(rule, candidate)) return false;
    return true;
  };
}
