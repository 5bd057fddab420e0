// Packs into the rules they stand for: each "packs" entry is checked (its name, a pinned version, its own
// settings) and its rules appended to the config's lists before the config is checked as a whole, so a pack's
// rules obey every rule, ceiling and check a hand-written one does. --check shows them as JSON to copy out.
import * as z from '../../zod-mini';
import type { Network } from '../domain';
import type { ConfigProblem } from '../watch-config/config-problems';
import { formatPath, valueAt } from '../watch-config/config-problems';
import { comment } from '../watch-config/schema-parts';
import { PACK_LISTS, PACK_SECTIONS, type AnyRulePack, type PackRules } from './pack';
import { RULE_PACKS } from './registry';

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** One entry's schema: the pack's own settings beside `name`, an optional pinned `version` and a comment. */
function entrySchema(pack: AnyRulePack, network: Network | null) {
  return z.strictObject({
    ...pack.params(network).shape,
    $comment: comment,
    name: z.literal(pack.name),
    version: z.optional(z.int({ error: `must be the pack's version number, e.g. ${pack.version}` })),
  });
}

/** The "packs" key of the watch config: what editors are told (watch.schema.json) and the parse re-checks. */
export function packsSchema(network: Network | null) {
  const [first, ...rest] = RULE_PACKS.map((pack) => entrySchema(pack, network));
  return z.optional(
    z.array(z.union([first!, ...rest], { error: `must be a pack entry like {"name": "${RULE_PACKS[0]!.name}"}` }), {
      error: 'must be a list [...] of packs like {"name": "sbtc-bridge"}',
    }),
  );
}

type Checked = { ok: true; pack: AnyRulePack; params: Record<string, unknown> } | { ok: false; problems: ConfigProblem[] };

function checkEntry(input: unknown, entry: unknown, index: number, network: Network, seen: Set<string>): Checked {
  const at = (path: (string | number)[], message: string): ConfigProblem => ({
    path: formatPath(['packs', index, ...path]),
    value: valueAt(input, ['packs', index, ...path]),
    message,
  });
  if (!isRecord(entry)) return { ok: false, problems: [at([], 'must be a pack entry like {"name": "sbtc-bridge"}')] };
  const pack = RULE_PACKS.find((p) => p.name === entry.name);
  if (!pack)
    return {
      ok: false,
      problems: [at(['name'], `unknown pack ${JSON.stringify(entry.name)}: the packs are ${RULE_PACKS.map((p) => `"${p.name}"`).join(', ')}`)],
    };
  if (seen.has(pack.name)) return { ok: false, problems: [at([], `the pack "${pack.name}" is listed twice: list it once, with every setting in that entry`)] };
  seen.add(pack.name);
  if (entry.version !== undefined && entry.version !== pack.version) {
    const message = `this stacks-watch ships "${pack.name}" version ${pack.version}, not ${JSON.stringify(entry.version)}: remove "version" to take the shipped rules, or run --check with an older stacks-watch and copy the rules it shows in place of the pack`;
    return { ok: false, problems: [at(['version'], message)] };
  }
  const parsed = entrySchema(pack, network).safeParse(entry);
  if (!parsed.success) return { ok: false, problems: parsed.error.issues.map((issue) => at(issue.path as (string | number)[], issue.message)) };
  const { name: _n, version: _v, $comment: _c, ...params } = parsed.data as Record<string, unknown>;
  const sense = pack.problems?.(params, network) ?? [];
  if (sense.length > 0) return { ok: false, problems: sense.map((p) => at(p.path, p.message)) };
  return { ok: true, pack, params };
}

/**
 * A section the pack turns on, set in `out` when the config has none; one written beside it must mean the same
 * (a config that says two things is refused, naming both, rather than one silently winning).
 */
function sectionProblems(out: Record<string, unknown>, pack: AnyRulePack, rules: PackRules, index: number): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  for (const section of PACK_SECTIONS) {
    const mine = rules[section];
    if (mine === undefined) continue;
    const own = out[section];
    if (own === undefined) {
      out[section] = mine;
      continue;
    }
    // A section that is not an object is the schema's to report.
    if (!isRecord(own)) continue;
    const { $comment: _c, ...written } = own;
    const meaning = pack.meaning ?? ((s: Record<string, unknown>) => s);
    if (JSON.stringify(meaning(written)) === JSON.stringify(meaning(mine))) continue;
    const message = `the pack "${pack.name}" stands for "${section}": ${JSON.stringify(mine)}, but the config's "${section}" says ${JSON.stringify(written)}: keep one of the two, or make them say the same`;
    problems.push({ path: formatPath(['packs', index]), value: Array.isArray(out.packs) ? out.packs[index] : undefined, message });
  }
  return problems;
}

/** The config with every pack's rules appended to its lists, or the problems of its pack entries. */
export function expandPacks(input: unknown, network: Network | null): { ok: true; input: unknown } | { ok: false; problems: ConfigProblem[] } {
  if (!isRecord(input) || input.packs === undefined || network === null) return { ok: true, input };
  if (!Array.isArray(input.packs))
    return { ok: false, problems: [{ path: '$.packs', value: input.packs, message: 'must be a list [...] of packs like {"name": "sbtc-bridge"}' }] };
  const seen = new Set<string>();
  const problems: ConfigProblem[] = [];
  const out: Record<string, unknown> = { ...input };
  input.packs.forEach((entry, index) => {
    const checked = checkEntry(input, entry, index, network, seen);
    if (!checked.ok) return void problems.push(...checked.problems);
    const rules = checked.pack.expand(checked.params, network);
    for (const list of PACK_LISTS) {
      const own = out[list] ?? [];
      // A list that is not a list is the schema's to report; the pack adds nothing to it.
      if (Array.isArray(own) && (rules[list] ?? []).length > 0) out[list] = [...own, ...rules[list]!];
    }
    problems.push(...sectionProblems(out, checked.pack, rules, index));
  });
  return problems.length > 0 ? { ok: false, problems } : { ok: true, input: out };
}

/** --check's words for each pack: what it stands for, as JSON that can replace its entry. */
export function describePacks(config: { network: Network; packs?: readonly unknown[] }): string[] {
  const lines: string[] = [];
  (config.packs ?? []).forEach((entry, index) => {
    const checked = checkEntry(config, entry, index, config.network, new Set());
    if (!checked.ok) return;
    const rules: PackRules = checked.pack.expand(checked.params, config.network);
    const lists = PACK_LISTS.filter((list) => (rules[list] ?? []).length > 0);
    const sections = PACK_SECTIONS.filter((section) => rules[section] !== undefined);
    const kept = Object.fromEntries([...lists, ...sections].map((key) => [key, rules[key]]));
    const parts = [...lists.map((list) => `${rules[list]!.length} ${list} rules`), ...sections.map((section) => `the ${section} section`)];
    const them = lists.length === 0 && sections.length === 1 ? 'it' : 'them';
    lines.push(
      `- pack ${checked.pack.name} v${checked.pack.version}: ${parts.join(', ')}; to edit ${them}, replace the pack entry with:`,
      JSON.stringify(kept, null, 2),
    );
  });
  return lines;
}
