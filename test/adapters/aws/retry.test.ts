// The retry layer over AWS calls: what it retries (the SDK's classification), how often, and how long it waits.
import { describe, expect, it } from 'vitest';
import { ProvisionedThroughputExceededException, ResourceNotFoundException } from '@aws-sdk/client-dynamodb';
import { backoffDelay, isThrottlingAwsError, isTransientAwsError, retryTransient, type RetryPolicy } from '../../../lambda/adapters/aws/retry';

const policy: RetryPolicy = { maxAttempts: 4, baseDelayMs: 50, maxDelayMs: 120 };
const $metadata = { httpStatusCode: 400 };
const throttled = () => new ProvisionedThroughputExceededException({ message: 'slow down', $metadata });
const missingTable = () => new ResourceNotFoundException({ message: 'no such table', $metadata });
const withStatus = (name: string, httpStatusCode: number) => Object.assign(new Error(name), { name, $metadata: { httpStatusCode } });

describe('which AWS errors are retried', () => {
  it('retries throttling, 5xx answers and dropped connections, also when wrapped as a cause', () => {
    expect(isThrottlingAwsError(throttled())).toBe(true);
    expect(isTransientAwsError(throttled())).toBe(true);
    expect(isTransientAwsError(withStatus('InternalServerError', 500))).toBe(true);
    expect(isTransientAwsError(withStatus('ServiceUnavailable', 503))).toBe(true);
    expect(isThrottlingAwsError(withStatus('SomethingNew', 429))).toBe(true);
    const reset = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
    expect(isTransientAwsError(reset)).toBe(true);
    expect(isTransientAwsError(new Error('request failed', { cause: reset }))).toBe(true);
  });

  it('does not retry refusals that would be refused again, an abort, or what is not an error', () => {
    expect(isTransientAwsError(missingTable())).toBe(false);
    expect(isTransientAwsError(withStatus('ValidationException', 400))).toBe(false);
    expect(isTransientAwsError(Object.assign(new Error('aborted'), { name: 'AbortError', code: 'ECONNRESET' }))).toBe(false);
    expect(isTransientAwsError('ECONNRESET')).toBe(false);
    expect(isThrottlingAwsError(withStatus('ServiceUnavailable', 503))).toBe(false);
  });
});

describe('retryTransient', () => {
  it('retries a throttled call until it succeeds, waiting a jittered backoff under the cap before each retry', async () => {
    const waits: number[] = [];
    const retried: number[] = [];
    let calls = 0;
    const result = await retryTransient(
      async (attempt) => {
        calls++;
        expect(attempt).toBe(calls);
        if (attempt < 3) throw throttled();
        return 'done';
      },
      { policy, sleep: async (ms) => void waits.push(ms), onRetry: (_e, attempt, delayMs) => retried.push(attempt, delayMs) },
    );
    expect(result).toBe('done');
    expect(calls).toBe(3);
    expect(waits).toHaveLength(2);
    expect(retried).toEqual([1, waits[0], 2, waits[1]]);
    waits.forEach((ms, i) => expect(ms).toBeLessThanOrEqual(Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** i)));
  });

  it('gives up after the policy attempts and rethrows the last error as is', async () => {
    let calls = 0;
    const last = throttled();
    await expect(
      retryTransient(
        async () => {
          calls++;
          throw calls === policy.maxAttempts ? last : throttled();
        },
        { policy, sleep: async () => {} },
      ),
    ).rejects.toBe(last);
    expect(calls).toBe(policy.maxAttempts);
  });

  it('does not retry an error that is not transient', async () => {
    let calls = 0;
    await expect(
      retryTransient(
        async () => {
          calls++;
          throw missingTable();
        },
        { policy, sleep: async () => {} },
      ),
    ).rejects.toBeInstanceOf(ResourceNotFoundException);
    expect(calls).toBe(1);
  });
});

describe('backoffDelay', () => {
  it('doubles its ceiling per attempt up to the cap, and draws uniformly below it', () => {
    const top = () => 0.999_999;
    expect([1, 2, 3, 4].map((attempt) => backoffDelay(attempt, policy, top))).toEqual([49, 99, 119, 119]);
    expect(backoffDelay(3, policy, () => 0)).toBe(0);
  });
});
