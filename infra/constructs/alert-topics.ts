// The two SNS topics: alerts (what the watcher found, for its subscribers) and operations (alarms about
// the watcher itself, for its operator). Both refuse publishes that do not use TLS.
//
// By default the alerts topic is encrypted with the AWS-managed `aws/sns` key (no monthly key fee, no
// request charges to this account) and the operations topic is not encrypted: CloudWatch alarms cannot
// publish to a topic under `aws/sns`, whose policy cannot grant them the key, and a customer-managed key
// costs $1 a month and more with each rotation. With `encryptionKey=customer`, one key of the stack's own,
// whose policy names every action it allows, encrypts both.
import { Aws, Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import { AccountRootPrincipal, PolicyDocument, PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Alias, type IKey, Key } from 'aws-cdk-lib/aws-kms';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import type { TopicEncryption } from '../settings/deploy-settings';

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

/** The cdk-nag rules that ask for a KMS-encrypted topic (HIPAA, NIST 800-53 R4 and R5, PCI DSS packs). */
export const ENCRYPTED_TOPIC_RULES = [
  'HIPAA.Security-SNSEncryptedKMS',
  'NIST.800.53.R4-SNSEncryptedKMS',
  'NIST.800.53.R5-SNSEncryptedKMS',
  'PCI.DSS.321-SNSEncryptedKMS',
];

const PLAIN_OPERATIONS_TOPIC_REASON =
  "It carries the CloudWatch alarms' state changes and the watcher's notices (a stuck block and its error, a deep reorg, " +
  "an unlinked chain, an undeliverable alert's key, a tracked balance that differed, API deprecations): public chain " +
  'data and error text, no alert body and no credential. CloudWatch alarms cannot publish to a topic under the ' +
  'AWS-managed aws/sns key; deploy with encryptionKey=customer to encrypt it.';

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
        // Only this account's alarms: CloudWatch acting for another account gets nothing from this key.
        conditions: { StringEquals: { 'aws:SourceAccount': Aws.ACCOUNT_ID } },
      }),
    ],
  });
}

export interface AlertTopicsProps {
  encryption: TopicEncryption;
}

export class AlertTopics extends Construct {
  /** The customer-managed key, when the stack has one: publishers need it granted. */
  readonly key: Key | undefined;
  readonly alerts: Topic;
  readonly operations: Topic;

  constructor(scope: Construct, id: string, props: AlertTopicsProps) {
    super(scope, id);
    this.key =
      props.encryption === 'customer'
        ? new Key(this, 'TopicKey', {
            description: `Encrypts the stacks-watch alert and operations topics of stack ${Aws.STACK_NAME}`,
            enableKeyRotation: true,
            policy: topicKeyPolicy(),
            // It protects messages in flight only; nothing stays encrypted under it once the stack is gone.
            removalPolicy: RemovalPolicy.DESTROY,
            pendingWindow: Duration.days(7),
          })
        : undefined;
    // `aws/sns` lets any principal of the account use it through SNS, so the function needs no key grant.
    const alertsKey: IKey = this.key ?? Alias.fromAliasName(this, 'AwsManagedSnsKey', 'alias/aws/sns');
    this.alerts = new Topic(this, 'Alerts', {
      displayName: 'Stacks Watch',
      masterKey: alertsKey,
      enforceSSL: true,
      // SHA256 signatures (version 2): the example webhook receiver refuses SHA1-signed (version 1) messages.
      signatureVersion: '2',
    });
    this.operations = new Topic(this, 'Operations', {
      displayName: 'Stacks Watch operations',
      ...(this.key ? { masterKey: this.key } : {}),
      enforceSSL: true,
    });
    if (!this.key) {
      // cdk-nag's AwsSolutions pack does not check topic encryption; its compliance packs do, under these ids.
      for (const id of ENCRYPTED_TOPIC_RULES) {
        Validations.of(this.operations).acknowledge({ id, reason: PLAIN_OPERATIONS_TOPIC_REASON });
      }
    }
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
