// `windows`: counts and sums of another rule's matches over a sliding window of block time. Each window
// names the rule it aggregates (`of`, by its `name`); the window stage (core/stages/window-stage.ts) feeds it the
// block's alerts and raises `window_threshold` (window-threshold.ts). See docs/windows.md.
import * as z from '../../zod-mini';
import { comment, list, noDuplicates, wholeNumber } from '../watch-config/schema-parts';
import type { RuleMetaParts } from '../watch-config/rule-meta-schema';
import { DEFAULT_SEVERITY, type Severity } from '../stages/rule-meta';
import { amountSchema } from '../watch-config/amount-fields';
import { windowThreshold, windowUnit } from '../watch-config/window-amounts';
import { inUnit, type Unit } from '../watch-config/amounts';
import type { Network } from '../domain';
import type { RuleList } from './rule-list';
import { plural, summarised } from './rule-words';

/** A window may look back at most a day of block time. */
export const WINDOW_MINUTES_MAX = 1440;

const sumPath = /^[a-zA-Z0-9\-_!?+<>=/*]+(\.[a-zA-Z0-9\-_!?+<>=/*]+)*$/;

function windowSchema(meta: RuleMetaParts) {
  const rule = z.strictObject(
    {
      $comment: comment,
      name: meta.requiredName,
      severity: meta.shape.severity,
      of: z
        .string({ error: 'must be the "name" of the rule whose matches the window counts, in quotes' })
        .check(z.minLength(1, { error: 'must not be empty' })),
      minutes: wholeNumber(1, WINDOW_MINUTES_MAX),
      count: z.optional(wholeNumber(1, 100_000)),
      sum: z.optional(
        z
          .string({ error: 'must be the alert field to add up, in quotes: "amount", or a path into a log\'s decoded value ("amount", "details.amount")' })
          .check(z.regex(sumPath, { error: 'must be a field name or a path of tuple keys joined by "." (e.g. "amount", "details.amount")' })),
      ),
      atLeast: z.optional(amountSchema(1)),
    },
    { error: 'must be an object like {"name": "treasury drain", "of": "treasury outflows", "minutes": 60, "sum": "amount", "atLeast": "1000000000000"}' },
  );
  return z.pipe(
    rule.check(
      z.superRefine((w, ctx) => {
        if ((w.count === undefined) === (w.sum === undefined)) {
          ctx.addIssue({ code: 'custom', message: 'needs either "count" (at least that many matches) or "sum" with "atLeast", not both' });
        } else if (w.sum !== undefined && w.atLeast === undefined) {
          ctx.addIssue({ code: 'custom', path: ['atLeast'], message: 'is required with "sum": the total that sets the window off, e.g. "1000000000000"' });
        } else if (w.count !== undefined && w.atLeast !== undefined) {
          ctx.addIssue({
            code: 'custom',
            path: ['atLeast'],
            message: 'goes with "sum" only: "count" is itself the number of matches that sets the window off',
          });
        }
      }),
    ),
    z.transform(({ $comment: _note, atLeast, severity, ...w }) => ({
      ...w,
      ...(atLeast === undefined ? {} : { atLeast: String(atLeast) }),
      ...(severity === undefined ? {} : { severity }),
    })),
  );
}

export type WindowRule = z.output<ReturnType<typeof windowSchema>>;

/** A window as the stage runs it: its threshold as a bigint over matches (count) or the summed field. */
export interface CompiledWindow {
  name: string;
  of: string;
  minutes: number;
  /** The summed field, or null for a count window. */
  sum: string | null;
  threshold: bigint;
  /** The unit a sum window's alert shows its sum and threshold in (window-amounts.ts); null: base units, or a count. */
  unit: Unit | null;
  severity: Severity;
}

export interface CompiledWindows {
  windows: readonly CompiledWindow[];
  /** Names of rules that say `"alert": false`: their alerts feed windows and are not sent. */
  countOnly: ReadonlySet<string>;
}

const sameName = (item: unknown) =>
  typeof item === 'object' && item !== null && typeof (item as { name?: unknown }).name === 'string' ? (item as { name: string }).name : null;

const shape = (_network: Network | null, meta: RuleMetaParts) => ({
  windows: list(windowSchema(meta), 'windows {"name": ..., "of": ..., "minutes": ..., "count": ...}', noDuplicates(sameName, 'windows', 'the same name')),
});

/** Every rule object in the config that says `"alert": false`, by name (lists read generically: any list's rules). */
export function countOnlyRuleNames(config: Readonly<Record<string, unknown>>): Set<string> {
  const countOnly = new Set<string>();
  for (const value of Object.values(config)) {
    const rules = Array.isArray(value) ? value : [value];
    for (const rule of rules) {
      if (typeof rule !== 'object' || rule === null) continue;
      const { alert, name } = rule as { alert?: unknown; name?: unknown };
      if (alert === false && typeof name === 'string') countOnly.add(name);
    }
  }
  return countOnly;
}

/** A window as the stage runs it; `config` holds the rule it sums, whose asset scales an `atLeast` with a unit. */
export function compileWindow(rule: WindowRule, config: Readonly<Record<string, unknown>> = {}): CompiledWindow {
  return {
    name: rule.name,
    of: rule.of,
    minutes: rule.minutes,
    sum: rule.sum ?? null,
    threshold: rule.sum !== undefined ? windowThreshold(config, { of: rule.of, atLeast: rule.atLeast! }) : BigInt(rule.count!),
    unit: rule.sum !== undefined ? windowUnit(config, { of: rule.of, atLeast: rule.atLeast! }) : null,
    severity: rule.severity ?? DEFAULT_SEVERITY,
  };
}

/** `atLeast` as written, or in base units followed by the unit the window's alert will speak in. */
function atLeastWords(w: WindowRule, config: Readonly<Record<string, unknown>>): string {
  const atLeast = w.atLeast!;
  if (!/^\d+$/.test(atLeast)) return atLeast;
  const unit = windowUnit(config, { of: w.of, atLeast });
  return unit === null || unit.decimals === 0 ? atLeast : `${atLeast} base units = ${inUnit(atLeast, unit)}`;
}

function words(w: WindowRule, countOnly: ReadonlySet<string>, config: Readonly<Record<string, unknown>>): string {
  const what =
    w.sum !== undefined ? `the sum of ${w.sum} reaches ${atLeastWords(w, config)} over the matches of` : `${w.count} ${w.count === 1 ? 'match' : 'matches'} of`;
  const counted = countOnly.has(w.of) ? ' (its own alerts not sent: "alert": false)' : '';
  return `    "${w.name}": ${what} "${w.of}"${counted} within ${plural(w.minutes, 'minute')} of block time${w.severity ? `, ${w.severity}` : ''}`;
}

export const windowsList = {
  name: 'windows',
  shape,
  entryKeys: ['$comment', 'name', 'severity', 'of', 'minutes', 'count', 'sum', 'atLeast'],
  aggregate: true,
  compile: (config): CompiledWindows => ({
    windows: config.windows.map((window) => compileWindow(window, config as unknown as Record<string, unknown>)),
    countOnly: countOnlyRuleNames(config as unknown as Record<string, unknown>),
  }),
  describe: (config) => {
    const all = config as unknown as Record<string, unknown>;
    const countOnly = countOnlyRuleNames(all);
    const { windows } = config;
    return windows.length === 0
      ? null
      : [
          `- ${plural(windows.length, 'window')} over other rules' matches:`,
          ...summarised(
            windows.map((w) => words(w, countOnly, all)),
            'window',
          ),
        ].join('\n');
  },
} satisfies RuleList<'windows', ReturnType<typeof shape>, CompiledWindows>;
