// Every config form the docs show is one the watcher accepts: each JSON block of the README and docs/, each
// inline rule, key and condition they write, the shipped configs, and every operator the `where` table lists.
// Read from the pages themselves, so a new example is checked as soon as it is written; a block the test
// cannot place (neither a config, a rule, an alert nor deploy settings) fails it, so nothing slips by unread.
// The "mistakes" sections show what is refused: their snippets must be refused.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseWatchConfig } from '../../lambda/config/watch-config';
import { ruleLists } from '../../lambda/core/rules/rule-lists';
import type { AnyRuleList } from '../../lambda/core/rules/rule-list';
import { OPERATORS } from '../../lambda/core/clarity/conditions';
import { watchConfigSchema } from '../../lambda/core/watch-config/watch-config-schema';
import { deployersList } from '../../docs/examples/contract-deploy';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PAGES = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
const SHIPPED = ['watch.json', 'watch.example.json', 'demo/watch.json'];
const ADDRESS = 'SP2C2YFP12AJZB4MABJBAJ55XECVS7E4PMMZ89YZR';
/** The lists a documented config may use: the shipped ones and the worked example of adding one. */
const LISTS: readonly AnyRuleList[] = [...ruleLists, deployersList];
const TOP_KEYS = new Set(Object.keys(watchConfigSchema('mainnet', LISTS).shape));
const OPERATOR_SET = new Set<string>(OPERATORS);
/** Keys of some rule: a snippet holding one is a rule, not a condition, wherever it is shown. */
const RULE_KEYS = new Set(LISTS.flatMap((list) => list.entryKeys));

/** A rule each list accepts with nothing more, to which an inline key is added. */
const BASE_RULES: Record<string, Record<string, unknown>> = {
  contractLogs: { contractId: `${ADDRESS}.vault` },
  transfers: { asset: 'stx', to: [ADDRESS] },
  calls: { contractId: `${ADDRESS}.vault` },
  balances: { address: ADDRESS, asset: 'stx', below: '50000000' },
};

interface Example {
  page: string;
  section: string;
  text: string;
}

/** `"SP…"` and `"SP….vault"` stand for any address: a real one takes their place. */
const withAddresses = (text: string) => text.replace(/"SP…(\.[^"]*)?"/g, (_m, name: string | undefined) => `"${ADDRESS}${name ?? ''}"`);

function sections(page: string): { section: string; body: string }[] {
  const text = readFileSync(join(ROOT, page), 'utf8');
  return text.split(/^(?=#{1,4} )/m).map((body) => ({ section: /^#{1,4} (.*)/.exec(body)?.[1] ?? '(top)', body }));
}

function fences(): Example[] {
  return PAGES.flatMap((page) =>
    sections(page).flatMap(({ section, body }) =>
      [...body.matchAll(/^( *)```json\n([\s\S]*?)^\1```/gm)].map((m) => ({ page, section, text: m[2]!.replace(new RegExp(`^${m[1]}`, 'gm'), '') })),
    ),
  );
}

/** Inline code that is JSON: an object `{…}` or a key and its value `"key": …`, without placeholders. */
function inlineSnippets(): Example[] {
  return PAGES.flatMap((page) =>
    sections(page).flatMap(({ section, body }) =>
      [...body.replace(/```[\s\S]*?```/g, '').matchAll(/`([{"][^`\n]*)`/g)]
        .map((m) => ({ page, section, text: m[1]! }))
        .filter(({ text }) => !text.includes('…') && parse(text.startsWith('{') ? text : `{${text}}`) !== undefined),
    ),
  );
}

function parse(text: string): unknown {
  try {
    return JSON.parse(withAddresses(text)) as unknown;
  } catch {
    return undefined;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isAlert = (v: unknown) => isObject(v) && typeof v.type === 'string' && 'key' in v;

/** Stand-ins for the rules a window names in `of`, so that a window shown alone can be checked. */
function windowTargets(value: Record<string, unknown>): Record<string, unknown[]> {
  const windows = Array.isArray(value.windows) ? value.windows.filter(isObject) : [];
  const sums = windows.filter((w) => w.sum !== undefined).map((w) => ({ ...BASE_RULES.transfers, name: w.of }));
  const counts = windows.filter((w) => w.sum === undefined).map((w) => ({ ...BASE_RULES.calls, name: w.of }));
  return { transfers: sums, calls: counts };
}

type Verdict = { kind: 'skipped'; why: string } | { kind: 'checked'; ok: boolean; problems: unknown };

function check(config: Record<string, unknown>): Verdict {
  // The shipped lists' schema is built once; the example list's only for the page that shows it.
  const result = 'deployers' in config ? parseWatchConfig(config, LISTS) : parseWatchConfig(config);
  return { kind: 'checked', ok: result.ok, problems: result.ok ? [] : result.problems };
}

/** What a JSON value from the docs is, and whether the watcher takes it. */
function verdict(value: unknown, section: string): Verdict {
  if (!isObject(value)) return { kind: 'checked', ok: false, problems: 'not an object' };
  if (isAlert(value)) return { kind: 'skipped', why: 'an alert' };
  if ('format' in value && 'cursor' in value) return { kind: 'skipped', why: 'a state file' };
  if (typeof value.$schema === 'string' && value.$schema.includes('deploy.schema')) return { kind: 'skipped', why: 'deploy settings' };
  if ('network' in value) return check(value);
  const keys = Object.keys(value);
  if (keys.every((key) => TOP_KEYS.has(key))) {
    const targets = windowTargets(value);
    return check({ network: 'mainnet', contracts: [`${ADDRESS}.vault`], ...targets, ...value });
  }
  if (/conditions|where/i.test(section) && keys.length > 0 && !keys.some((key) => RULE_KEYS.has(key)))
    return check({ network: 'mainnet', contractLogs: [{ ...BASE_RULES.contractLogs, where: conditionOf(value) }] });
  return asRule(value);
}

/** An operator object stands for the condition on some field; anything else is a `where` object already. */
const conditionOf = (value: Record<string, unknown>) => (Object.keys(value).every((key) => OPERATOR_SET.has(key)) ? { field: value } : value);

/** A rule, or one key of a rule: taken when some list accepts it (added to that list's base rule for a key). */
function asRule(value: Record<string, unknown>): Verdict {
  const whole = LISTS.map((list) => check({ network: 'mainnet', ...windowTargets({ windows: [value] }), [list.name]: [value] }));
  if (whole.some((v) => v.kind === 'checked' && v.ok)) return whole.find((v) => v.kind === 'checked' && v.ok)!;
  const keys = Object.keys(value);
  if (keys.length === 1 && keys[0] === 'where') return check({ network: 'mainnet', contractLogs: [{ ...BASE_RULES.contractLogs, ...value }] });
  const owners = Object.entries(BASE_RULES).filter(([name]) => LISTS.find((l) => l.name === name)!.entryKeys.some((k) => keys.includes(k)));
  if (owners.length === 0) {
    if (Object.keys(value).every((key) => OPERATOR_SET.has(key)))
      return check({ network: 'mainnet', contractLogs: [{ ...BASE_RULES.contractLogs, where: { field: value } }] });
    return { kind: 'skipped', why: 'no config key (alert fields)' };
  }
  // A rule that only feeds a window ("alert": false) needs a name and a window over it.
  const feeds = value.alert === false ? { name: 'fed rule' } : {};
  const windows = value.alert === false ? { windows: [{ name: 'window', of: 'fed rule', minutes: 10, count: 2 }] } : {};
  const tried = owners.map(([name, base]) => check({ network: 'mainnet', ...windows, [name]: [{ ...base, ...feeds, ...value }] }));
  return tried.find((v) => v.kind === 'checked' && v.ok) ?? tried[0]!;
}

function blockVerdicts(example: Example): Verdict[] {
  const whole = parse(example.text) ?? parse(`{${example.text}}`);
  if (whole !== undefined) return [verdict(whole, example.section)];
  const lines = example.text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map(parse);
  if (lines.every(isAlert)) return [{ kind: 'skipped', why: 'alert lines' }];
  return [{ kind: 'checked', ok: false, problems: 'not JSON the test can read' }];
}

const label = (e: Example) => `${e.page} § ${e.section}: ${e.text.slice(0, 100)}`;
const isMistakes = (e: Example) => /mistake/i.test(e.section);

describe('every config form the docs show', () => {
  it('is accepted by the watcher: each JSON block of the README and docs/', () => {
    const blocks = fences();
    expect(blocks.length).toBeGreaterThan(15);
    const verdicts = blocks.flatMap((block) => blockVerdicts(block).map((v) => [label(block), v] as const));
    expect(verdicts.filter(([, v]) => v.kind === 'checked' && !v.ok)).toEqual([]);
    expect(verdicts.filter(([, v]) => v.kind === 'checked').length).toBeGreaterThan(10);
  });

  it('is accepted by the watcher: each inline rule, key and condition, outside the pages of mistakes', () => {
    const snippets = inlineSnippets().filter((e) => !isMistakes(e));
    const verdicts = snippets.map((e) => [label(e), verdict(parse(e.text.startsWith('{') ? e.text : `{${e.text}}`), e.section)] as const);
    expect(verdicts.filter(([, v]) => v.kind === 'checked' && !v.ok)).toEqual([]);
    expect(verdicts.filter(([, v]) => v.kind === 'checked').length).toBeGreaterThan(20);
  });

  it('is refused when a page of mistakes shows it as one', () => {
    const mistakes = inlineSnippets().filter(isMistakes);
    expect(mistakes.length).toBeGreaterThan(2);
    for (const e of mistakes) {
      const v = verdict(parse(e.text.startsWith('{') ? e.text : `{${e.text}}`), e.section);
      expect(v.kind === 'checked' && !v.ok, label(e)).toBe(true);
    }
  });

  it('is accepted by the watcher: the shipped configs', () => {
    for (const path of SHIPPED) expect(parseWatchConfig(JSON.parse(readFileSync(join(ROOT, path), 'utf8'))), path).toMatchObject({ ok: true });
  });

  it('lists every where operator in the operators table, each with an example the watcher takes', () => {
    const where = sections('docs/rules-and-conditions.md').find((s) => /^Conditions/.test(s.section))!.body;
    const rows = where.split('\n').filter((line) => /^\s*\| `/.test(line));
    const documented = rows.map((row) => /^\s*\| `([^`]+)`/.exec(row)![1]!);
    expect([...documented].sort()).toEqual([...OPERATORS].sort());
    for (const row of rows) {
      const operator = /^\s*\| `([^`]+)`/.exec(row)![1]!;
      const examples = [
        ...row
          .split('|')
          .at(-2)!
          .matchAll(/`([^`]+)`/g),
      ].map((m) => parse(`{${m[1]}}`));
      expect(examples.length, row).toBeGreaterThan(0);
      for (const example of examples) {
        expect(JSON.stringify(example), row).toContain(`"${operator}"`);
        expect(check({ network: 'mainnet', contractLogs: [{ ...BASE_RULES.contractLogs, where: example }] }), row).toMatchObject({ ok: true });
      }
    }
  });
});
