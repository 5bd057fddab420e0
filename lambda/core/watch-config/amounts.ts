// Amounts as people write them in watch.json: `"10,000 STX"`, `"0.5 sBTC"`, `"2500000 uSTX"`, or base units
// alone (`"50000000"`, `50000000`). Each is read exactly, as bigints (never through a float), into the base
// units the matchers compare: the whole part times 10^decimals plus the fraction's digits. A unit must be one
// the rule's asset is counted in; a fraction finer than the asset's smallest unit is refused.
import { isUnsafeInteger, TOO_BIG_FOR_A_JSON_NUMBER } from './config-problems';
import { groupDigits } from '../render/stx-amount';

/** One way an asset's amounts may be written: its name and how many decimals it scales by. */
export interface Unit {
  name: string;
  decimals: number;
}

/** A token the watcher knows the decimals of without asking the API. */
export interface KnownToken {
  symbol: string;
  decimals: number;
  /** Its smallest unit, also accepted (`sats` for sBTC). */
  baseUnit?: string;
}

/**
 * Tokens whose amounts may carry a unit with no `decimals` in the rule and no metadata read. Their decimals are
 * fixed by their contracts (SIP-010 `get-decimals` returns a constant).
 */
export const KNOWN_TOKENS: Readonly<Record<string, KnownToken>> = {
  'SM3VDXK3WZZSA84XXFKAFAF15NNZX32CTSG82JFQ4.sbtc-token::sbtc-token': { symbol: 'sBTC', decimals: 8, baseUnit: 'sats' },
};

export const STX_UNITS: readonly Unit[] = [
  { name: 'STX', decimals: 6 },
  { name: 'uSTX', decimals: 0 },
  { name: 'microSTX', decimals: 0 },
];

/** What a rule says of its token's amounts (`decimals`, `symbol`), and the decimals read from its metadata. */
export interface TokenFacts {
  decimals?: number;
  symbol?: string;
}

/**
 * The units an asset's amounts may be written in: STX's; a token's symbol scaled by its decimals (the rule's,
 * else the shipped table's, else its metadata's); null when a token's decimals are not known (base units only).
 */
export function unitsOf(asset: string, rule: TokenFacts, metadata?: ReadonlyMap<string, TokenFacts>): readonly Unit[] | null {
  if (asset === 'stx') return STX_UNITS;
  const known = KNOWN_TOKENS[asset];
  const read = metadata?.get(asset);
  const decimals = rule.decimals ?? known?.decimals ?? read?.decimals;
  if (decimals === undefined) return null;
  const token = asset.slice(asset.lastIndexOf('::') + 2);
  const names = [rule.symbol, known?.symbol, read?.symbol, token].filter((s): s is string => s !== undefined);
  const distinct = names.filter((name, i) => names.findIndex((n) => n.toLowerCase() === name.toLowerCase()) === i);
  return distinct.map((name) => ({ name, decimals })).concat(known?.baseUnit ? [{ name: known.baseUnit, decimals: 0 }] : []);
}

/** The name a token's amounts are shown in: the rule's symbol, else the table's. */
export function symbolOf(asset: string, rule: TokenFacts): string | undefined {
  return rule.symbol ?? KNOWN_TOKENS[asset]?.symbol;
}

/** `1,000,000` or `1000000`, an optional fraction, then an optional unit (letters first). */
const WRITTEN = /^\s*(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?\s*([A-Za-zµ][\w.-]*)?\s*$/;

/** A written amount's parts, before its unit is checked against an asset. */
export interface AmountText {
  whole: string;
  fraction: string;
  unit: string | null;
}

/** The shape of an amount (digits, fraction, unit), or why it is none. */
export function amountText(value: unknown): AmountText | string {
  if (isUnsafeInteger(value)) return TOO_BIG_FOR_A_JSON_NUMBER;
  if (typeof value === 'number') {
    return Number.isInteger(value) && value >= 0 ? { whole: String(value), fraction: '', unit: null } : AMOUNT_FORMS;
  }
  if (typeof value !== 'string') return AMOUNT_FORMS;
  const match = WRITTEN.exec(value);
  if (!match) return AMOUNT_FORMS;
  const [, whole, fraction = '', unit = null] = match;
  if (unit === null && (whole!.includes(',') || fraction !== '')) {
    return `needs its unit after it, e.g. "${value.trim()} STX": without one an amount is a whole number of base units, written without commas`;
  }
  return { whole: whole!.replace(/,/g, ''), fraction, unit };
}

export const AMOUNT_FORMS =
  'must be an amount with its unit, e.g. "10,000 STX" or "0.5 sBTC", or a whole number of base units (micro-STX for STX), 0 or more: "50000000" or 50000000';

/** What an asset is called in a message: `STX`, `sBTC`, or the token's name. */
function assetWords(asset: string, units: readonly Unit[] | null): string {
  if (asset === 'stx') return 'STX';
  if (asset === '*') return 'any asset';
  return units?.[0]?.name ?? asset.slice(asset.lastIndexOf('::') + 2);
}

/** Base units of `text` in `units`, or why not; `asset` names the rule's asset in messages. */
export function toBaseUnits(text: AmountText, asset: string, units: readonly Unit[] | null): { base: bigint; unit: Unit | null } | string {
  if (text.unit === null) return { base: BigInt(text.whole), unit: null };
  if (asset === '*') return `has a unit, but "asset": "*" matches every asset, each counted in its own: write base units, or give each asset its own rule`;
  if (units === null) {
    return `needs the token's decimals to read "${text.unit}": give "decimals" (and "symbol") in the rule, or write base units without a unit`;
  }
  const unit = units.find((u) => u.name.toLowerCase() === text.unit!.toLowerCase());
  if (!unit) {
    const names = units.map((u) => `"${u.name}"`).join(', ');
    return `names "${text.unit}", which is not a unit of ${assetWords(asset, units)}: write ${names}, or base units without a unit`;
  }
  if (text.fraction.replace(/0+$/, '').length > unit.decimals) {
    const smallest = unit.decimals === 0 ? '1' : `0.${'0'.repeat(unit.decimals - 1)}1`;
    return `is finer than ${unit.name} counts: ${unit.name} has ${unit.decimals} decimals, so the smallest amount is ${smallest} ${unit.name}`;
  }
  const scale = 10n ** BigInt(unit.decimals);
  const fraction = text.fraction.replace(/0+$/, '').padEnd(unit.decimals, '0');
  return { base: BigInt(text.whole) * scale + (fraction === '' ? 0n : BigInt(fraction)), unit };
}

/** `10,000 STX`, `0.5 sBTC`, `2,500,000 uSTX`: base units shown in `unit`, exactly (trailing zeros dropped). */
export function inUnit(base: string, unit: Unit): string {
  const value = BigInt(base);
  const scale = 10n ** BigInt(unit.decimals);
  const fraction = unit.decimals === 0 ? '' : (value % scale).toString().padStart(unit.decimals, '0').replace(/0+$/, '');
  return `${groupDigits(value / scale)}${fraction ? `.${fraction}` : ''} ${unit.name}`;
}

/** An amount field in the unit the rule wrote it in; null when it was written in base units alone. */
export function asWritten(
  rule: TokenFacts & { asset: string; amountUnits?: Readonly<Record<string, string | undefined>> },
  field: string,
  base: string,
): string | null {
  const name = rule.amountUnits?.[field];
  const unit = name === undefined ? undefined : unitsOf(rule.asset, rule)?.find((u) => u.name === name);
  return unit ? inUnit(base, unit) : null;
}
