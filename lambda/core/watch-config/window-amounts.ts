// A sum window's `atLeast` with a unit ("10,000 STX"): the window itself names no asset, so the unit is read
// against the rule it adds up (`of`): a transfers rule's asset, STX for the addresses' alerts (STX arriving),
// a log rule's units (STX, the shipped tokens, its own `decimals` and `symbol`). Read once when the windows
// compile; checked with the config, each problem at the window's `atLeast`. The same reading gives the unit
// the window's alert speaks in (`windowUnit`), so that `--check` and the alert say the sum alike.
import { logUnits } from '../clarity/condition-amounts';
import { amountText, STX_UNITS, toBaseUnits, unitsOf, type TokenFacts, type Unit } from './amounts';
import { formatPath, type ConfigProblem } from './config-problems';

type Rule = Record<string, unknown> & TokenFacts;

/** Every rule object in the config named `name` (lists read generically, like the windows' other checks). */
function rulesNamed(config: Readonly<Record<string, unknown>>, name: unknown): Rule[] {
  const found: Rule[] = [];
  for (const [key, value] of Object.entries(config)) {
    if (key === 'windows') continue;
    for (const rule of Array.isArray(value) ? value : [value]) {
      if (typeof rule === 'object' && rule !== null && (rule as Rule).name === name) found.push(rule as Rule);
    }
  }
  return found;
}

/** The base units of `written` for the rule it sums and the unit it names (null: none), or why it cannot be read. */
function readFor(rule: Rule, written: string): { base: bigint; unit: Unit | null } | string {
  const text = amountText(written);
  if (typeof text === 'string') return text;
  if (typeof rule.asset === 'string') return toBaseUnits(text, rule.asset, unitsOf(rule.asset, rule));
  if (text.unit === null) return { base: BigInt(text.whole), unit: null };
  const units: (name: string) => Unit | undefined =
    'contractId' in rule ? logUnits(rule) : (name) => STX_UNITS.find((u) => u.name.toLowerCase() === name.toLowerCase());
  const unit = units(text.unit);
  if (!unit) return `names "${text.unit}", a unit the watcher cannot scale for what "${String(rule.name)}" matches: write STX, a token it knows, or base units`;
  return toBaseUnits(text, 'sum', [unit]);
}

/** The threshold of a window: `atLeast` in base units for the rules it sums (they agree: checked below). */
export function windowThreshold(config: Readonly<Record<string, unknown>>, window: { of: string; atLeast: string }): bigint {
  if (/^\d+$/.test(window.atLeast)) return BigInt(window.atLeast);
  const read = readFor(rulesNamed(config, window.of)[0] ?? {}, window.atLeast);
  if (typeof read === 'string') throw new RangeError(`a window's atLeast the config check refuses: ${read}`);
  return read.base;
}

/** What a rule's matches carry when no unit is written: its asset's amounts, STX arriving at the addresses, a log's bare value. */
function unitOfRule(rule: Rule): Unit | null {
  if (typeof rule.asset === 'string') return rule.asset === '*' ? null : (unitsOf(rule.asset, rule)?.[0] ?? null);
  return 'contractId' in rule ? null : STX_UNITS[0]!;
}

/**
 * The unit a sum window's alert speaks in: the one its `atLeast` names, else that of the asset the rule it sums
 * counts (STX, a token whose decimals are known); null when there is none, or the rules of that name disagree.
 */
export function windowUnit(config: Readonly<Record<string, unknown>>, window: { of: string; atLeast: string }): Unit | null {
  const units = rulesNamed(config, window.of).map((rule) => {
    const read = readFor(rule, window.atLeast);
    return typeof read === 'string' ? null : (read.unit ?? unitOfRule(rule));
  });
  const first = units[0] ?? null;
  return first !== null && units.every((u) => u !== null && u.name === first.name && u.decimals === first.decimals) ? first : null;
}

/** Each sum window whose `atLeast` unit does not fit the rules it sums, or reads differently for two of them. */
export function windowAmountProblems(config: Readonly<Record<string, unknown>>): ConfigProblem[] {
  const windows = (Array.isArray(config.windows) ? config.windows : []) as { of?: unknown; atLeast?: unknown }[];
  return windows.flatMap((window, index): ConfigProblem[] => {
    if (typeof window.atLeast !== 'string' || /^\d+$/.test(window.atLeast)) return [];
    const at = (message: string) => [{ path: formatPath(['windows', index, 'atLeast']), value: window.atLeast, message }];
    const reads = rulesNamed(config, window.of).map((rule) => {
      const read = readFor(rule, window.atLeast as string);
      return typeof read === 'string' ? read : read.base;
    });
    const problem = reads.find((read): read is string => typeof read === 'string');
    if (problem !== undefined) return at(problem);
    if (new Set(reads.map(String)).size > 1)
      return at(`reads differently for the rules named "${String(window.of)}" (their assets differ): write base units, or give them different names`);
    return [];
  });
}
