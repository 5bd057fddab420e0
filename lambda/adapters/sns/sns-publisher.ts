// The Publisher on an SNS topic: alerts go out in PublishBatch calls (publish-batch.ts says what each answer
// means). Those SNS refused on its side, and whole calls that were throttled, are retried. A call that may have
// reached SNS without an answer is sent again once at most (so at most one extra copy); what SNS will never
// take comes back as undeliverable, what the operator must fix as failed.
// The SNS client should make one attempt a call (maxAttempts: 1): its own retries of a timed-out publish
// would each be another copy this code cannot count.
import type { SNSClient } from '@aws-sdk/client-sns';
import type { OutgoingAlert } from '../../core/deliver/outgoing-alert';
import type { OnAccepted, PublishOutcome, Publisher, Telemetry } from '../../core/ports';
import { backoffDelay, realSleep, type Sleep } from '../aws/retry';
import { planBatches } from './batches';
import { prepareEntry, sendBatch, type EntryResult } from './publish-batch';

export interface SnsPublisherOptions {
  client: SNSClient;
  topicArn: string;
  log?: Telemetry['log'];
  /** Waits between retries; tests pass one that does not wait. */
  sleep?: Sleep;
  /** Attempts per message, the first included. */
  maxAttempts?: number;
  /** Backoff before each retry: uniform in [0, min(maxDelayMs, baseDelayMs * 2^(attempt-1))]. */
  backoff?: { baseDelayMs: number; maxDelayMs: number };
}

export function createSnsPublisher(options: SnsPublisherOptions): Publisher {
  const { client, topicArn } = options;
  const log = options.log ?? (() => {});
  const sleep = options.sleep ?? realSleep;
  const maxAttempts = Math.max(1, options.maxAttempts ?? 3);
  const policy = { maxAttempts, baseDelayMs: 200, maxDelayMs: 2_000, ...options.backoff };

  return {
    async publish(alerts: readonly OutgoingAlert[], onAccepted?: OnAccepted): Promise<PublishOutcome> {
      const failed: PublishOutcome['failed'] = [];
      const undeliverable: PublishOutcome['undeliverable'] = [];
      let pending = alerts.map((outgoing, index) => prepareEntry(outgoing, index, log));
      // Calls go one after another, each call's accepted alerts reported before the next call starts:
      // a crash then repeats only the call in flight, and order is kept as far as SNS keeps it.
      for (let attempt = 1; pending.length > 0; attempt++) {
        const again: EntryResult[] = [];
        const batches = [...planBatches(pending.filter((p) => !p.alone)), ...pending.filter((p) => p.alone).map((p) => [p])];
        for (const batch of batches) {
          const { accepted, results } = await sendBatch(client, topicArn, batch);
          if (accepted.length > 0) await onAccepted?.(accepted.map((p) => p.key));
          for (const result of results) settle(result, attempt, maxAttempts, { failed, undeliverable, again });
        }
        if (again.length === 0) break;
        // A split resends at once (nothing is wrong with SNS); anything else backs off first.
        if (again.some((r) => r.kind !== 'split')) {
          const delayMs = backoffDelay(attempt, policy);
          log('warn', 'SNS did not take every alert, retrying', {
            topicArn,
            attempt,
            delayMs,
            retrying: again.map((r) => ({ key: r.entry.key, reason: r.reason })),
          });
          await sleep(delayMs);
        }
        pending = again.map((r) => r.entry);
      }
      if (failed.length > 0) log('warn', 'SNS refused alerts', { topicArn, failed });
      if (undeliverable.length > 0) log('error', 'SNS will not take alerts: they are parked', { topicArn, undeliverable });
      return { failed, undeliverable };
    },
  };
}

/** Where one entry's result leaves it: sent again, parked as undeliverable, or failed for this run. */
function settle(
  result: EntryResult,
  attempt: number,
  maxAttempts: number,
  out: { failed: PublishOutcome['failed']; undeliverable: PublishOutcome['undeliverable']; again: EntryResult[] },
): void {
  const { entry } = result;
  if (result.kind === 'unanswered') entry.unanswered += 1;
  if (result.kind === 'split') {
    entry.alone = true;
    out.again.push(result);
  } else if (result.kind === 'refused') {
    out.undeliverable.push({ key: entry.key, reason: result.reason });
  } else if (entry.unanswered >= 2 || (entry.unanswered > 0 && (result.kind === 'failed' || attempt >= maxAttempts))) {
    // It may be out already, once or twice: another copy could only be a duplicate.
    out.undeliverable.push({
      key: entry.key,
      reason: `${result.reason}; SNS did not answer ${entry.unanswered === 1 ? 'one call' : 'two calls'} carrying it, so it may have been delivered, and it is not sent again`,
    });
  } else if (result.kind === 'failed' || attempt >= maxAttempts) {
    const after = result.kind === 'failed' ? '' : ` (after ${attempt} attempts)`;
    out.failed.push({ key: entry.key, reason: result.reason + after });
  } else out.again.push(result);
}
