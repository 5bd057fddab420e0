// A token's decimals from its metadata: a rule that writes an amount in a token's unit ("5 ALEX") needs them
// to read it, and when neither the rule (`decimals`) nor the shipped table (KNOWN_TOKENS) gives them, the
// runner reads them once from the token metadata API and keeps them for ever (a SIP-010 token's decimals are
// a constant of its contract). This is the pure part: which tokens need reading, and the raw config with what
// was read added to those rules, before it is validated, so that the schema, `--check` and alerts read it
// like a rule that gave `decimals` and `symbol` itself.
import { amountText, KNOWN_TOKENS } from './amounts';

/** What the metadata says of a token: its decimals, and its symbol when it has a usable one. */
export interface TokenMetadata {
  decimals: number;
  symbol?: string;
}

/** The amount fields a rule with an `asset` may write with a unit. */
const AMOUNT_FIELDS = ['minAmount', 'below', 'above'] as const;

type RawRule = Record<string, unknown>;

const isRule = (value: unknown): value is RawRule => typeof value === 'object' && value !== null && !Array.isArray(value);

const hasUnit = (value: unknown): boolean => {
  const text = amountText(value);
  return typeof text !== 'string' && text.unit !== null;
};

/** A token whose decimals no one gave: an asset id, not in the table, with no `decimals` in the rule. */
function unscaledToken(rule: RawRule): string | null {
  const asset = rule.asset;
  if (typeof asset !== 'string' || asset === 'stx' || asset === '*' || !asset.includes('::')) return null;
  return rule.decimals === undefined && KNOWN_TOKENS[asset] === undefined ? asset : null;
}

/** Every rule of every list in the raw config (windows aside), with the list it is in. */
function rawRules(raw: Readonly<Record<string, unknown>>): RawRule[] {
  return Object.entries(raw)
    .filter(([key, value]) => key !== 'windows' && Array.isArray(value))
    .flatMap(([, value]) => (value as unknown[]).filter(isRule));
}

/**
 * The tokens whose decimals must be read before the config can be: each rule's asset when the rule writes a
 * unit in an amount field, or a sum window's `atLeast` with a unit adds it up, and no decimals are known.
 */
export function tokensNeedingDecimals(raw: unknown): string[] {
  if (!isRule(raw)) return [];
  const rules = rawRules(raw);
  const summedWithUnit = new Set((Array.isArray(raw.windows) ? raw.windows : []).filter((w): w is RawRule => isRule(w) && hasUnit(w.atLeast)).map((w) => w.of));
  const needed = rules
    .filter((rule) => AMOUNT_FIELDS.some((field) => hasUnit(rule[field])) || (rule.name !== undefined && summedWithUnit.has(rule.name)))
    .map(unscaledToken)
    .filter((asset): asset is string => asset !== null);
  return [...new Set(needed)];
}

/**
 * The raw config with `decimals` (and `symbol`, when the rule has none) added to each rule whose token needs
 * them and `metadata` knows; the input is not changed. A token left out stays as it was, and its rule is then
 * refused by the schema, naming the fix.
 */
export function withTokenDecimals(raw: unknown, metadata: ReadonlyMap<string, TokenMetadata>): unknown {
  if (!isRule(raw) || metadata.size === 0) return raw;
  const needed = new Set(tokensNeedingDecimals(raw));
  const fill = (rule: unknown): unknown => {
    if (!isRule(rule)) return rule;
    const asset = unscaledToken(rule);
    const read = asset !== null && needed.has(asset) ? metadata.get(asset) : undefined;
    if (read === undefined) return rule;
    return { ...rule, decimals: read.decimals, ...(rule.symbol === undefined && read.symbol !== undefined ? { symbol: read.symbol } : {}) };
  };
  return Object.fromEntries(Object.entries(raw).map(([key, value]) => [key, key !== 'windows' && Array.isArray(value) ? value.map(fill) : value]));
}

/** Decimals that read any written fraction, to check a config before a token's real ones are known: never run with. */
const UNREAD_DECIMALS = 38;

/**
 * The raw config checked as far as it can be before `assets`' decimals are read (an offline check): each
 * token given decimals that read any fraction written, and the unit its rules write as its symbol, so that
 * everything else is validated, and a unit that is not the rule's asset's is still refused.
 */
export function withDecimalsToRead(raw: unknown, assets: readonly string[]): unknown {
  const tokens = new Map<string, TokenMetadata>();
  for (const asset of assets) {
    const unit = writtenUnit(raw, asset);
    tokens.set(asset, { decimals: UNREAD_DECIMALS, ...(unit !== undefined ? { symbol: unit } : {}) });
  }
  return withTokenDecimals(raw, tokens);
}

/** The first unit a rule of `asset` writes an amount in ("5 ALEX" → `ALEX`), to check a config before its decimals are read. */
export function writtenUnit(raw: unknown, asset: string): string | undefined {
  if (!isRule(raw)) return undefined;
  for (const rule of rawRules(raw).filter((r) => r.asset === asset)) {
    for (const field of AMOUNT_FIELDS) {
      const text = amountText(rule[field]);
      if (typeof text !== 'string' && text.unit !== null) return text.unit;
    }
  }
  return undefined;
}
