// The Publisher on an SNS topic: alerts go out in PublishBatch calls; SNS answers per entry, so a call
// that "succeeds" can still have refused some messages. Those, and whole calls that were throttled, are
// retried. A call that may have reached SNS without an answer is sent again once at most (so at most one
// extra copy); what SNS will never take comes back as undeliverable, what the operator must fix as failed.
// The SNS client should make one attempt a call (maxAttempts: 1): its own retries of a timed-out publish
// would each be another copy this code cannot count.
import { PublishBatchCommand, type PublishBatchRequestEntry, type SNSClient } from '@aws-sdk/client-sns';
import type { OutgoingAlert } from '../../core/outgoing-alert';
import type { OnAccepted, PublishOutcome, Publisher, Telemetry } from '../../core/ports';
import { backoffDelay, errorMessage, errorName, isThrottlingAwsError, isTransientAwsError, realSleep, type Sleep } from '../aws/retry';
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
  /** Calls for this entry that may have reached SNS without an answer. */
  unanswered: number;
  /** Sent in a call of its own: SNS refused a whole call as invalid, and only a call of one names the culprit. */
  alone: boolean;
}

/**
 * - `retry`: surely not published (throttled, an entry SNS failed on its side); safe to send again.
 * - `unanswered`: the call may have reached SNS and published, with no answer (a timeout, a 5xx, a dropped
 *   connection): sent again once at most, so that at most one extra copy can come of it.
 * - `split`: SNS refused the whole call as invalid: its entries are sent again one a call.
 * - `failed`: refused for a reason the operator can fix (permissions, a missing topic): try again next run.
 * - `refused`: SNS will never take this message: parked by the caller.
 */
type EntryResult = { entry: PreparedEntry; kind: 'retry' | 'unanswered' | 'split' | 'failed' | 'refused'; reason: string };

/** Whole-call refusals that blame the request's content: with one entry in the call, that entry. */
const INVALID_REQUEST = new Set([
  'InvalidParameterException',
  'InvalidParameterValueException',
  'ValidationException',
  'BatchRequestTooLongException',
]);
/** Per-entry codes (BatchResultErrorEntry.Code) of a message SNS will never take, however often it is sent. */
const INVALID_ENTRY = /^(InvalidParameter|InvalidParameterValue|Validation(Error)?)(Exception)?$/;
/** Network failures that show the request never left: no copy can have been published. */
const NEVER_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

function neverSent(error: unknown): boolean {
  if (isThrottlingAwsError(error)) return true;
  for (let e = error as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 5; depth++) {
    if (typeof e.code === 'string' && NEVER_SENT_CODES.has(e.code)) return true;
    e = typeof e.cause === 'object' && e.cause !== null ? (e.cause as typeof e) : undefined;
  }
  return false;
}

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
      unanswered: 0,
      alone: false,
      entry: {
        Id: entryId(index, outgoing.alert.key),
        Message: built.message,
        MessageStructure: 'json',
        Subject: built.subject,
        MessageAttributes: built.attributes,
      },
    };
  }

  async function sendBatch(batch: readonly PreparedEntry[]): Promise<{ accepted: PreparedEntry[]; results: EntryResult[] }> {
    let response;
    try {
      response = await client.send(
        new PublishBatchCommand({ TopicArn: topicArn, PublishBatchRequestEntries: batch.map((p) => p.entry) }),
      );
    } catch (error) {
      const reason = `SNS PublishBatch failed (${errorName(error)}: ${errorMessage(error)}): ${callAdvice(error, topicArn)}`;
      const kind: EntryResult['kind'] = INVALID_REQUEST.has(errorName(error))
        ? batch.length > 1
          ? 'split'
          : 'refused'
        : !isTransientAwsError(error)
          ? 'failed'
          : neverSent(error)
            ? 'retry'
            : 'unanswered';
      return { accepted: [], results: batch.map((entry) => ({ entry, kind, reason })) };
    }
    const results: EntryResult[] = [];
    const successful = new Set((response.Successful ?? []).map((s) => s.Id));
    const answered = new Set(successful);
    const byId = new Map(batch.map((p) => [p.entry.Id, p]));
    for (const failure of response.Failed ?? []) {
      const entry = byId.get(failure.Id);
      if (!entry) continue;
      answered.add(failure.Id);
      // SenderFault: the request is at fault. An invalid message never goes through; other sender faults
      // (a KMS key, permissions) are the operator's to fix, and the alert waits for that.
      const invalid = failure.SenderFault === true && INVALID_ENTRY.test(failure.Code ?? '');
      const kind: EntryResult['kind'] = invalid ? 'refused' : failure.SenderFault === true ? 'failed' : 'retry';
      const fault = invalid ? 'refused the message as invalid' : failure.SenderFault === true ? 'refused the message' : 'failed on its side';
      results.push({ entry, kind, reason: `SNS ${fault} (${failure.Code}): ${failure.Message ?? 'no message'}` });
    }
    for (const entry of batch) {
      if (!answered.has(entry.entry.Id)) results.push({ entry, kind: 'retry', reason: 'SNS returned no result for this message' });
    }
    return { accepted: batch.filter((p) => successful.has(p.entry.Id)), results };
  }

  return {
    async publish(alerts: readonly OutgoingAlert[], onAccepted?: OnAccepted): Promise<PublishOutcome> {
      const failed: PublishOutcome['failed'] = [];
      const undeliverable: PublishOutcome['undeliverable'] = [];
      let pending = alerts.map(prepare);
      // Calls go one after another, each call's accepted alerts reported before the next call starts:
      // a crash then repeats only the call in flight, and order is kept as far as SNS keeps it.
      for (let attempt = 1; pending.length > 0; attempt++) {
        const again: EntryResult[] = [];
        const batches = [...planBatches(pending.filter((p) => !p.alone)), ...pending.filter((p) => p.alone).map((p) => [p])];
        for (const batch of batches) {
          const { accepted, results } = await sendBatch(batch);
          if (accepted.length > 0) await onAccepted?.(accepted.map((p) => p.key));
          for (const result of results) {
            const { entry } = result;
            if (result.kind === 'unanswered') entry.unanswered += 1;
            if (result.kind === 'split') {
              entry.alone = true;
              again.push(result);
            } else if (result.kind === 'refused') {
              undeliverable.push({ key: entry.key, reason: result.reason });
            } else if (entry.unanswered >= 2 || (entry.unanswered > 0 && (result.kind === 'failed' || attempt >= maxAttempts))) {
              // It may be out already, once or twice: another copy could only be a duplicate.
              undeliverable.push({
                key: entry.key,
                reason: `${result.reason}; SNS did not answer ${entry.unanswered === 1 ? 'one call' : 'two calls'} carrying it, so it may have been delivered, and it is not sent again`,
              });
            } else if (result.kind === 'failed' || attempt >= maxAttempts) {
              const after = result.kind === 'failed' ? '' : ` (after ${attempt} attempts)`;
              failed.push({ key: entry.key, reason: result.reason + after });
            } else again.push(result);
          }
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
