// The Publisher on an SNS topic: alerts go out in PublishBatch calls; SNS answers per entry, so a call
// that "succeeds" can still have refused some messages. Those, and whole calls that were throttled or
// dropped, are retried; what SNS refuses for good comes back in `failed` with SNS's reason.
import { PublishBatchCommand, type PublishBatchRequestEntry, type SNSClient } from '@aws-sdk/client-sns';
import type { OutgoingAlert } from '../../core/domain';
import type { PublishOutcome, Publisher, Telemetry } from '../../core/ports';
import { backoffDelay, errorMessage, errorName, isTransientAwsError, realSleep, type Sleep } from '../aws/retry';
import { entryId, planBatches } from './batches';
import { buildSnsMessage } from './sns-message';

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

interface PreparedEntry {
  key: string;
  bytes: number;
  entry: PublishBatchRequestEntry;
}

type EntryResult = { entry: PreparedEntry; retry: boolean; reason: string };

function callAdvice(error: unknown, topicArn: string): string {
  const name = errorName(error);
  if (name === 'NotFoundException') return `the topic ${topicArn} does not exist: check the topic ARN and region`;
  if (name === 'AuthorizationErrorException') return `the watcher's role may not sns:Publish to ${topicArn}: grant it`;
  if (name.startsWith('KMS')) return `the topic's KMS key refused the request: let the watcher's role use the key`;
  if (isTransientAwsError(error)) return 'SNS was throttling or unavailable';
  return 'SNS refused the request';
}

export function createSnsPublisher(options: SnsPublisherOptions): Publisher {
  const { client, topicArn } = options;
  const log = options.log ?? (() => {});
  const sleep = options.sleep ?? realSleep;
  const maxAttempts = Math.max(1, options.maxAttempts ?? 3);
  const policy = { maxAttempts, baseDelayMs: 200, maxDelayMs: 2_000, ...options.backoff };

  function prepare(outgoing: OutgoingAlert, index: number): PreparedEntry {
    const built = buildSnsMessage(outgoing);
    if (built.adjustments.length > 0) {
      log('warn', 'alert adjusted to fit SNS limits', { key: outgoing.alert.key, adjustments: built.adjustments });
    }
    return {
      key: outgoing.alert.key,
      bytes: built.bytes,
      entry: {
        Id: entryId(index, outgoing.alert.key),
        Message: built.message,
        MessageStructure: 'json',
        Subject: built.subject,
        MessageAttributes: built.attributes,
      },
    };
  }

  async function sendBatch(batch: readonly PreparedEntry[]): Promise<EntryResult[]> {
    let response;
    try {
      response = await client.send(
        new PublishBatchCommand({ TopicArn: topicArn, PublishBatchRequestEntries: batch.map((p) => p.entry) }),
      );
    } catch (error) {
      const reason = `SNS PublishBatch failed (${errorName(error)}: ${errorMessage(error)}): ${callAdvice(error, topicArn)}`;
      const retry = isTransientAwsError(error);
      return batch.map((entry) => ({ entry, retry, reason }));
    }
    const results: EntryResult[] = [];
    const answered = new Set((response.Successful ?? []).map((s) => s.Id));
    const byId = new Map(batch.map((p) => [p.entry.Id, p]));
    for (const failure of response.Failed ?? []) {
      const entry = byId.get(failure.Id);
      if (!entry) continue;
      answered.add(failure.Id);
      // SenderFault: the message itself is at fault, and sending it again cannot help.
      const retry = failure.SenderFault !== true;
      const fault = retry ? 'failed on its side' : 'refused the message as invalid';
      results.push({ entry, retry, reason: `SNS ${fault} (${failure.Code}): ${failure.Message ?? 'no message'}` });
    }
    for (const entry of batch) {
      if (!answered.has(entry.entry.Id)) results.push({ entry, retry: true, reason: 'SNS returned no result for this message' });
    }
    return results;
  }

  return {
    async publish(alerts: readonly OutgoingAlert[]): Promise<PublishOutcome> {
      const failed: PublishOutcome['failed'] = [];
      let pending = alerts.map(prepare);
      // Batches go one after another: alerts per run are few, and order is kept as far as SNS keeps it.
      for (let attempt = 1; pending.length > 0; attempt++) {
        const retry: EntryResult[] = [];
        for (const batch of planBatches(pending)) {
          for (const result of await sendBatch(batch)) {
            if (result.retry && attempt < maxAttempts) retry.push(result);
            else {
              const after = result.retry ? ` (after ${attempt} attempts)` : '';
              failed.push({ key: result.entry.key, reason: result.reason + after });
            }
          }
        }
        if (retry.length === 0) break;
        const delayMs = backoffDelay(attempt, policy);
        log('warn', 'SNS did not take every alert, retrying', {
          topicArn,
          attempt,
          delayMs,
          retrying: retry.map((r) => ({ key: r.entry.key, reason: r.reason })),
        });
        await sleep(delayMs);
        pending = retry.map((r) => r.entry);
      }
      if (failed.length > 0) log('warn', 'SNS refused alerts', { topicArn, failed });
      return { failed };
    },
  };
}
