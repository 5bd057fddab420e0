// A 1 MB printed value at the SNS edge (aws-sdk-client-mock standing in for SNS and its 256 KiB limit): the
// alert is published, every body under the limit, never parked as too large.
import { createHash } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { mockClient } from 'aws-sdk-client-mock';
import { PublishBatchCommand, SNSClient } from '@aws-sdk/client-sns';
import { payloadBytes, snsWithItsLimit } from '../../support/sns-limit';
import { createSnsPublisher } from '../../../lambda/adapters/sns';
import { SNS_MAX_PAYLOAD_BYTES } from '../../../lambda/adapters/sns/sns-message';
import { render } from '../../../lambda/core/render';
import { bigPrintAlert } from '../../support/big-print';

const client = new SNSClient({ region: 'us-east-1' });
const sns = mockClient(client);

beforeEach(() => {
  sns.reset();
  sns.on(PublishBatchCommand).callsFake(snsWithItsLimit);
});

describe('a 1 MB printed value published to SNS', () => {
  const alert = bigPrintAlert();

  it('is published, not parked, in one message under the limit', async () => {
    const publisher = createSnsPublisher({ client, topicArn: 'arn:aws:sns:us-east-1:123456789012:alerts', sleep: async () => {} });
    const accepted: string[] = [];
    const outcome = await publisher.publish([{ alert, rendering: render(alert) }], async (keys) => void accepted.push(...keys));

    expect(outcome).toEqual({ failed: [], undeliverable: [] });
    expect(accepted).toEqual([alert.key]);
    const [entry] = sns.commandCalls(PublishBatchCommand)[0]!.args[0].input.PublishBatchRequestEntries ?? [];
    expect(payloadBytes(entry!)).toBeLessThanOrEqual(SNS_MAX_PAYLOAD_BYTES);
  });

  it('gives the email the start of the value and its size, and the JSON the cut value with the length and hash of the whole', async () => {
    const publisher = createSnsPublisher({ client, topicArn: 'arn:aws:sns:us-east-1:123456789012:alerts', sleep: async () => {} });
    await publisher.publish([{ alert, rendering: render(alert) }]);
    const [entry] = sns.commandCalls(PublishBatchCommand)[0]!.args[0].input.PublishBatchRequestEntries ?? [];
    const body = JSON.parse(entry!.Message!) as { default: string; email: string; sms: string };
    const sent = JSON.parse(body.default) as Record<string, unknown>;
    const whole = Buffer.from(alert.value_hex.slice(2), 'hex');

    expect(body.email).toContain(alert.value_repr.slice(0, 1_000));
    expect(body.email).toContain(`of ${alert.value_repr.length.toLocaleString('en-US')} characters are shown`);
    expect(sent).toMatchObject({
      key: alert.key,
      value_hex_bytes: whole.length,
      value_hex_sha256: createHash('sha256').update(whole).digest('hex'),
      value_truncated: true,
    });
    expect((sent.value as string[]).length).toBeGreaterThan(1_000);
    expect(sent.value_repr).toMatch(/…\[cut: 239,999 characters in all\]$/);
  });
});

describe('an alert of a rule with 100,000 addresses and no name', () => {
  it('is published under the limit, its default rule name cut in the filter attribute and the JSON', async () => {
    const to = Array.from({ length: 100_000 }, (_, i) => `SP${String(i).padStart(39, '0')}`);
    const alert = { ...bigPrintAlert(10), rule: `transfers:stx to ${to.join(',')}` };
    const publisher = createSnsPublisher({ client, topicArn: 'arn:aws:sns:us-east-1:123456789012:alerts', sleep: async () => {} });
    const outcome = await publisher.publish([{ alert, rendering: render(alert) }]);

    expect(outcome).toEqual({ failed: [], undeliverable: [] });
    const [entry] = sns.commandCalls(PublishBatchCommand)[0]!.args[0].input.PublishBatchRequestEntries ?? [];
    expect(payloadBytes(entry!)).toBeLessThanOrEqual(SNS_MAX_PAYLOAD_BYTES);
    expect(entry!.MessageAttributes!.rule!.StringValue).toMatch(/^transfers:stx to SP0+,SP0+1,.*\.\.\.$/);
  });
});
