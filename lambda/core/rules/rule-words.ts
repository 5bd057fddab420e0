// How `--check` words a rule list (lambda/local/describe.ts gathers them): shared by every list's module.
import type { RuleMetaConfig } from '../stages/rule-meta';
import { formatCount } from '../render/stx-amount';

export function plural(n: number, noun: string): string {
  if (n === 1) return `1 ${noun}`;
  return `${n} ${noun.endsWith('ss') ? noun + 'es' : noun + 's'}`;
}

/**
 * `, named "Treasury inflow", critical, a 30-minute cooldown, muted until 2026-11-26T06:00:00Z` for a rule
 * that says any of them; nothing for the defaults.
 */
export function ruleWords(meta: RuleMetaConfig | undefined): string {
  if (!meta) return '';
  return [
    meta.name === undefined ? '' : `, named "${meta.name}"`,
    meta.severity === undefined ? '' : `, ${meta.severity}`,
    meta.cooldownMinutes === undefined ? '' : `, ${cooldownWords(meta.cooldownMinutes)}`,
    meta.mutedUntil === undefined ? '' : `, muted until ${meta.mutedUntil} (block time)`,
  ].join('');
}

/** `a 30-minute cooldown (one alert, then one summary of what followed)`. */
export function cooldownWords(minutes: number): string {
  return `a ${minutes}-minute cooldown (one alert, then one summary of the matches within ${minutes} min of block time)`;
}

/** How many entries of a list `--check` shows: a list of 100,000 addresses is summed up, not printed whole. */
export const CHECK_LIST_SHOWN = 20;
/** How many principals a rule's line names before counting the rest: a line is read at a glance. */
export const INLINE_SHOWN = 5;

/** `A, B, C`, or `A, B, C, D, E and 49,995 more` for a rule listing many principals on its one line. */
export function someOf(items: readonly string[]): string {
  if (items.length <= INLINE_SHOWN) return items.join(', ');
  return `${items.slice(0, INLINE_SHOWN).join(', ')} and ${formatCount(items.length - INLINE_SHOWN)} more`;
}

/** How many principals a rule's name names in a message before counting the rest. */
const NAME_SHOWN = 3;

/** `A, B, C and 97 more` from a default name's comma-joined principals, each whole. */
export function principalsWords(joined: string): string {
  const items = joined.split(',').filter(Boolean);
  if (items.length <= NAME_SHOWN) return items.join(', ');
  return `${items.slice(0, NAME_SHOWN).join(', ')} and ${formatCount(items.length - NAME_SHOWN)} more`;
}

/** `STX`, `any asset`, or the asset id whole. */
export function assetWords(asset: string): string {
  return asset === 'stx' ? 'STX' : asset === '*' ? 'any asset' : asset;
}

/** The first entries a line each, then `… and 99,980 more addresses`. */
export function summarised(lines: readonly string[], noun: string): string[] {
  if (lines.length <= CHECK_LIST_SHOWN) return [...lines];
  const more = lines.length - CHECK_LIST_SHOWN;
  return [...lines.slice(0, CHECK_LIST_SHOWN), `    … and ${formatCount(more)} more ${more === 1 ? noun : noun === 'address' ? 'addresses' : `${noun}s`}`];
}

/** A list of bare ids: `- what 2 nouns (effect):` and one id a line, or `- no nouns (what)`. */
export function bareListWords(what: string, items: readonly string[], noun: string, effect: string): string {
  if (items.length === 0) return `- no ${noun === 'address' ? 'addresses' : `${noun}s`} (${what})`;
  return [
    `- ${what} ${plural(items.length, noun)} (${effect}):`,
    ...summarised(
      items.map((i) => `    ${i}`),
      noun,
    ),
  ].join('\n');
}
