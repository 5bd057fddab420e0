// The watch config's rule metadata (`name`, `severity`, `cooldownMinutes`, `mutedUntil`) as one schema fragment, so that every rule list
// (and a whole list of bare ids, through a `…Rule` object beside it) takes the same keys with the same checks.
// Built for the registered lists (watch-config-schema.ts): a name may not look like one of their default names.
import * as z from '../../zod-mini';
import { SEVERITIES, isDefaultRuleName, type RuleMetaConfig } from '../stages/rule-meta';
import { comment } from './schema-parts';

export const RULE_NAME_MAX = 60;

function nameSchema(reserved: readonly string[]) {
  return z.string({ error: `must be a name for the rule, in quotes (at most ${RULE_NAME_MAX} characters)` }).check(
    z.minLength(1, { error: 'must not be empty; leave "name" out for a default name' }),
    z.maxLength(RULE_NAME_MAX, { error: `must be at most ${RULE_NAME_MAX} characters: it leads a 160-character SMS` }),
    z.regex(/^[^\p{Cc}\p{Cf}]*$/u, { error: 'must be plain text (no control or invisible characters)' }),
    z.refine((text) => !isDefaultRuleName(text, reserved), {
      error: 'must not start with a rule list\'s name and ":" (that form is kept for default names)',
    }),
  );
}

/** A week: a longer cooldown is a mute (`mutedUntil`) or a rule to remove. */
export const COOLDOWN_MINUTES_MAX = 10_080;

const cooldownMessage = `must be a whole number of minutes from 1 to ${COOLDOWN_MINUTES_MAX} (a week), e.g. 30`;
const cooldownMinutes = z
  .int({ error: cooldownMessage })
  .check(z.minimum(1, { error: cooldownMessage }), z.maximum(COOLDOWN_MINUTES_MAX, { error: cooldownMessage }));

const mutedUntil = z.iso.datetime({
  offset: true,
  error: 'must be an ISO-8601 time with its zone, in quotes, e.g. "2026-11-26T06:00:00Z" or "2026-11-26T07:00:00+01:00"',
});

const severity = z.enum(SEVERITIES, { error: `must be one of ${SEVERITIES.map((s) => `"${s}"`).join(', ')} (default "warning")` });

/** Only the keys that were given: a rule with no metadata stays as it was written. */
export function pickRuleMeta(input: {
  name?: string | undefined;
  severity?: (typeof SEVERITIES)[number] | undefined;
  alert?: boolean | undefined;
  cooldownMinutes?: number | undefined;
  mutedUntil?: string | undefined;
}): RuleMetaConfig {
  return {
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(input.severity !== undefined ? { severity: input.severity } : {}),
    ...(input.alert !== undefined ? { alert: input.alert } : {}),
    ...(input.cooldownMinutes !== undefined ? { cooldownMinutes: input.cooldownMinutes } : {}),
    ...(input.mutedUntil !== undefined ? { mutedUntil: input.mutedUntil } : {}),
  };
}

/** `"alert": false`: the rule feeds a window only (docs/windows.md). */
const alertFlag = z.boolean({ error: "must be true or false: false sends none of the rule's own alerts, only its windows' (leave it out to send them)" });

/** The metadata schemas, given the names reserved for default rule names (every registered list's). */
export function ruleMetaParts(reserved: readonly string[]) {
  /** Spread into a rule's object schema: `z.strictObject({ ...meta.shape, contractId, … })`. */
  const shape = {
    name: z.optional(nameSchema(reserved)),
    severity: z.optional(severity),
    alert: z.optional(alertFlag),
    cooldownMinutes: z.optional(cooldownMinutes),
    mutedUntil: z.optional(mutedUntil),
  };
  /** `{"name": …, "severity": …}` for a whole list of bare ids (`contractsRule`, `addressesRule`), without its comment. */
  /** `noCooldown`: why the list takes no `cooldownMinutes` (its alerts are not found in blocks). */
  const listRule = (list: string, noCooldown?: string) => {
    const cooldown = noCooldown === undefined ? {} : { cooldownMinutes: z.optional(z.never({ error: noCooldown })) };
    const object = z.strictObject(
      { $comment: comment, ...shape, ...cooldown },
      { error: `must be an object like {"name": "…", "severity": "critical"} naming every alert of "${list}"` },
    );
    return z.optional(
      z.pipe(
        object,
        z.transform((value: z.output<typeof object>) => pickRuleMeta(value)),
      ),
    );
  };
  /** A name that must be given: a window is known by it (its alerts, its state). */
  const requiredName = nameSchema(reserved);
  return { shape, listRule, requiredName };
}

export type RuleMetaParts = ReturnType<typeof ruleMetaParts>;

/** The keys a `…Rule` object may have, for "did you mean". */
export const LIST_RULE_KEYS = ['$comment', 'name', 'severity', 'alert', 'cooldownMinutes', 'mutedUntil'];

/** The key order of a rule object whose schema spreads `meta.shape` first, for "did you mean". */
export const keysOf = (shape: (meta: RuleMetaParts) => object) => Object.keys(shape(ruleMetaParts([])));
