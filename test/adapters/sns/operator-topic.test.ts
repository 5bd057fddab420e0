// The operator channel on the ops topic, at the SDK edge (aws-sdk-client-mock).
import 'aws-sdk-client-mock-vitest/extend';
import { beforeEach, describe, expect, it } from 'vitest';
import { mockClient } from 'aws-sdk-client-mock';
import { AuthorizationErrorException, PublishCommand, SNSClient } from '@aws-sdk/client-sns';
import type { OperatorNotice } from '../../../lambda/core/ports';
import { createSnsOperatorChannel, OPERATOR_MESSAGE_MAX_BYTES } from '../../../lambda/adapters/sns/operator-topic';

const OPS_TOPIC = 'arn:aws:sns:us-east-1:123456789012:stacks-watch-ops';
const client = new SNSClient({ region: 'us-east-1' });
const sns = mockClient(client);

const notice: OperatorNotice = {
  kind: 'stuck-block',
  subject: 'stacks-watch: block 150 failed 3 runs in a row',
  message: 'Block 150 (0xabc) failed 3 runs in a row: SNS refused the request.',
};

let logs: { level: string; message: string; attributes?: Record<string, unknown> }[];
const channel = () =>
  createSnsOperatorChannel({
    client,
    topicArn: OPS_TOPIC,
    log: (level, message, attributes) => void logs.push({ level, message, ...(attributes ? { attributes } : {}) }),
  });

beforeEach(() => {
  sns.reset();
  logs = [];
});

describe('operator notices on the ops topic', () => {
  it('publishes the notice to the ops topic with its subject and its cause in the body', async () => {
    sns.on(PublishCommand).resolves({ MessageId: 'm-1' });

    await channel().notify(notice);

    expect(sns).toHaveReceivedCommandTimes(PublishCommand, 1);
    expect(sns).toHaveReceivedCommandWith(PublishCommand, {
      TopicArn: OPS_TOPIC,
      Subject: notice.subject,
      Message: expect.stringContaining('Block 150 (0xabc) failed 3 runs in a row') as unknown as string,
    });
    expect(sns.commandCalls(PublishCommand)[0]!.args[0].input.Message).toMatch(/Notice kind: stuck-block/);
  });

  it('cleans a subject SNS would refuse (non-ASCII, too long) rather than lose the notice', async () => {
    sns.on(PublishCommand).resolves({ MessageId: 'm-1' });

    await channel().notify({ ...notice, subject: `héllo\nworld ${'x'.repeat(200)}` });

    const subject = sns.commandCalls(PublishCommand)[0]!.args[0].input.Subject!;
    expect(subject).toMatch(/^hello world x+\.\.\.$/);
    expect(subject.length).toBeLessThan(100);
  });

  it('keeps a huge message inside one SNS message', async () => {
    sns.on(PublishCommand).resolves({ MessageId: 'm-1' });

    await channel().notify({ ...notice, message: 'é'.repeat(300_000) });

    const message = sns.commandCalls(PublishCommand)[0]!.args[0].input.Message!;
    expect(Buffer.byteLength(message, 'utf8')).toBeLessThanOrEqual(OPERATOR_MESSAGE_MAX_BYTES);
    expect(message).toMatch(/^é+\n\[cut to fit one SNS message/);
  });

  it('logs a notice SNS refuses, with the reason, and never throws into the cycle', async () => {
    sns.on(PublishCommand).rejects(new AuthorizationErrorException({ message: 'not authorized', $metadata: {} }));

    await expect(channel().notify(notice)).resolves.toBeUndefined();

    expect(logs).toContainEqual({
      level: 'error',
      message: 'the operator notice could not be sent to the ops topic',
      attributes: { operatorNotice: 'stuck-block', topicArn: OPS_TOPIC, reason: 'AuthorizationErrorException: not authorized' },
    });
    // The notice itself is in the log too, so the cause is not lost with the message.
    expect(logs).toContainEqual(
      expect.objectContaining({ level: 'error', message: notice.subject, attributes: expect.objectContaining({ detail: notice.message }) }),
    );
  });
});
