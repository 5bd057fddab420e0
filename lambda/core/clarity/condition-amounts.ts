// Amounts with a unit in a `where` comparison: `{"gte": "1,000 STX"}` on a printed uint. A print carries no
// asset, so the unit alone says how to scale: STX and uSTX, a token of the shipped table by its symbol
// (`sBTC`, `sats`), or the token the rule names with its `decimals` and `symbol`. Only the ordering operators
// take a unit: a bare string still means text to equal.
import { amountText, KNOWN_TOKENS, STX_UNITS, toBaseUnits, type TokenFacts, type Unit } from '../watch-config/amounts';

/** The unit a name stands for in a rule's conditions; null lets any unit through (checked beside the rule). */
export type UnitsOf = ((name: string) => Unit | undefined) | null;

/** The units a log rule's conditions may name: STX's, the known tokens', and the rule's own token's. */
export function logUnits(rule: TokenFacts): (name: string) => Unit | undefined {
  const units: Unit[] = [...STX_UNITS];
  for (const token of Object.values(KNOWN_TOKENS)) {
    units.push({ name: token.symbol, decimals: token.decimals });
    if (token.baseUnit) units.push({ name: token.baseUnit, decimals: 0 });
  }
  if (rule.symbol !== undefined && rule.decimals !== undefined) units.unshift({ name: rule.symbol, decimals: rule.decimals });
  return (name) => units.find((unit) => unit.name.toLowerCase() === name.toLowerCase());
}

/** An ordering operand that is an amount with a unit: its problem, null when sound, undefined when it has no unit. */
export function amountOperandProblem(operator: string, operand: string, unitsOf: UnitsOf): string | null | undefined {
  const text = amountText(operand);
  if (typeof text === 'string' || text.unit === null) return undefined;
  if (unitsOf === null) return null;
  const unit = unitsOf(text.unit);
  if (!unit) {
    return `"${operator}" names "${text.unit}", a unit the watcher does not know: give the rule "decimals" and "symbol": "${text.unit}" (the token's), or write base units`;
  }
  const read = toBaseUnits(text, 'print', [unit]);
  return typeof read === 'string' ? `"${operator}" ${read}` : null;
}

/** The bound an ordering operator compares with, in base units: an integer, or an amount with its unit. */
export function boundOf(operand: string | number, unitsOf: UnitsOf): bigint {
  if (typeof operand === 'number' || /^-?\d+$/.test(operand)) return BigInt(operand);
  const text = amountText(operand);
  const unit = typeof text === 'string' || text.unit === null ? undefined : unitsOf?.(text.unit);
  const read = unit && typeof text !== 'string' ? toBaseUnits(text, 'print', [unit]) : 'no unit';
  if (typeof read === 'string') throw new RangeError(`not a bound the config check accepts: ${JSON.stringify(operand)}`);
  return read.base;
}
