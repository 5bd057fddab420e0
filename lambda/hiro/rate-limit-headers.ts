// Reading what Hiro's gateway says about our request budget. An answer may describe several windows at once:
// the generic `ratelimit-*` trio (whatever window the gateway counts in, which may be seconds), and the
// `x-ratelimit-*-stacks-minute` and `-second` pairs. Each is a separate budget and each must be respected.
import type { HeaderReader } from './http-get';

/** One budget the gateway counts against: what is left of it and when it refills. */
export interface RateWindow {
  /** `generic`, `minute` or `second`: for the logs, and so a newer answer replaces an older one. */
  name: RateWindowName;
  limit: number | null;
  remaining: number;
  /** When the window refills, epoch ms; null when the answer did not say. */
  resetAtMs: number | null;
  /** The window's length, for when no reset is given: a fixed window refills within this long. */
  lengthMs: number;
}

export type RateWindowName = 'generic' | 'minute' | 'second';

/** A reset value above this is epoch seconds; below, seconds from now. */
const EPOCH_SECONDS_THRESHOLD = 1e9;
const MINUTE_MS = 60_000;
const SECOND_MS = 1_000;

/** Every window the answer's headers describe (none when it sent no rate-limit headers). */
export function readRateWindows(headers: HeaderReader, nowMs: number): RateWindow[] {
  const windows: RateWindow[] = [];
  const genericLimit = numberHeader(headers, 'ratelimit-limit');
  const genericRemaining = numberHeader(headers, 'ratelimit-remaining');
  const reset = numberHeader(headers, 'ratelimit-reset');
  const resetAtMs = reset === null ? null : reset > EPOCH_SECONDS_THRESHOLD ? reset * 1000 : nowMs + reset * 1000;
  if (genericRemaining !== null) {
    windows.push({
      name: 'generic',
      limit: genericLimit,
      remaining: genericRemaining,
      resetAtMs,
      lengthMs: windowParameterMs(headers) ?? MINUTE_MS,
    });
  }
  const minuteRemaining = numberHeader(headers, 'x-ratelimit-remaining-stacks-minute');
  if (minuteRemaining !== null) {
    const limit = numberHeader(headers, 'x-ratelimit-limit-stacks-minute');
    // The minute pair has no reset of its own; the generic reset is its reset when both count the same budget.
    const sameBudget = genericRemaining === null || (limit !== null && limit === genericLimit);
    windows.push({ name: 'minute', limit, remaining: minuteRemaining, resetAtMs: sameBudget ? resetAtMs : null, lengthMs: MINUTE_MS });
  }
  const secondRemaining = numberHeader(headers, 'x-ratelimit-remaining-stacks-second');
  if (secondRemaining !== null) {
    const limit = numberHeader(headers, 'x-ratelimit-limit-stacks-second');
    windows.push({ name: 'second', limit, remaining: secondRemaining, resetAtMs: null, lengthMs: SECOND_MS });
  }
  return windows;
}

/** `retry-after` as a wait in ms: delta seconds or an HTTP date. Null when absent or unreadable. */
export function readRetryAfterMs(headers: HeaderReader, nowMs: number): number | null {
  const raw = headers.get('retry-after')?.trim();
  if (!raw) return null;
  if (/^\d+(\.\d+)?$/.test(raw)) return Number(raw) * 1000;
  const date = Date.parse(raw);
  if (Number.isNaN(date)) return null;
  return Math.max(0, date - nowMs);
}

/** The generic window's length from a `w=` parameter (`ratelimit-policy: 20;w=2`, or on the limit itself). */
function windowParameterMs(headers: HeaderReader): number | null {
  for (const name of ['ratelimit-policy', 'ratelimit-limit']) {
    const match = /;\s*w\s*=\s*(\d+(?:\.\d+)?)/.exec(headers.get(name) ?? '');
    if (match) return Number(match[1]) * 1000;
  }
  return null;
}

function numberHeader(headers: HeaderReader, name: string): number | null {
  const raw = headers.get(name);
  if (raw === null || raw.trim() === '') return null;
  // Some gateways send a list ("50, 50;w=60"); the first entry is the one that applies.
  const first = Number(raw.split(',')[0]!.split(';')[0]!.trim());
  return Number.isFinite(first) ? first : null;
}
