// The AWS clients a container builds once, at the module's load, for all its invocations. SNS and SQS resolve
// each command's middleware chain on its first send and keep it (`cacheMiddleware`): resolving it again on
// every send is CPU a loop turn is billed for, and nothing adds middleware to these clients after they are
// built. The DynamoDB document client refuses that option (each of its commands resolves its own chain), so it
// is the one thing kept: built once, not once an invocation.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SNSClient } from '@aws-sdk/client-sns';
import { SQSClient, type SQSClientConfig } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/** What every client shares: the region, credentials and transport are the Lambda's own unless a test gives them. */
type SharedConfig = Pick<SQSClientConfig, 'region' | 'credentials' | 'requestHandler'>;

export function containerAwsClients(shared: SharedConfig = {}) {
  return {
    dynamo: DynamoDBDocumentClient.from(new DynamoDBClient(shared), { marshallOptions: { removeUndefinedValues: true } }),
    // One attempt per call: the publisher retries itself and counts calls that went unanswered.
    sns: new SNSClient({ ...shared, maxAttempts: 1, cacheMiddleware: true }),
    // The loop's message (LOOP_QUEUE_URL set): the SDK's own retries; hiding it again or sending it is idempotent by token.
    sqs: new SQSClient({ ...shared, cacheMiddleware: true }),
  };
}
