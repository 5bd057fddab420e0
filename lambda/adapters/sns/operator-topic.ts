// The operator channel on the stack's operations topic (the one the alarms go to): a notice becomes one
// plain-text SNS message with the notice's subject, so it reaches the same inboxes as the alarms.
// Best effort by contract: a notice SNS does not take is written to the log in full, with the reason, and
// the cycle goes on; the cycle's own state never waits on the operator.
import { PublishCommand, type SNSClient } from '@aws-sdk/client-sns';
import type { OperatorChannel, OperatorNotice, Telemetry } from '../../core/ports';
import { errorMessage, errorName } from '../aws/retry';
import { cleanSubject } from './subject';

/** Room left for the subject and attributes under SNS's 256 KiB; a notice is a few lines, this only bounds a slip. */
export const OPERATOR_MESSAGE_MAX_BYTES = 200_000;
const CUT_NOTE = '\n[cut to fit one SNS message; the full text is in the function log]';

export interface SnsOperatorChannelOptions {
  client: SNSClient;
  topicArn: string;
  log: Telemetry['log'];
}

/** The text the operator reads: the notice itself, then what kind it is, so mail rules can sort them. */
export function operatorMessageText(notice: OperatorNotice): string {
  const text = `${notice.message}\n\nNotice kind: ${notice.kind}`;
  if (Buffer.byteLength(text, 'utf8') <= OPERATOR_MESSAGE_MAX_BYTES) return text;
  const cut = Buffer.from(text, 'utf8')
    .subarray(0, OPERATOR_MESSAGE_MAX_BYTES - CUT_NOTE.length)
    .toString('utf8');
  // A cut inside a character leaves a replacement character at the end: drop it.
  return cut.replace(/\uFFFD$/u, '') + CUT_NOTE;
}

export function createSnsOperatorChannel(options: SnsOperatorChannelOptions): OperatorChannel {
  const { client, topicArn, log } = options;
  return {
    async notify(notice) {
      // Always in the log too: the topic may have no subscriber, and the log keeps the full text.
      log('error', notice.subject, { operatorNotice: notice.kind, detail: notice.message });
      try {
        await client.send(
          new PublishCommand({
            TopicArn: topicArn,
            Subject: cleanSubject(notice.subject, `stacks-watch: ${notice.kind}`),
            Message: operatorMessageText(notice),
          }),
        );
      } catch (error) {
        // The SDK has already retried transient failures; one more failure here must not stop the scan.
        log('error', 'the operator notice could not be sent to the ops topic', {
          operatorNotice: notice.kind,
          topicArn,
          reason: `${errorName(error)}: ${errorMessage(error)}`,
        });
      }
    },
  };
}
