// The pieces every watch-config schema is built from: messages written for the person editing watch.json,
// principals checked against the network, lists that report duplicates. Each rule list's module
// (lambda/core/alert-kinds/*-rules.ts) assembles its own fragment from these.
// zod/mini (see ../zod-mini): schemas wrap (`z.optional(x)`) and checks attach (`.check(...)`) rather than chain.
import * as z from '../../zod-mini';
import type { Network } from '../domain';
import { contractIdProblem, recipientProblem } from './stacks-principals';

/** `is required: …` for a missing value, `must be …` for a wrong one. */
export function needs(what: string) {
  return (issue: { input?: unknown }) => (issue.input === undefined ? `is required: ${what}` : `must be ${what}`);
}

export function wholeNumber(min: number, max: number) {
  const what = `a whole number from ${min} to ${max}`;
  const message = (issue: { input?: unknown }) =>
    typeof issue.input === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(issue.input) ? `must be ${what}, written without quotes` : `must be ${what}`;
  return z.int({ error: message }).check(z.minimum(min, { error: message }), z.maximum(max, { error: message }));
}

/**
 * Free text ignored by the watcher: JSON has no comments, so a `$comment` key (the JSON Schema
 * convention) may explain the file or a rule.
 */
export const comment = z.optional(z.union([z.string(), z.array(z.string())], { error: 'must be a string or a list of strings (it is a comment)' }));

export function principal(problemOf: (text: string, network: Network | null) => string | null, network: Network | null, what: string) {
  return z.string({ error: needs(what) }).check(
    z.superRefine((text, ctx) => {
      const problem = problemOf(text, network);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
  );
}

/**
 * Reports the second and later copies of an entry, each pointing at the first. It runs even when another
 * entry has the wrong type (zod would skip it then), so that every problem shows in one pass; `keyOf`
 * returns null for entries it cannot compare.
 */
export function noDuplicates(keyOf: (item: unknown) => string | null, listName: string, what: string) {
  return (items: readonly unknown[], ctx: z.core.$RefinementCtx) => {
    const firstIndex = new Map<string, number>();
    items.forEach((item, index) => {
      const key = keyOf(item);
      if (key === null) return;
      const first = firstIndex.get(key);
      if (first === undefined) firstIndex.set(key, index);
      else ctx.addIssue({ code: 'custom', path: [index], message: `repeats ${listName}[${first}] (${what}); remove one` });
    });
  };
}

export const evenWithBadEntries = { when: (payload: { value: unknown }) => Array.isArray(payload.value) };

export const sameString = (item: unknown) => (typeof item === 'string' ? item : null);

/** JSON with object keys sorted, so that `{"a":1,"b":2}` and `{"b":2,"a":1}` compare equal. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonical(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
}

/** Two rules are the same when everything but their comments is. */
export function sameJson(item: unknown): string | null {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return null;
  const { $comment: _comment, ...rule } = item as Record<string, unknown>;
  return canonical(rule);
}

/** Two rules are the same when everything but their comments is: one contract may have several rules. */
export function sameRule(item: unknown): string | null {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return null;
  const { $comment: _comment, ...rule } = item as Record<string, unknown>;
  return typeof rule.contractId === 'string' ? canonical(rule) : null;
}

/** A list of `item`, its duplicates reported by `noDuplicates`, `[]` when left out. */
export function list<T extends z.ZodMiniType>(item: T, what: string, duplicates: ReturnType<typeof noDuplicates>) {
  const array = z.array(item, { error: `must be a list [...] of ${what} (it may be empty)` });
  return z._default(array.check(z.superRefine(duplicates, evenWithBadEntries)), []);
}

/** A contract id `ADDRESS.contract-name` of `network`'s kind. */
export const contractIdSchema = (network: Network | null) => principal(contractIdProblem, network, 'a contract id "ADDRESS.contract-name" in quotes');

/** A Stacks address of `network`'s kind. */
export const recipientSchema = (network: Network | null) => principal(recipientProblem, network, 'a Stacks address in quotes');
