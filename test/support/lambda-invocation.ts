// What a Lambda invocation sees that the tests must fake: its context object, and its stdout/stderr
// (where Powertools writes the JSON logs and EMF metric lines), captured for assertions.
import type { Context } from 'aws-lambda';
import { vi } from 'vitest';

export function lambdaContext(requestId: string, remainingMs = 60_000): Context {
  return {
    awsRequestId: requestId,
    functionName: 'stacks-watch',
    functionVersion: '$LATEST',
    invokedFunctionArn: 'arn:aws:lambda:us-east-1:123456789012:function:stacks-watch',
    memoryLimitInMB: '256',
    logGroupName: '/aws/lambda/stacks-watch',
    logStreamName: 'test',
    callbackWaitsForEmptyEventLoop: false,
    getRemainingTimeInMillis: () => remainingMs,
    done: () => {},
    fail: () => {},
    succeed: () => {},
  };
}

/** Captures everything written to stdout and stderr until `vi.restoreAllMocks()`. */
export function captureOutput(): string[] {
  const output: string[] = [];
  for (const stream of [process.stdout, process.stderr]) {
    vi.spyOn(stream, 'write').mockImplementation((chunk: string | Uint8Array) => {
      output.push(String(chunk));
      return true;
    });
  }
  return output;
}
