// The amount fields of a rule (`minAmount`, `below`, `above`) in the schema: each is first checked alone for its
// shape (amounts.ts), then, beside the rule's `asset`, `decimals` and `symbol`, read into base units. A rule
// that wrote a token's unit without giving its decimals and symbol gets them from the unit it wrote, so that
// `--check` and its alerts speak in that unit too.
import * as z from '../../zod-mini';
import { AMOUNT_FORMS, amountText, symbolOf, toBaseUnits, unitsOf, type TokenFacts } from './amounts';
import { isUnsafeInteger, TOO_BIG_FOR_A_JSON_NUMBER } from './config-problems';

/** The shape of an amount in quotes, for the JSON Schema editors read too (amounts.ts says what it means). */
const AMOUNT_PATTERN = /^\s*(\d{1,3}(,\d{3})+|\d+)(\.\d+)?\s*([A-Za-zµ][\w.-]*)?\s*$/;

/** An amount: digits with an optional unit in quotes, or a whole JSON number of base units (`min` or more). */
export function amountSchema(min: number) {
  const numberMessage = (issue: { input?: unknown }) => (isUnsafeInteger(issue.input) ? TOO_BIG_FOR_A_JSON_NUMBER : AMOUNT_FORMS);
  return z.union(
    [
      z.string({ error: AMOUNT_FORMS }).check(
        z.regex(AMOUNT_PATTERN, { error: AMOUNT_FORMS }),
        z.superRefine((text, ctx) => {
          const shape = amountText(text);
          // The pattern above already said AMOUNT_FORMS; this adds what it cannot (a unit missing, too big).
          if (typeof shape === 'string' && shape !== AMOUNT_FORMS) ctx.addIssue({ code: 'custom', message: shape });
        }),
      ),
      z.int({ error: numberMessage }).check(z.minimum(min, { error: AMOUNT_FORMS })),
    ],
    { error: AMOUNT_FORMS },
  );
}

/** A rule's fields as the schema checked them one by one. */
export type RuleWithAmounts = TokenFacts & { asset: string } & Record<string, unknown>;

export interface AmountReadings {
  /** Each amount field given, in base units as a decimal string (amounts can exceed 2^53). */
  values: Record<string, string>;
  /** The unit each field was written in; a field written in base units alone is absent. */
  units: Record<string, string>;
  problems: { field: string; message: string }[];
  /** The decimals and symbol a written token unit implies, for a rule that gave neither. */
  token: TokenFacts;
}

/** Every amount field of `rule` read into base units, or the problem with each; `min` is the least base units. */
export function readAmounts(rule: RuleWithAmounts, fields: readonly string[], min = 0n): AmountReadings {
  const readings: AmountReadings = { values: {}, units: {}, problems: [], token: {} };
  const units = unitsOf(rule.asset, rule);
  for (const field of fields) {
    if (rule[field] === undefined) continue;
    const shape = amountText(rule[field]);
    if (typeof shape === 'string') continue; // reported by the field's own schema
    const read = toBaseUnits(shape, rule.asset, units);
    if (typeof read === 'string') {
      readings.problems.push({ field, message: read });
    } else if (read.base < min) {
      readings.problems.push({ field, message: `must be more than 0` });
    } else {
      readings.values[field] = read.base.toString();
      if (read.unit) readings.units[field] = read.unit.name;
    }
  }
  const tokenUnit = Object.keys(readings.units).length > 0 && rule.asset !== 'stx';
  if (tokenUnit && rule.decimals === undefined) readings.token.decimals = units![0]!.decimals;
  const symbol = symbolOf(rule.asset, rule);
  if (tokenUnit && rule.symbol === undefined && symbol !== undefined) readings.token.symbol = symbol;
  return readings;
}

/** Reports each amount problem at its field. */
export function checkAmounts(fields: readonly string[], min = 0n) {
  return z.superRefine((rule: RuleWithAmounts, ctx) => {
    for (const { field, message } of readAmounts(rule, fields, min).problems) ctx.addIssue({ code: 'custom', path: [field], message });
  });
}

/** The rule's amounts in base units, their written units (absent when none was), and the token's facts. */
export function amountOutput<F extends string>(
  rule: RuleWithAmounts,
  fields: readonly F[],
): Partial<Record<F, string>> & TokenFacts & { amountUnits?: Partial<Record<F, string>> } {
  const { values, units, token } = readAmounts(rule, fields);
  return { ...values, ...token, ...(Object.keys(units).length > 0 ? { amountUnits: units } : {}) } as Partial<Record<F, string>> &
    TokenFacts & { amountUnits?: Partial<Record<F, string>> };
}
