// The bundle the handler is measured against: only the AWS SDK clients the handler uses, built and held the
// way the handler holds them (DynamoDB and SNS clients at module load, Secrets Manager on first use). A
// watcher cannot be lighter than this without dropping a service.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { PublishBatchCommand, SNSClient } from '@aws-sdk/client-sns';

const dynamo = DynamoDBDocumentClient.from(new DynamoDBClient({}));
const sns = new SNSClient({});

export async function handler(): Promise<unknown> {
  const secrets = new SecretsManagerClient({});
  return Promise.all([
    secrets.send(new GetSecretValueCommand({ SecretId: 'key' })),
    dynamo.send(new GetCommand({ TableName: 't', Key: {} })),
    dynamo.send(new PutCommand({ TableName: 't', Item: {} })),
    dynamo.send(new UpdateCommand({ TableName: 't', Key: {} })),
    dynamo.send(new DeleteCommand({ TableName: 't', Key: {} })),
    dynamo.send(new QueryCommand({ TableName: 't' })),
    sns.send(new PublishBatchCommand({ TopicArn: 't', PublishBatchRequestEntries: [] })),
  ]);
}
