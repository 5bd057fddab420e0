// The two SNS topics: alerts (what the watcher found, for its subscribers) and operations (alarms about
// the watcher itself, for its operator). Both are encrypted with one customer-managed key whose policy
// names every action it allows, and both refuse publishes that do not use TLS.
import { Aws, Duration, RemovalPolicy } from 'aws-cdk-lib';
import { AccountRootPrincipal, PolicyDocument, PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';

/**
 * What the account may do with the key. Listed one by one rather than `kms:*`: the account's IAM
 * policies decide who does it, and this list bounds what any of them can be granted.
 */
export const KEY_ADMINISTRATION_ACTIONS = [
  'kms:CancelKeyDeletion',
  'kms:CreateGrant',
  'kms:DescribeKey',
  'kms:DisableKey',
  'kms:DisableKeyRotation',
  'kms:EnableKey',
  'kms:EnableKeyRotation',
  'kms:GetKeyPolicy',
  'kms:GetKeyRotationStatus',
  'kms:ListGrants',
  'kms:ListKeyPolicies',
  'kms:ListKeyRotations',
  'kms:ListResourceTags',
  'kms:PutKeyPolicy',
  'kms:RetireGrant',
  'kms:RevokeGrant',
  'kms:RotateKeyOnDemand',
  'kms:ScheduleKeyDeletion',
  'kms:TagResource',
  'kms:UntagResource',
  'kms:UpdateKeyDescription',
];

/** What publishing to a topic encrypted with the key takes: SNS makes and unwraps data keys. */
export const TOPIC_PUBLISH_KEY_ACTIONS = ['kms:Decrypt', 'kms:GenerateDataKey'];

const CLOUDWATCH = new ServicePrincipal('cloudwatch.amazonaws.com');

function topicKeyPolicy(): PolicyDocument {
  return new PolicyDocument({
    statements: [
      new PolicyStatement({
        sid: 'AccountAdministersKey',
        principals: [new AccountRootPrincipal()],
        actions: KEY_ADMINISTRATION_ACTIONS,
        // A key policy's resource is always the key itself, written "*".
        resources: ['*'],
      }),
      new PolicyStatement({
        sid: 'AccountGrantsTopicPublishing',
        principals: [new AccountRootPrincipal()],
        actions: TOPIC_PUBLISH_KEY_ACTIONS,
        resources: ['*'],
      }),
      new PolicyStatement({
        sid: 'CloudWatchAlarmsPublish',
        principals: [CLOUDWATCH],
        actions: TOPIC_PUBLISH_KEY_ACTIONS,
        resources: ['*'],
      }),
    ],
  });
}

export class AlertTopics extends Construct {
  readonly key: Key;
  readonly alerts: Topic;
  readonly operations: Topic;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.key = new Key(this, 'TopicKey', {
      description: `Encrypts the stacks-watch alert and operations topics of stack ${Aws.STACK_NAME}`,
      enableKeyRotation: true,
      policy: topicKeyPolicy(),
      // It protects messages in flight only; nothing stays encrypted under it once the stack is gone.
      removalPolicy: RemovalPolicy.DESTROY,
      pendingWindow: Duration.days(7),
    });
    this.alerts = new Topic(this, 'Alerts', {
      displayName: 'Stacks Watch',
      masterKey: this.key,
      enforceSSL: true,
    });
    this.operations = new Topic(this, 'Operations', {
      displayName: 'Stacks Watch operations',
      masterKey: this.key,
      enforceSSL: true,
    });
    // A topic policy replaces SNS's default one, so the alarms' right to publish is stated here.
    this.operations.addToResourcePolicy(
      new PolicyStatement({
        sid: 'CloudWatchAlarmsPublish',
        principals: [CLOUDWATCH],
        actions: ['sns:Publish'],
        resources: [this.operations.topicArn],
        conditions: {
          StringEquals: { 'aws:SourceAccount': Aws.ACCOUNT_ID },
          ArnLike: { 'aws:SourceArn': `arn:${Aws.PARTITION}:cloudwatch:${Aws.REGION}:${Aws.ACCOUNT_ID}:alarm:*` },
        },
      }),
    );
  }
}
