// The likeliest amount mistake is a number meant in STX written without its unit, which the watcher reads as
// micro-STX: `"below": 10000` meant as 10,000 STX is 0.01 STX. It is valid, so it is no error, but a bare
// STX amount under 1 STX is warned of, with the amount the person probably meant.
import { groupDigits } from '../render/stx-amount';
import { formatPath } from './config-problems';
import { inUnit, STX_UNITS } from './amounts';

const MICRO_PER_STX = 1_000_000n;

interface AmountRule {
  asset?: string;
  amountUnits?: Readonly<Record<string, string | undefined>>;
  [field: string]: unknown;
}

/** A warning for `value` at `path` when it is a bare STX amount of less than 1 STX (0 means no threshold). */
function bareStxWarning(path: (string | number)[], value: unknown): string | null {
  if (typeof value !== 'string' || !/^\d+$/.test(value)) return null;
  const base = BigInt(value);
  if (base === 0n || base >= MICRO_PER_STX) return null;
  return (
    `warning: ${formatPath(path)} is ${value} without a unit, so ${value} micro-STX (${inUnit(value, STX_UNITS[0]!)}): ` +
    `did you mean "${groupDigits(base)} STX"? Write the unit to say which ("${value} uSTX" keeps it as it is)`
  );
}

/** Every bare STX amount under 1 STX in the rules that hold amounts (`transfers`, `balances`, `windows`), at its path. */
export function bareAmountWarnings(config: Readonly<Record<string, unknown>>): string[] {
  const warnings: string[] = [];
  const fieldsOf: Record<string, readonly string[]> = { transfers: ['minAmount'], balances: ['below', 'above'] };
  for (const [list, fields] of Object.entries(fieldsOf)) {
    const rules = (Array.isArray(config[list]) ? config[list] : []) as AmountRule[];
    rules.forEach((rule, index) => {
      if (rule.asset !== 'stx') return;
      for (const field of fields) {
        if (rule.amountUnits?.[field] !== undefined) continue;
        const warning = bareStxWarning([list, index, field], rule[field]);
        if (warning) warnings.push(warning);
      }
    });
  }
  warnings.push(...windowWarnings(config));
  return warnings;
}

/** A sum window's bare `atLeast` under 1 STX over a rule on STX (its own `asset`, or the addresses' STX alerts). */
function windowWarnings(config: Readonly<Record<string, unknown>>): string[] {
  const windows = (Array.isArray(config.windows) ? config.windows : []) as { of?: unknown; atLeast?: unknown }[];
  const stxRules = new Set<unknown>();
  for (const rule of Array.isArray(config.transfers) ? (config.transfers as AmountRule[]) : []) if (rule.asset === 'stx') stxRules.add(rule.name);
  const addressesRule = config.addressesRule as AmountRule | undefined;
  if (addressesRule?.name !== undefined) stxRules.add(addressesRule.name);
  return windows.flatMap((window, index) => {
    if (!stxRules.has(window.of)) return [];
    const warning = bareStxWarning(['windows', index, 'atLeast'], window.atLeast);
    return warning ? [warning] : [];
  });
}
