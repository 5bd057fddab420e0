// The watch config's rule metadata (`name`, `severity`) as one schema fragment, so that every rule list
// (and a whole list of bare ids, through a `…Rule` object beside it) takes the same keys with the same checks.
import * as z from '../zod-mini';
import { SEVERITIES, isDefaultRuleName, type RuleMetaConfig } from '../core/rule-meta';

export const RULE_NAME_MAX = 60;

const name = z
  .string({ error: `must be a name for the rule, in quotes (at most ${RULE_NAME_MAX} characters)` })
  .check(
    z.minLength(1, { error: 'must not be empty; leave "name" out for a default name' }),
    z.maxLength(RULE_NAME_MAX, { error: `must be at most ${RULE_NAME_MAX} characters: it leads a 160-character SMS` }),
    z.regex(/^[^\p{Cc}\p{Cf}]*$/u, { error: 'must be plain text (no control or invisible characters)' }),
    z.refine((text) => !isDefaultRuleName(text), {
      error: 'must not start with a rule list\'s name and ":" (that form is kept for default names)',
    }),
  );

const severity = z.enum(SEVERITIES, { error: `must be one of ${SEVERITIES.map((s) => `"${s}"`).join(', ')} (default "warning")` });

/** Spread into a rule's object schema: `z.strictObject({ ...ruleMetaShape, contractId, … })`. */
export const ruleMetaShape = { name: z.optional(name), severity: z.optional(severity) };

/** `{"name": …, "severity": …}` for a whole list of bare ids (`contractsRule`, `addressesRule`), without its comment. */
export function listRuleSchema(list: string, comment: z.ZodMiniType) {
  const object = z.strictObject(
    { $comment: comment, ...ruleMetaShape },
    { error: `must be an object like {"name": "…", "severity": "critical"} naming every alert of "${list}"` },
  );
  return z.optional(z.pipe(object, z.transform((value: z.output<typeof object>) => pickRuleMeta(value))));
}

/** The keys a `…Rule` object may have, for "did you mean". */
export const LIST_RULE_KEYS = ['$comment', ...Object.keys(ruleMetaShape)];

/** Only the keys that were given: a rule with no metadata stays as it was written. */
export function pickRuleMeta(input: { name?: string | undefined; severity?: (typeof SEVERITIES)[number] | undefined }): RuleMetaConfig {
  return {
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(input.severity !== undefined ? { severity: input.severity } : {}),
  };
}
