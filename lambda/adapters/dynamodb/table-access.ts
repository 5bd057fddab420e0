// One place where the store's calls meet DynamoDB: retries of throttling and transient failures, and errors
// that name the table, the operation and what to do. A failed condition is the store's decision to make,
// so it passes through untouched, unlogged and never retried.
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Telemetry } from '../../core/ports';
import { errorMessage, errorName, isTransientAwsError, retryTransient, type RetryPolicy, type Sleep } from '../aws/retry';

export interface TableAccess {
  doc: DynamoDBDocumentClient;
  tableName: string;
  log: Telemetry['log'];
  sleep: Sleep;
  now: () => number;
  /** Lifetime of alert records and scanned blocks, in seconds. */
  ttlSeconds: number;
  retry: RetryPolicy;
}

export type DynamoOperation = 'GetItem' | 'PutItem' | 'UpdateItem' | 'DeleteItem' | 'Query';

export function isConditionalCheckFailed(error: unknown): boolean {
  return errorName(error) === 'ConditionalCheckFailedException';
}

export class StateStoreError extends Error {
  constructor(message: string, options: { cause: unknown }) {
    super(message, options);
    this.name = 'StateStoreError';
  }
}

function advice(error: unknown, operation: DynamoOperation, attempts: number): string {
  const name = errorName(error);
  if (name === 'ResourceNotFoundException') {
    return 'the table does not exist in this account and region: check the table name and AWS region the watcher is given';
  }
  if (name === 'AccessDeniedException') {
    return `the watcher's role may not call dynamodb:${operation} on the table: grant it (the stack's table grant does)`;
  }
  if (name === 'UnrecognizedClientException' || name === 'CredentialsProviderError') {
    return 'no valid AWS credentials: configure a profile or environment credentials';
  }
  if (isTransientAwsError(error)) {
    return `still failing after ${attempts} attempts; the next run will try again`;
  }
  return 'the request was refused';
}

/**
 * Runs one DynamoDB call (given its 1-based attempt number, so that a caller can tell a retried write from a
 * first one). Rethrows ConditionalCheckFailedException as is; wraps every other failure in StateStoreError.
 */
export async function callTable<T>(table: TableAccess, operation: DynamoOperation, call: (attempt: number) => Promise<T>): Promise<T> {
  let attempts = 0;
  try {
    return await retryTransient(
      (attempt) => {
        attempts = attempt;
        return call(attempt);
      },
      {
        policy: table.retry,
        sleep: table.sleep,
        onRetry: (error, attempt, delayMs) =>
          table.log('warn', `DynamoDB ${operation} failed, retrying`, {
            table: table.tableName,
            attempt,
            delayMs,
            error: errorName(error),
            message: errorMessage(error),
          }),
      },
    );
  } catch (error) {
    if (isConditionalCheckFailed(error)) throw error;
    throw new StateStoreError(
      `DynamoDB ${operation} on table "${table.tableName}" failed (${errorName(error)}: ${errorMessage(error)}): ` + advice(error, operation, attempts),
      { cause: error },
    );
  }
}

/** Epoch seconds at which an item written now may be deleted by the table's TTL. */
export function expiresAtFrom(table: TableAccess, nowMs: number): number {
  return Math.floor(nowMs / 1000) + table.ttlSeconds;
}
