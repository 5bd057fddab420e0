// The container's AWS clients are built once and serve every invocation: a loop turn's SQS request and an
// alert's SNS publish reuse the middleware chain the container's first send of that command resolved, rather
// than resolving it again on every send (CPU a turn is billed for), and still send what each command asks.
import { ChangeMessageVisibilityCommand } from '@aws-sdk/client-sqs';
import { PublishBatchCommand } from '@aws-sdk/client-sns';
import { describe, expect, it, vi } from 'vitest';
import { containerAwsClients } from '../../lambda/runtime/aws-clients';

/** Answers every request with `body` and keeps the bodies sent, in place of the network. */
function answering(body: string) {
  const sent: string[] = [];
  const requestHandler = {
    handle: async (request: { body?: unknown }) => {
      sent.push(String(request.body));
      return { response: { statusCode: 200, headers: { 'content-type': 'application/x-amz-json-1.0' }, body: new Response(body).body } };
    },
  };
  return { sent, requestHandler };
}

const credentials = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' };

describe('the container’s AWS clients', () => {
  it('resolve an SQS command’s middleware once across the turns that send it, each send still carrying its own input', async () => {
    const net = answering('{}');
    const { sqs } = containerAwsClients({ region: 'us-east-1', credentials, requestHandler: net.requestHandler });
    const resolved = vi.spyOn(ChangeMessageVisibilityCommand.prototype, 'resolveMiddleware');
    for (const receipt of ['r-1', 'r-2', 'r-3']) {
      await sqs.send(
        new ChangeMessageVisibilityCommand({ QueueUrl: 'https://sqs.us-east-1.amazonaws.com/1/turns', ReceiptHandle: receipt, VisibilityTimeout: 8 }),
      );
    }
    expect(resolved).toHaveBeenCalledTimes(1);
    expect(net.sent.map((body) => JSON.parse(body).ReceiptHandle)).toEqual(['r-1', 'r-2', 'r-3']);
  });

  it('resolve an SNS publish’s middleware once across the invocations that publish', async () => {
    const net = answering('<PublishBatchResponse><PublishBatchResult><Successful/><Failed/></PublishBatchResult></PublishBatchResponse>');
    const { sns } = containerAwsClients({ region: 'us-east-1', credentials, requestHandler: net.requestHandler });
    const resolved = vi.spyOn(PublishBatchCommand.prototype, 'resolveMiddleware');
    for (const id of ['a', 'b']) {
      await sns.send(new PublishBatchCommand({ TopicArn: 'arn:aws:sns:us-east-1:123456789012:alerts', PublishBatchRequestEntries: [{ Id: id, Message: id }] }));
    }
    expect(resolved).toHaveBeenCalledTimes(1);
    expect(net.sent).toHaveLength(2);
  });
});
