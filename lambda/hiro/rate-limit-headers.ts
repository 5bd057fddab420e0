// Reading what Hiro's gateway says about our request budget. Its headers come in two families (the
// per-minute `x-ratelimit-*-stacks-minute` pair and the generic `ratelimit-*` trio) and the reset is either
// epoch seconds or seconds from now depending on the gateway.

export interface RateBudget {
  limit: number | null;
  remaining: number;
  /** When the budget refills, epoch ms; null when the answer did not say. */
  resetAtMs: number | null;
}

/** A reset value above this is epoch seconds; below, seconds from now. */
const EPOCH_SECONDS_THRESHOLD = 1e9;

export function readRateBudget(headers: Headers, nowMs: number): RateBudget | null {
  const minuteRemaining = numberHeader(headers, 'x-ratelimit-remaining-stacks-minute');
  const remaining = minuteRemaining ?? numberHeader(headers, 'ratelimit-remaining');
  if (remaining === null) return null;
  const limit =
    minuteRemaining !== null
      ? numberHeader(headers, 'x-ratelimit-limit-stacks-minute') ?? numberHeader(headers, 'ratelimit-limit')
      : numberHeader(headers, 'ratelimit-limit');
  const reset = numberHeader(headers, 'ratelimit-reset');
  let resetAtMs: number | null = null;
  if (reset !== null) resetAtMs = reset > EPOCH_SECONDS_THRESHOLD ? reset * 1000 : nowMs + reset * 1000;
  return { limit, remaining, resetAtMs };
}

/** What is left of the per-second budget (`x-ratelimit-remaining-stacks-second`), or null when not sent. */
export function readSecondBudget(headers: Headers): number | null {
  return numberHeader(headers, 'x-ratelimit-remaining-stacks-second');
}

/** `retry-after` as a wait in ms: delta seconds or an HTTP date. Null when absent or unreadable. */
export function readRetryAfterMs(headers: Headers, nowMs: number): number | null {
  const raw = headers.get('retry-after')?.trim();
  if (!raw) return null;
  if (/^\d+(\.\d+)?$/.test(raw)) return Number(raw) * 1000;
  const date = Date.parse(raw);
  if (Number.isNaN(date)) return null;
  return Math.max(0, date - nowMs);
}

function numberHeader(headers: Headers, name: string): number | null {
  const raw = headers.get(name);
  if (raw === null || raw.trim() === '') return null;
  // Some gateways send a list ("50, 50;w=60"); the first entry is the one that applies.
  const first = Number(raw.split(',')[0]!.split(';')[0]!.trim());
  return Number.isFinite(first) ? first : null;
}
