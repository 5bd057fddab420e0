// What two watch configs differ in, in words: per rule list (from the registry, so a new list needs nothing
// here) rules added, removed or changed by name, ids added and removed as counts; then every other setting.
import { ruleLists } from '../../lambda/core/rules/rule-lists';
import { describeValue } from '../../lambda/core/watch-config/config-problems';

type Json = Record<string, unknown>;

const IGNORED = new Set(['$schema', '$comment']);
const NAMED_SHOWN = 5;

function withoutComments(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutComments);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== '$comment')
      .map(([key, v]) => [key, withoutComments(v)]),
  );
}

const same = (a: unknown, b: unknown) => JSON.stringify(withoutComments(a)) === JSON.stringify(withoutComments(b));
const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

function named(items: readonly string[]): string {
  const shown = items.slice(0, NAMED_SHOWN).join(', ');
  return items.length > NAMED_SHOWN ? `${shown} and ${items.length - NAMED_SHOWN} more` : shown;
}

/** A rule's identity: its name, else what it says (its JSON without comments). */
function ruleLabel(rule: unknown): string {
  const name = typeof rule === 'object' && rule !== null ? (rule as Json).name : undefined;
  return typeof name === 'string' ? `"${name}"` : describeValue(withoutComments(rule));
}

function listLines(list: string, before: unknown[], after: unknown[]): string[] {
  const lines: string[] = [];
  if ([...before, ...after].every((entry) => typeof entry === 'string')) {
    const was = new Set(before as string[]);
    const now = new Set(after as string[]);
    const added = [...now].filter((id) => !was.has(id));
    const removed = [...was].filter((id) => !now.has(id));
    if (added.length > 0) lines.push(`${list}: ${plural(added.length, 'entry')} added (${named(added)})`.replace('entrys', 'entries'));
    if (removed.length > 0) lines.push(`${list}: ${plural(removed.length, 'entry')} removed (${named(removed)})`.replace('entrys', 'entries'));
    return lines;
  }
  const nameOf = (rule: unknown) =>
    typeof rule === 'object' && rule !== null && typeof (rule as Json).name === 'string' ? ((rule as Json).name as string) : undefined;
  const unmatched = [...before];
  const added: unknown[] = [];
  const changed: string[] = [];
  for (const rule of after) {
    const exact = unmatched.findIndex((old) => same(old, rule));
    if (exact >= 0) {
      unmatched.splice(exact, 1);
      continue;
    }
    const byName = nameOf(rule) === undefined ? -1 : unmatched.findIndex((old) => nameOf(old) === nameOf(rule));
    if (byName >= 0) {
      unmatched.splice(byName, 1);
      changed.push(ruleLabel(rule));
    } else added.push(rule);
  }
  for (const rule of added) lines.push(`${list}: rule added: ${ruleLabel(rule)}`);
  for (const rule of unmatched) lines.push(`${list}: rule removed: ${ruleLabel(rule)}`);
  for (const label of changed) lines.push(`${list}: rule changed: ${label}`);
  return lines;
}

/** One line per difference, `before` (the live version) to `after` (the file); empty when they watch the same. */
export function describeConfigDiff(before: Json, after: Json): string[] {
  const lists = new Set<string>(ruleLists.map((list) => list.name));
  const lines = ruleLists.flatMap((list) => {
    const was = Array.isArray(before[list.name]) ? (before[list.name] as unknown[]) : [];
    const now = Array.isArray(after[list.name]) ? (after[list.name] as unknown[]) : [];
    return listLines(list.name, was, now);
  });
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((key) => !IGNORED.has(key) && !lists.has(key));
  for (const key of keys) {
    if (same(before[key], after[key])) continue;
    if (before[key] === undefined) lines.push(`${key}: set to ${describeValue(after[key])}`);
    else if (after[key] === undefined) lines.push(`${key}: removed (was ${describeValue(before[key])})`);
    else lines.push(`${key}: ${describeValue(before[key])} → ${describeValue(after[key])}`);
  }
  return lines;
}
