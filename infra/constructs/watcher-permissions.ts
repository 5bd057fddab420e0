// Everything the watcher function may do, written out statement by statement. The CDK grant helpers are
// avoided on purpose: they add wildcard actions (dynamodb:BatchGet*, kms:GenerateDataKey*) and reads the
// function never makes.
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { type IRole, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { ILogGroup } from 'aws-cdk-lib/aws-logs';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { TOPIC_PUBLISH_KEY_ACTIONS } from './alert-topics';

/** The item operations of the DynamoDB state store (lambda/adapters/dynamodb). */
export const STATE_TABLE_ACTIONS = ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:Query'];

export interface WatcherResources {
  table: ITableV2;
  alertsTopic: ITopic;
  /** Where the function sends operator notices (the alarms' topic). */
  opsTopic: ITopic;
  /** The customer-managed topic key, if any; `aws/sns` needs no grant. */
  topicKey?: IKey;
  logGroup: ILogGroup;
  deadLetterQueue: IQueue;
  apiKeySecret?: ISecret;
  /** The live watch config object (s3:GetObject, s3:GetObjectVersion on it alone). */
  watchConfigObjectArn?: string;
}

export function grantWatcherAccess(role: IRole, resources: WatcherResources): void {
  const allow = (actions: string[], resource: string) => role.addToPrincipalPolicy(new PolicyStatement({ actions, resources: [resource] }));
  allow(STATE_TABLE_ACTIONS, resources.table.tableArn);
  // sns:Publish covers PublishBatch too.
  allow(['sns:Publish'], resources.alertsTopic.topicArn);
  allow(['sns:Publish'], resources.opsTopic.topicArn);
  if (resources.topicKey) allow(TOPIC_PUBLISH_KEY_ACTIONS, resources.topicKey.keyArn);
  allow(['logs:CreateLogStream', 'logs:PutLogEvents'], resources.logGroup.logGroupArn);
  // Lambda itself sends a failed asynchronous invocation there, with the function's role.
  allow(['sqs:SendMessage'], resources.deadLetterQueue.queueArn);
  // The current version with a conditional GET; an earlier one by id after a cold start behind a bad version.
  if (resources.watchConfigObjectArn) allow(['s3:GetObject', 's3:GetObjectVersion'], resources.watchConfigObjectArn);
  if (resources.apiKeySecret) allow(['secretsmanager:GetSecretValue'], resources.apiKeySecret.secretArn);
}
