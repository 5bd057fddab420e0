// Retries of throttled and transient AWS calls, layered on top of the SDK's own standard retry strategy,
// with the SDK's own classification of what is worth retrying (@smithy/core/retry).
//
// Only the loop and its backoff are the project's, because the SDK's strategy cannot do what they are for:
// its StandardRetryStrategy waits on the real clock inside refreshRetryTokenForRetry (no injected sleep, so
// neither tests nor a run's time budget can bound it), gives up once the client's shared token bucket is
// spent under sustained throttling, and hides its attempt count from the caller, while the SNS publisher runs
// its clients at maxAttempts 1 (a timed-out publish retried blind may go out twice) and the cursor write must
// know whether a refused write was a retry of its own.
import { isThrottlingError, isTransientError } from '@smithy/core/retry';

type SdkError = Parameters<typeof isTransientError>[0];

export interface RetryPolicy {
  /** Total attempts, the first included. */
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export type Sleep = (ms: number) => Promise<void>;

export const realSleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** True for throttling: the service turned the request away unprocessed (the SDK's own classification). */
export function isThrottlingAwsError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && isThrottlingError(error as SdkError);
}

/** True for errors the SDK's standard strategy retries: throttling, 500/502/503/504, timeouts and dropped connections. */
export function isTransientAwsError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const e = error as SdkError;
  return isThrottlingError(e) || isTransientError(e);
}

/** "Full jitter" exponential backoff: uniform in [0, min(cap, base * 2^(attempt-1))]. */
export function backoffDelay(attempt: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.floor(random() * ceiling);
}

export interface RetryOptions {
  policy: RetryPolicy;
  sleep: Sleep;
  /** Told about each retry before its backoff, to log it. */
  onRetry?: (error: unknown, attempt: number, delayMs: number) => void;
}

/**
 * Runs `operation` (given its 1-based attempt number) until it succeeds, fails with a non-transient error,
 * or runs out of attempts; the last error is rethrown as is, for the caller to put in context.
 */
export async function retryTransient<T>(operation: (attempt: number) => Promise<T>, options: RetryOptions): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await operation(attempt);
    } catch (error) {
      if (attempt >= options.policy.maxAttempts || !isTransientAwsError(error)) throw error;
      const delayMs = backoffDelay(attempt, options.policy);
      options.onRetry?.(error, attempt, delayMs);
      await options.sleep(delayMs);
    }
  }
}

export function errorName(error: unknown): string {
  if (typeof error === 'object' && error !== null && 'name' in error && typeof error.name === 'string') {
    return error.name;
  }
  return 'Error';
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
