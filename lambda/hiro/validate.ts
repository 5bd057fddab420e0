// Turns a raw answer body into a typed value, or into a message naming exactly what drifted:
// `results[4].tx_id: expected string, got number`.
import type * as z from '../zod-mini';

export type BodyCheck<T> = { ok: true; value: T } | { ok: false; problem: string };

/** How many of zod's issues a message lists; the first few are enough to see the drift. */
const ISSUES_SHOWN = 3;

export function checkBody<T>(schema: z.ZodMiniType<T>, body: unknown): BodyCheck<T> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return { ok: true, value: parsed.data };
  const issues = parsed.error.issues;
  const shown = issues.slice(0, ISSUES_SHOWN).map((issue) => describeIssue(issue, body));
  const more = issues.length > ISSUES_SHOWN ? ` (and ${issues.length - ISSUES_SHOWN} more)` : '';
  return { ok: false, problem: `${shown.join('; ')}${more}` };
}

export function parseJson(text: string): { ok: true; value: unknown } | { ok: false; problem: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    const start = text.trimStart().slice(0, 40).replace(/\s+/g, ' ');
    const what = start.startsWith('<') ? 'an HTML page' : text.trim() === '' ? 'an empty body' : 'invalid JSON';
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, problem: `expected a JSON body, got ${what} (starts "${start}"; ${reason})` };
  }
}

function describeIssue(issue: z.core.$ZodIssue, body: unknown): string {
  const path = formatPath(issue.path);
  const where = path === '' ? 'body' : path;
  if (issue.code === 'invalid_type') {
    const actual = valueAt(body, issue.path);
    if (actual === undefined) return `${where}: missing (expected ${issue.expected})`;
    return `${where}: expected ${issue.expected}, got ${kindOf(actual)}`;
  }
  // zod's own wording for everything else ("Too small: expected number to be >=0").
  return `${where}: ${issue.message}`;
}

/** `results[4].tx_id`; keys that are not identifiers (contract ids, tx ids) in brackets. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else if (typeof key === 'string' && /^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) out += out === '' ? key : `.${key}`;
    else out += `[${JSON.stringify(String(key))}]`;
  }
  return out;
}

function valueAt(body: unknown, path: readonly PropertyKey[]): unknown {
  let current: unknown = body;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number' && !Number.isInteger(value)) return `number ${value}`;
  return typeof value;
}

/**
 * Whether a 400 is the API's schema validation refusing the request's shape (Fastify's FST_ERR_VALIDATION,
 * `querystring/limit must be <= 50`), as opposed to a value it does not know.
 */
export function isMalformedRequest(text: string): boolean {
  const json = parseJson(text);
  if (!json.ok || !json.value || typeof json.value !== 'object') return false;
  const { code, message } = json.value as { code?: unknown; message?: unknown };
  return code === 'FST_ERR_VALIDATION' || (typeof message === 'string' && /^(querystring|params|body|headers)\//.test(message));
}
