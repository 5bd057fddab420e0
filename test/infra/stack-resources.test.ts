import { beforeAll, describe, expect, it } from 'vitest';
import type { CfnElement } from 'aws-cdk-lib';
import { Annotations, Match } from 'aws-cdk-lib/assertions';
import { BLANK_API_KEY } from '../../infra/constructs/api-key-secret';
import { runSecondsFor } from '../../infra/stacks-watch-stack';
import { fixture, onlyResource, type Synthesized, synthStack } from './support/synth';

const CONTRACT = 'SP2C2YFP12AJZB4MABJBAJ55XECVS7E4PMMZ89YZR.arkadiko-token';

let defaults: Synthesized;
let custom: Synthesized;

beforeAll(() => {
  defaults = synthStack();
  custom = synthStack({
    scheduleMinutes: '5',
    timeoutSeconds: '330',
    memorySize: '512',
    deletionProtection: 'false',
    createApiKeySecret: 'true',
    stacksApiRpm: '120',
    logRetentionDays: '7',
    logLevel: 'DEBUG',
    reserveConcurrency: 'false',
    detailedMetrics: 'true',
    alertEmails: 'alice@example.com',
    alertPhoneNumbers: '+14155550123',
    alertSubscriptions: JSON.stringify([{ email: 'desk@example.com', types: ['contract_log'], contracts: [CONTRACT] }]),
    opsEmails: 'ops@example.com',
  });
});

const ref = (template: Synthesized['template'], type: string) => ({ Ref: onlyResource(template, type).id });
const arnOf = (template: Synthesized['template'], type: string) => ({ 'Fn::GetAtt': [onlyResource(template, type).id, 'Arn'] });
const topicRefOf = (s: Synthesized, which: 'alerts' | 'operations') => ({
  Ref: s.stack.getLogicalId(s.stack.topics[which].node.defaultChild as CfnElement),
});
const topicIds = (template: Synthesized['template']) => Object.keys(template.findResources('AWS::SNS::Topic'));
const environment = (s: Synthesized) => onlyResource(s.template, 'AWS::Lambda::Function').resource.Properties.Environment.Variables;

describe('state table', () => {
  it('is an on-demand table keyed pk/sk with TTL on expiresAt and point-in-time recovery', () => {
    defaults.template.hasResourceProperties('AWS::DynamoDB::GlobalTable', {
      BillingMode: 'PAY_PER_REQUEST',
      KeySchema: [
        { AttributeName: 'pk', KeyType: 'HASH' },
        { AttributeName: 'sk', KeyType: 'RANGE' },
      ],
      AttributeDefinitions: [
        { AttributeName: 'pk', AttributeType: 'S' },
        { AttributeName: 'sk', AttributeType: 'S' },
      ],
      TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true },
      Replicas: [Match.objectLike({ PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true } })],
    });
  });

  it('is protected from deletion and retained with the stack by default', () => {
    defaults.template.hasResource('AWS::DynamoDB::GlobalTable', {
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
      Properties: Match.objectLike({ Replicas: [Match.objectLike({ DeletionProtectionEnabled: true })] }),
    });
  });

  it('goes with a throwaway stack when deletion protection is turned off', () => {
    custom.template.hasResource('AWS::DynamoDB::GlobalTable', {
      DeletionPolicy: 'Delete',
      Properties: Match.objectLike({ Replicas: [Match.objectLike({ DeletionProtectionEnabled: false })] }),
    });
  });
});

describe('topics and their key', () => {
  let customerKey: Synthesized;
  beforeAll(() => {
    customerKey = synthStack({ encryptionKey: 'customer' });
  });
  const topicProps = (s: Synthesized, which: 'alerts' | 'operations') =>
    s.template.toJSON().Resources[topicRefOf(s, which).Ref].Properties as Record<string, unknown>;

  it('by default encrypts the alerts topic with the AWS-managed aws/sns key and creates no key of its own', () => {
    defaults.template.resourceCountIs('AWS::KMS::Key', 0);
    expect(topicProps(defaults, 'alerts').KmsMasterKeyId).toEqual({
      'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':kms:', { Ref: 'AWS::Region' }, ':', { Ref: 'AWS::AccountId' }, ':alias/aws/sns']],
    });
  });

  it('by default leaves the operations topic, which carries alarm notices only, unencrypted so CloudWatch alarms can publish', () => {
    expect(topicProps(defaults, 'operations')).not.toHaveProperty('KmsMasterKeyId');
  });

  it('with encryptionKey=customer encrypts both topics with one customer-managed key that rotates', () => {
    const key = onlyResource(customerKey.template, 'AWS::KMS::Key');
    expect(key.resource.Properties.EnableKeyRotation).toBe(true);
    const topics = Object.values(customerKey.template.findResources('AWS::SNS::Topic'));
    expect(topics.map((topic) => topic.Properties.KmsMasterKeyId)).toEqual([{ 'Fn::GetAtt': [key.id, 'Arn'] }, { 'Fn::GetAtt': [key.id, 'Arn'] }]);
  });

  it("with encryptionKey=customer lets only this account's CloudWatch alarms use the key to publish", () => {
    customerKey.template.hasResourceProperties('AWS::KMS::Key', {
      KeyPolicy: {
        Statement: Match.arrayWith([
          {
            Sid: 'CloudWatchAlarmsPublish',
            Effect: 'Allow',
            Principal: { Service: 'cloudwatch.amazonaws.com' },
            Action: ['kms:Decrypt', 'kms:GenerateDataKey'],
            Resource: '*',
            Condition: { StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } } },
          },
        ]),
      },
    });
  });

  it('rejects an encryptionKey other than aws-managed or customer', () => {
    expect(() => synthStack({ encryptionKey: 'kms' })).toThrow(/encryptionKey: must be aws-managed or customer \(found: "kms"\)/);
  });

  it('refuses publishes without TLS on both topics', () => {
    for (const topicId of topicIds(defaults.template)) {
      defaults.template.hasResourceProperties('AWS::SNS::TopicPolicy', {
        Topics: [{ Ref: topicId }],
        PolicyDocument: {
          Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Action: 'sns:Publish', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]),
        },
      });
    }
  });

  it('lets CloudWatch alarms of this account publish to the operations topic', () => {
    defaults.template.hasResourceProperties('AWS::SNS::TopicPolicy', {
      Topics: [topicRefOf(defaults, 'operations')],
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Effect: 'Allow',
            Principal: { Service: 'cloudwatch.amazonaws.com' },
            Action: 'sns:Publish',
            Condition: { StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } }, ArnLike: Match.anyValue() },
          }),
        ]),
      },
    });
  });
});

describe('subscriptions', () => {
  it('creates none unless asked', () => {
    defaults.template.resourceCountIs('AWS::SNS::Subscription', 0);
  });

  it('subscribes alert emails to every alert but the SMS digest', () => {
    const subscription = custom.template.findResources('AWS::SNS::Subscription', {
      Properties: { Protocol: 'email', Endpoint: 'alice@example.com', TopicArn: topicRefOf(custom, 'alerts') },
    });
    expect(Object.values(subscription).map((s) => s.Properties.FilterPolicy)).toEqual([{ sms: [{ 'anything-but': ['digest'] }] }]);
  });

  it('subscribes alert phone numbers by SMS', () => {
    custom.template.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'sms',
      Endpoint: '+14155550123',
      TopicArn: topicRefOf(custom, 'alerts'),
    });
  });

  it('filters a subscription on the message attributes it names', () => {
    custom.template.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: 'desk@example.com',
      FilterPolicyScope: 'MessageAttributes',
      FilterPolicy: { type: ['contract_log'], contract_id: [CONTRACT], sms: [{ 'anything-but': ['digest'] }] },
    });
  });

  it('subscribes operations emails to the operations topic only', () => {
    const found = custom.template.findResources('AWS::SNS::Subscription', { Properties: { Endpoint: 'ops@example.com' } });
    expect(Object.values(found).map((s) => s.Properties.TopicArn)).toEqual([topicRefOf(custom, 'operations')]);
  });
});

describe('synth warnings', () => {
  it('warn when nobody would receive the alerts or the alarms, pointing to deploy.json rather than a -c the next deploy drops', () => {
    const annotations = Annotations.fromStack(defaults.stack);
    annotations.hasWarning('/StacksWatch', Match.stringLikeRegexp('Nobody is subscribed to the alerts: write alertEmails .* in deploy\\.json'));
    annotations.hasWarning('/StacksWatch', Match.stringLikeRegexp('Nobody is subscribed to the alarms: write opsEmails .* in deploy\\.json'));
    annotations.hasNoWarning('/StacksWatch', Match.stringLikeRegexp('deploy with -c'));
  });

  it('stay quiet once both have subscribers', () => {
    Annotations.fromStack(custom.stack).hasNoWarning('*', Match.stringLikeRegexp('Nobody is subscribed'));
  });
});

describe('function', () => {
  it('runs Node 24 on ARM with 256 MB, 120 s and one reserved execution by default', () => {
    defaults.template.hasResourceProperties('AWS::Lambda::Function', {
      Runtime: 'nodejs24.x',
      Architectures: ['arm64'],
      Handler: 'index.handler',
      MemorySize: 256,
      Timeout: 120,
      ReservedConcurrentExecutions: 1,
    });
  });

  it('takes memory, timeout and concurrency from context', () => {
    const fn = onlyResource(custom.template, 'AWS::Lambda::Function').resource.Properties;
    expect([fn.MemorySize, fn.Timeout, fn.ReservedConcurrentExecutions]).toEqual([512, 330, undefined]);
  });

  it('tells the handler its table, alerts and ops topics, API and Powertools settings', () => {
    expect(environment(defaults)).toEqual({
      TABLE_NAME: ref(defaults.template, 'AWS::DynamoDB::GlobalTable'),
      TOPIC_ARN: topicRefOf(defaults, 'alerts'),
      OPS_TOPIC_ARN: topicRefOf(defaults, 'operations'),
      WATCH_CONFIG_BUCKET: { Ref: defaults.stack.getLogicalId(defaults.stack.watchConfigStore.bucket.node.defaultChild as CfnElement) },
      WATCH_CONFIG_KEY: 'watch.json',
      STACKS_API_URL: 'https://api.hiro.so',
      RUN_SECONDS: '50',
      SCHEDULE_SECONDS: '60',
      POWERTOOLS_SERVICE_NAME: 'stacks-watch',
      POWERTOOLS_METRICS_NAMESPACE: 'StacksWatch',
      POWERTOOLS_LOG_LEVEL: 'INFO',
      LAG_ALARM_SECONDS: '600',
      NODE_OPTIONS: '--enable-source-maps --max-old-space-size=128',
    });
  });

  it("bounds V8's heap to half the function's memory, so that it collects before the function runs out", () => {
    expect(environment(custom).NODE_OPTIONS).toBe('--enable-source-maps --max-old-space-size=256');
  });

  it('passes the rate, log level, detailed metrics and the created secret when they are set', () => {
    expect(environment(custom)).toMatchObject({
      DETAILED_METRICS: 'true',
      STACKS_API_RPM: '120',
      POWERTOOLS_LOG_LEVEL: 'DEBUG',
      STACKS_API_KEY_SECRET_ARN: ref(custom.template, 'AWS::SecretsManager::Secret'),
    });
  });

  it('ends each run before the next is due, so runs never overlap into throttling and the dead-letter queue', () => {
    expect(runSecondsFor(60)).toBe(50);
    expect(runSecondsFor(300)).toBe(290);
    expect(environment(custom).RUN_SECONDS).toBe('290'); // scheduleMinutes 5
  });

  it('tells the handler the schedule interval, which paces the sweep of a long contract watch list', () => {
    expect(environment(custom).SCHEDULE_SECONDS).toBe('300'); // scheduleMinutes 5
  });

  it('uses the testnet API for a testnet watch config', () => {
    expect(environment(synthStack({ watchConfig: fixture('watch-testnet.json') })).STACKS_API_URL).toBe('https://api.testnet.hiro.so');
  });

  it('does not retry a failed run, drops it after one interval, and sends it to the dead-letter queue', () => {
    const dlq = arnOf(defaults.template, 'AWS::SQS::Queue');
    defaults.template.hasResourceProperties('AWS::Lambda::EventInvokeConfig', {
      MaximumRetryAttempts: 0,
      MaximumEventAgeInSeconds: 60,
      Qualifier: '$LATEST',
      DestinationConfig: { OnFailure: { Destination: dlq } },
    });
    custom.template.hasResourceProperties('AWS::Lambda::EventInvokeConfig', { MaximumEventAgeInSeconds: 300 });
  });

  it('has an encrypted dead-letter queue that refuses plain HTTP', () => {
    defaults.template.hasResourceProperties('AWS::SQS::Queue', { SqsManagedSseEnabled: true, MessageRetentionPeriod: 1_209_600 });
    defaults.template.hasResourceProperties('AWS::SQS::QueuePolicy', {
      PolicyDocument: { Statement: [Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })] },
    });
  });

  it("logs JSON at the deploy's log level with Lambda's own START, END and REPORT lines left out (system level WARN)", () => {
    const logging = (s: Synthesized) => onlyResource(s.template, 'AWS::Lambda::Function').resource.Properties.LoggingConfig;
    expect(logging(defaults)).toMatchObject({ LogFormat: 'JSON', SystemLogLevel: 'WARN', ApplicationLogLevel: 'INFO' });
    expect(logging(custom)).toMatchObject({ LogFormat: 'JSON', SystemLogLevel: 'WARN', ApplicationLogLevel: 'DEBUG' });
    // Lambda takes a line without a level for INFO: above INFO it would drop the metrics' EMF records.
    const quiet = logging(synthStack({ logLevel: 'WARN' }));
    expect([quiet.LogFormat, quiet.SystemLogLevel, quiet.ApplicationLogLevel]).toEqual([undefined, undefined, undefined]);
  });

  it('logs to its own log group with the retention from context', () => {
    const logGroup = ref(defaults.template, 'AWS::Logs::LogGroup');
    defaults.template.hasResourceProperties('AWS::Lambda::Function', { LoggingConfig: { LogGroup: logGroup } });
    defaults.template.hasResourceProperties('AWS::Logs::LogGroup', { RetentionInDays: 30 });
    custom.template.hasResourceProperties('AWS::Logs::LogGroup', { RetentionInDays: 7 });
  });
});

describe('schedule', () => {
  it('invokes the function every minute by default, once, for at most a minute', () => {
    defaults.template.hasResourceProperties('AWS::Scheduler::Schedule', {
      ScheduleExpression: 'rate(1 minute)',
      State: 'ENABLED',
      Target: {
        Arn: arnOf(defaults.template, 'AWS::Lambda::Function'),
        RetryPolicy: { MaximumRetryAttempts: 0, MaximumEventAgeInSeconds: 60 },
        DeadLetterConfig: { Arn: arnOf(defaults.template, 'AWS::SQS::Queue') },
      },
    });
  });

  it('runs every scheduleMinutes', () => {
    custom.template.hasResourceProperties('AWS::Scheduler::Schedule', { ScheduleExpression: 'rate(5 minutes)' });
  });
});

describe('API key secret', () => {
  it('is not created unless asked', () => {
    defaults.template.resourceCountIs('AWS::SecretsManager::Secret', 0);
    expect(environment(defaults).STACKS_API_KEY_SECRET_ARN).toBeUndefined();
  });

  it('is created blank for the operator to fill, and named in the outputs', () => {
    custom.template.hasResourceProperties('AWS::SecretsManager::Secret', { SecretString: BLANK_API_KEY });
    custom.template.hasOutput('ApiKeySecretArn', { Value: ref(custom.template, 'AWS::SecretsManager::Secret') });
  });

  it('is referenced, not created, when an existing one is given', () => {
    const secretArn = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:hiro-key-AbCdEf';
    const withExisting = synthStack({ apiKeySecretArn: secretArn });
    withExisting.template.resourceCountIs('AWS::SecretsManager::Secret', 0);
    expect(environment(withExisting).STACKS_API_KEY_SECRET_ARN).toBe(secretArn);
  });
});

describe('the alerts topic', () => {
  it('signs with SHA256 (SignatureVersion 2), which the example webhook receiver requires', () => {
    const { template } = synthStack();
    template.hasResourceProperties('AWS::SNS::Topic', { DisplayName: 'Stacks Watch', SignatureVersion: '2' });
  });
});
