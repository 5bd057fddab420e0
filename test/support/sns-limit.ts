// SNS as aws-sdk-client-mock plays it at its 256 KiB limit, for the tests that publish big alerts.
import type { PublishBatchCommandInput, PublishBatchRequestEntry } from '@aws-sdk/client-sns';
import { SNS_MAX_PAYLOAD_BYTES } from '../../lambda/adapters/sns/sns-message';

/** What SNS counts toward its limit: the message, the subject and every attribute's name, type and value. */
export function payloadBytes(entry: PublishBatchRequestEntry): number {
  const attributes = Object.entries(entry.MessageAttributes ?? {}).reduce(
    (sum, [name, value]) => sum + Buffer.byteLength(name) + Buffer.byteLength(value.DataType ?? '') + Buffer.byteLength(value.StringValue ?? ''),
    0,
  );
  return Buffer.byteLength(entry.Message ?? '') + Buffer.byteLength(entry.Subject ?? '') + attributes;
}

/** SNS as it answers: an entry over the limit is refused as invalid, and will be on every attempt. */
export function snsWithItsLimit(input: PublishBatchCommandInput) {
  const entries = input.PublishBatchRequestEntries ?? [];
  const tooLong = entries.filter((e) => payloadBytes(e) > SNS_MAX_PAYLOAD_BYTES);
  return {
    Successful: entries.filter((e) => !tooLong.includes(e)).map((e) => ({ Id: e.Id!, MessageId: `m-${e.Id}` })),
    Failed: tooLong.map((e) => ({ Id: e.Id!, Code: 'InvalidParameter', SenderFault: true, Message: 'Message too long' })),
  };
}
