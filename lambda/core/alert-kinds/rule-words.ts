// How `--check` words a rule list (lambda/local/describe.ts gathers them): shared by every list's module.
import type { RuleMetaConfig } from '../rule-meta';
import { formatCount } from '../render/stx-amount';

/**
 * A list longer than this is shown by its first LIST_SHOWN items and a count: `--check` of a config with
 * 100,000 addresses printed 112,007 lines, and nobody reads past the first screen.
 */
export const LIST_SHOWN_MAX = 10;
export const LIST_SHOWN = 5;

/** `A, B, C`, or `A, B, C, D, E and 99,995 more` for a long list. */
export function someOf(items: readonly string[]): string {
  if (items.length <= LIST_SHOWN_MAX) return items.join(', ');
  return `${items.slice(0, LIST_SHOWN).join(', ')} and ${formatCount(items.length - LIST_SHOWN)} more`;
}

/** One item a line (indented), the first few of a long list and `… and N more`. */
export function itemLines(items: readonly string[]): string[] {
  if (items.length <= LIST_SHOWN_MAX) return items.map((i) => `    ${i}`);
  return [...items.slice(0, LIST_SHOWN).map((i) => `    ${i}`), `    … and ${formatCount(items.length - LIST_SHOWN)} more`];
}

export function plural(n: number, noun: string): string {
  if (n === 1) return `1 ${noun}`;
  return `${n} ${noun.endsWith('ss') ? noun + 'es' : noun + 's'}`;
}

/** `, named "Treasury inflow", critical` for a rule that says either; nothing for the defaults. */
export function ruleWords(meta: RuleMetaConfig | undefined): string {
  if (!meta || (meta.name === undefined && meta.severity === undefined)) return '';
  return [meta.name === undefined ? '' : `, named "${meta.name}"`, meta.severity === undefined ? '' : `, ${meta.severity}`].join('');
}

/** A list of bare ids: `- what 2 nouns (effect):` and one id a line, or `- no nouns (what)`. */
export function bareListWords(what: string, items: readonly string[], noun: string, effect: string): string {
  if (items.length === 0) return `- no ${noun === 'address' ? 'addresses' : `${noun}s`} (${what})`;
  const count = plural(items.length, noun).replace(/^\d+/, formatCount(items.length));
  return [`- ${what} ${count} (${effect}):`, ...itemLines(items)].join('\n');
}
