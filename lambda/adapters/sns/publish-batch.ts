// One SNS PublishBatch call and what its answer means for each entry: SNS answers per entry, so a call that
// "succeeds" can still have refused some messages, and a call without an answer may have published.
import { PublishBatchCommand, type PublishBatchRequestEntry, type SNSClient } from '@aws-sdk/client-sns';
import type { OutgoingAlert } from '../../core/deliver/outgoing-alert';
import type { Telemetry } from '../../core/ports';
import { errorMessage, errorName, isThrottlingAwsError, isTransientAwsError } from '../aws/retry';
import { entryId } from './batches';
import { buildSnsMessage } from './sns-message';

export interface PreparedEntry {
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
export type EntryResult = { entry: PreparedEntry; kind: 'retry' | 'unanswered' | 'split' | 'failed' | 'refused'; reason: string };

/** Whole-call refusals that blame the request's content: with one entry in the call, that entry. */
const INVALID_REQUEST = new Set(['InvalidParameterException', 'InvalidParameterValueException', 'ValidationException', 'BatchRequestTooLongException']);
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

export function prepareEntry(outgoing: OutgoingAlert, index: number, log: Telemetry['log']): PreparedEntry {
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

export async function sendBatch(
  client: SNSClient,
  topicArn: string,
  batch: readonly PreparedEntry[],
): Promise<{ accepted: PreparedEntry[]; results: EntryResult[] }> {
  let response;
  try {
    response = await client.send(new PublishBatchCommand({ TopicArn: topicArn, PublishBatchRequestEntries: batch.map((p) => p.entry) }));
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
