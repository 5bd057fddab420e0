// How a watch-config problem is named and shown: a JSON path a user can find in the file, the value that
// was there, and what to do about it.

export interface ConfigProblem {
  /** JSONPath-like location, e.g. `$.addresses[3]` or `$.contractLogs[0].contractId`; `$` is the whole file. */
  path: string;
  /** The offending value as found (undefined when the key is missing). */
  value: unknown;
  message: string;
}

/**
 * A number past 2^53 has lost digits by the time the file is parsed (JSON numbers are doubles), so the
 * watcher cannot know what was meant: only quotes keep every digit.
 */
export const TOO_BIG_FOR_A_JSON_NUMBER =
  'is too big for a JSON number (its last digits are lost when the file is read): write it in quotes, e.g. "100000000000000000000"';

export const isUnsafeInteger = (value: unknown): boolean => typeof value === 'number' && Number.isInteger(value) && !Number.isSafeInteger(value);

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

export function formatPath(segments: readonly PropertyKey[]): string {
  let path = '$';
  for (const segment of segments) {
    if (typeof segment === 'number') path += `[${segment}]`;
    else if (typeof segment === 'string' && IDENTIFIER.test(segment)) path += `.${segment}`;
    else path += `[${JSON.stringify(String(segment))}]`;
  }
  return path;
}

/** The value found at `segments` in `root`, or undefined where the path leads nowhere. */
export function valueAt(root: unknown, segments: readonly PropertyKey[]): unknown {
  let current: unknown = root;
  for (const segment of segments) {
    if (typeof current !== 'object' || current === null || typeof segment === 'symbol') return undefined;
    current = (current as Record<string | number, unknown>)[segment];
  }
  return current;
}

const MAX_VALUE_CHARS = 60;

/** A short one-line rendering of a config value; JSON escapes keep control characters visible. */
export function describeValue(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS - 3)}...` : text;
}

/** One line per problem, under a header that names the file. */
export function formatConfigProblems(problems: readonly ConfigProblem[], source: string): string {
  const count = problems.length === 1 ? '1 problem' : `${problems.length} problems`;
  const lines = problems.map((p) => `  ${p.path}: ${p.message}${p.value === undefined ? '' : ` (found: ${describeValue(p.value)})`}`);
  return [`${source}: ${count} in the watch config:`, ...lines].join('\n');
}

export class WatchConfigError extends Error {
  readonly problems: ConfigProblem[];
  readonly source: string;

  constructor(problems: ConfigProblem[], source: string) {
    super(formatConfigProblems(problems, source));
    this.name = 'WatchConfigError';
    this.problems = problems;
    this.source = source;
  }
}
