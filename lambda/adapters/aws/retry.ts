// Retries of throttled and transient AWS calls, layered on top of the SDK's own standard retry strategy.
// The SDK already retries these a few times inside `send`, but the adapters receive a client built
// elsewhere (its maxAttempts may be 1), and the SDK stops retrying once its retry-token bucket is spent
// under sustained throttling; this second, short layer rides out a throttling burst within one run.
//
// The classification mirrors the SDK's (its helpers live in @smithy/core/retry, a transitive package this
// project does not depend on directly, so the few lists are repeated here).

export interface RetryPolicy {
  /** Total attempts, the first included. */
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export type Sleep = (ms: number) => Promise<void>;

export const realSleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const THROTTLING_NAMES = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'Throttling',
  'ThrottledException',
  'RequestLimitExceeded',
  'TooManyRequestsException',
  'RequestThrottled',
  'RequestThrottledException',
  'KMSThrottlingException',
  'LimitExceededException',
  'SlowDown',
]);

const TRANSIENT_NAMES = new Set([
  'InternalServerError',
  'InternalFailure',
  'InternalErrorException',
  'ServiceUnavailable',
  'ServiceUnavailableException',
  'TimeoutError',
  'RequestTimeout',
  'RequestTimeoutException',
  'TransactionInProgressException',
]);

const NETWORK_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

interface AwsErrorShape {
  name?: unknown;
  code?: unknown;
  cause?: unknown;
  $retryable?: unknown;
  $metadata?: { httpStatusCode?: unknown };
}

/** True for throttling: the service turned the request away unprocessed. */
export function isThrottlingAwsError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const e = error as AwsErrorShape;
  const status = typeof e.$metadata?.httpStatusCode === 'number' ? e.$metadata.httpStatusCode : 0;
  return (typeof e.name === 'string' && THROTTLING_NAMES.has(e.name)) || status === 429;
}

/** True for errors worth retrying: throttling, 5xx, timeouts and dropped connections. */
export function isTransientAwsError(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const e = error as AwsErrorShape;
  if (e.name === 'AbortError') return false;
  const status = typeof e.$metadata?.httpStatusCode === 'number' ? e.$metadata.httpStatusCode : 0;
  return (
    (typeof e.name === 'string' && (THROTTLING_NAMES.has(e.name) || TRANSIENT_NAMES.has(e.name))) ||
    (typeof e.code === 'string' && NETWORK_CODES.has(e.code)) ||
    e.$retryable !== undefined ||
    status === 429 ||
    status >= 500 ||
    (depth < 5 && e.cause !== undefined && isTransientAwsError(e.cause, depth + 1))
  );
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
export async function retryTransient<T>(
  operation: (attempt: number) => Promise<T>,
  options: RetryOptions,
): Promise<T> {
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
