// Reading and validating the watch config (watch.json). Every problem in the file is reported at once, each
// with its JSON path and the bad value, so that one edit fixes them all.
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type * as z from '../zod-mini';
import { ASSET_ACTIONS, type Network } from '../core/domain';
import { type WatchConfig } from '../core/watch-config/watch-config-schema';
import type { WhereSpec } from '../core/clarity/conditions';
import { ruleLists } from '../core/rules/rule-lists';
import type { AnyRuleList } from '../core/rules/rule-list';
import { type ConfigProblem, WatchConfigError, formatPath, valueAt } from '../core/watch-config/config-problems';
import { pickRuleMeta } from '../core/watch-config/rule-meta-schema';
import { jsonMistakes } from '../core/watch-config/json-mistakes';
import { expandPacks } from '../core/packs';
import { windowProblems } from '../core/watch-config/window-checks';
import { sbtcLifecycleProblems } from '../core/watch-config/sbtc-lifecycle-schema';
import { bytesProblem, configCeilings, countProblems, nestingProblem, tokensProblem, type ConfigCeilings } from '../core/watch-config/config-ceilings';
import { allowedKeys, NETWORKS, watchConfigSchema, type WatchConfigSchema } from '../core/watch-config/watch-config-schema';

export { type ConfigProblem, WatchConfigError, formatConfigProblems } from '../core/watch-config/config-problems';

export type { WatchConfig } from '../core/watch-config/watch-config-schema';

export type ConfigResult = { ok: true; config: WatchConfig } | { ok: false; problems: ConfigProblem[] };

/**
 * One schema per network the file may name, and one for a file whose network is itself invalid, each built
 * on first use: a run reads one config, so the others would only lengthen the Lambda's cold start.
 */
const schemas = new Map<Network | null, WatchConfigSchema>();

function schemaFor(network: Network | null, lists: readonly AnyRuleList[]): WatchConfigSchema {
  // Lists other than the shipped ones (a kind being tried out) are not worth caching.
  if (lists !== ruleLists) return watchConfigSchema(network, lists);
  let schema = schemas.get(network);
  if (!schema) {
    schema = watchConfigSchema(network);
    schemas.set(network, schema);
  }
  return schema;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function declaredNetwork(input: unknown): Network | null {
  const network = isRecord(input) ? input.network : undefined;
  return NETWORKS.find((n) => n === network) ?? null;
}

/** Edit distance, for "did you mean": small enough that a dependency would not earn its place. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min(substitution, (previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/** Keys people write when they mean a comment: "//", "#…", "_comment", "note", "description"… */
const COMMENT_LIKE = /^(\/\/|#)|^[_$@-]*(comments?|notes?|desc|description|remarks?)$/i;

function unknownKeyMessage(key: string, allowed: readonly string[]): string {
  if (COMMENT_LIKE.test(key) && key !== '$comment') {
    return `unknown key "${key}": JSON has no comments; to leave one, use "$comment" (a string or a list of strings), which stacks-watch ignores`;
  }
  const near = allowed.find((k) => k.toLowerCase() === key.toLowerCase() || editDistance(k, key) <= 2);
  const hint = near ? `did you mean "${near}"? ` : '';
  return `unknown key "${key}": ${hint}allowed keys are ${allowed.map((k) => `"${k}"`).join(', ')}`;
}

function toProblems(issues: readonly z.core.$ZodIssue[], input: unknown, schema: { shape: object }, lists: readonly AnyRuleList[]): ConfigProblem[] {
  return issues.flatMap((issue): ConfigProblem[] => {
    if (issue.code === 'unrecognized_keys') {
      const keys = allowedKeys(schema, lists);
      const allowed = issue.path.length === 0 ? keys.top : (keys.byKey.get(String(issue.path[0])) ?? keys.top);
      return issue.keys.map((key) => {
        const path = [...issue.path, key];
        return { path: formatPath(path), value: valueAt(input, path), message: unknownKeyMessage(key, allowed) };
      });
    }
    return [{ path: formatPath(issue.path), value: valueAt(input, issue.path), message: issue.message }];
  });
}

/** Not a shape rule but a sense rule, checked on the raw input so it is reported beside the others. */
function nothingToWatch(input: unknown, lists: readonly AnyRuleList[]): ConfigProblem[] {
  if (!isRecord(input)) return [];
  const names = lists.filter((list) => !list.aggregate).map((list) => list.name);
  const allEmpty = names.every((key) => input[key] === undefined || (Array.isArray(input[key]) && input[key].length === 0));
  // A chainHealth section is something to watch: the watcher then follows the chain for its health only; an
  // sbtcLifecycle section too: the scan then reads the sbtc-registry's prints for the tracker alone.
  if (!allEmpty || isRecord(input.chainHealth) || isRecord(input.sbtcLifecycle)) return [];
  const quoted = names.map((name) => `"${name}"`);
  const named = quoted.length === 1 ? quoted[0] : `${quoted.slice(0, -1).join(', ')} and ${quoted.at(-1)}`;
  return [
    {
      path: '$',
      value: Object.fromEntries(names.map((key) => [key, input[key]])),
      message: `nothing to watch: ${named} ${quoted.length === 1 ? 'is' : 'are all'} empty or missing; add at least one entry (or a "chainHealth" section to watch only the chain's health)`,
    },
  ];
}

/**
 * Validates an already-parsed JSON value against the shipped rule lists, or `lists` when given (the config
 * then also holds their keys, each list reading its own), within the ceilings of a function of the default
 * memory unless others are given. Depth and counts first: the checks after them recurse and allocate per entry.
 */
export function parseWatchConfig(raw: unknown, lists: readonly AnyRuleList[] = ruleLists, ceilings: ConfigCeilings = configCeilings()): ConfigResult {
  const tooDeep = nestingProblem(raw);
  if (tooDeep) return { ok: false, problems: [tooDeep] };
  // Packs first: their rules then count against the ceilings and obey every check a hand-written rule does.
  const expanded = expandPacks(raw, declaredNetwork(raw));
  if (!expanded.ok) return { ok: false, problems: expanded.problems };
  const input = expanded.input;
  const tooMany = countProblems(
    input,
    ceilings,
    lists.map((list) => list.name),
  );
  if (tooMany.length > 0) return { ok: false, problems: tooMany };
  const schema = schemaFor(declaredNetwork(input), lists);
  const parsed = schema.safeParse(input);
  const problems = [...(parsed.success ? [] : toProblems(parsed.error.issues, input, schema, lists)), ...nothingToWatch(input, lists)];
  if (problems.length > 0 || !parsed.success) return { ok: false, problems };
  const { $comment: _comment, $schema: _schema, ...config } = parsed.data;
  const windows = windowProblems(config, lists);
  if (windows.length > 0) return { ok: false, problems: windows };
  const sbtc = sbtcLifecycleProblems(config);
  if (sbtc.length > 0) return { ok: false, problems: sbtc };
  return { ok: true, config };
}

/**
 * A config that watches nothing, every setting at its default: the base code that builds a config spreads
 * (tests, benchmarks), so that a new rule list needs no change there.
 */
export function emptyWatchConfig(network: Network): WatchConfig {
  const { $comment: _comment, $schema: _schema, ...config } = schemaFor(network, ruleLists).parse({ network });
  return config;
}

/** Line and column (1-based) of a character offset, for editors that jump to `line:column`. */
function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}

/** Parses JSON text within the ceilings, not yet validated; a syntax error becomes one problem naming `source` and the position. */
export function readWatchConfigJson(
  text: string,
  source: string,
  ceilings: ConfigCeilings = configCeilings(),
): { ok: true; input: unknown } | { ok: false; problems: ConfigProblem[] } {
  // The length, then the tokens, before the parse: a text the heap cannot hold parsed is never parsed.
  const tooLong = bytesProblem(Buffer.byteLength(text, 'utf8'), ceilings, source) ?? tokensProblem(text, ceilings, source);
  if (tooLong) return { ok: false, problems: [tooLong] };
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text; // editors on Windows may save a BOM
  if (body.trim() === '') {
    return {
      ok: false,
      problems: [{ path: '$', value: undefined, message: `${source} is empty; it must hold a JSON object (see watch.example.json)` }],
    };
  }
  let input: unknown;
  try {
    input = JSON.parse(body);
  } catch (error) {
    return { ok: false, problems: syntaxProblems(body, source, error) };
  }
  return { ok: true, input };
}

/**
 * Parses JSON text and validates it; a syntax error becomes one problem naming `source` and the position.
 * `ceilings`: those of the function that will run it (the default memory's unless given).
 */
export function parseWatchConfigText(text: string, source: string, ceilings: ConfigCeilings = configCeilings()): ConfigResult {
  const read = readWatchConfigJson(text, source, ceilings);
  return read.ok ? parseWatchConfig(read.input, ruleLists, ceilings) : read;
}

/**
 * Where JSON text went wrong: each comment and trailing comma at its own line, in words; otherwise the
 * parser's message, on one line (it quotes the text around the error, line breaks and all).
 */
export function syntaxProblems(body: string, source: string, error: unknown): ConfigProblem[] {
  const lineText = (line: number) => body.split('\n')[line - 1]?.trim() ?? '';
  const mistakes = jsonMistakes(body);
  if (mistakes.length > 0) {
    return mistakes.map(({ kind, line }) => ({
      path: '$',
      value: lineText(line),
      message:
        kind === 'trailing comma'
          ? `${source} has a trailing comma at line ${line}: JSON allows no comma after the last entry; remove it`
          : `${source} has a comment at line ${line}: JSON has no comments; use "$comment": "…" (a string or a list of strings), which stacks-watch ignores`,
    }));
  }
  const reason = (error instanceof Error ? error.message : String(error)).replace(/\s*\(line \d+ column \d+\)/, '').replace(/\s+/g, ' ');
  const position = /at position (\d+)/.exec(reason);
  const { line, column } = lineAndColumn(body, position ? Number(position[1]) : body.length);
  return [{ path: '$', value: lineText(line), message: `${source} is not valid JSON at line ${line}, column ${column}: ${reason}` }];
}

function readProblem(path: string, error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const absolute = resolve(path);
  if (code === 'ENOENT') return `${absolute} does not exist; create it (copy watch.example.json) or point the watcher at another file`;
  if (code === 'EISDIR') return `${absolute} is a directory; point the watcher at the watch config file itself`;
  if (code === 'EACCES' || code === 'EPERM') return `${absolute} cannot be read (permission denied); check its permissions`;
  return `${absolute} cannot be read: ${error instanceof Error ? error.message : String(error)}`;
}

/** Reads and validates a watch config file; throws WatchConfigError for every way it can fail. */
export async function loadWatchConfigFile(path: string, prepare?: (input: unknown) => Promise<unknown>): Promise<WatchConfig> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new WatchConfigError([{ path: '$', value: undefined, message: readProblem(path, error) }], path);
  }
  const read = readWatchConfigJson(text, path);
  if (!read.ok) throw new WatchConfigError(read.problems, path);
  // `prepare` adds what the file leaves to be read elsewhere (token decimals), or throws WatchConfigError.
  const result = parseWatchConfig(prepare ? await prepare(read.input) : read.input);
  if (!result.ok) throw new WatchConfigError(result.problems, path);
  return result.config;
}
