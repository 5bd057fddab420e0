// One notifier function per chat channel in the deploy settings (`chat`), subscribed to the alerts topic with
// that channel's filter policy, so routing by type, severity, contract or address works per channel as it does
// per subscriber. The secret (webhook URL, bot token, routing key) stays in its SSM SecureString parameter: the
// template and the function's environment hold only its name, and each function may read only its own. What a
// channel keeps refusing lands, after Lambda's two retries, in one dead-letter queue whose alarm pages ops.
import { join } from 'node:path';
import { Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, type IDestination, Runtime } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { ESM_BUNDLING } from './bundling';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { CfnSubscription, type ITopic } from 'aws-cdk-lib/aws-sns';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { routedFilterPolicy } from '../alert-filter-policy';
import type { ChatSubscription } from '../settings/chat-settings';

export const NOTIFIER_ENTRY = 'lambda/notifier/handler.ts';

/**
 * Concurrent executions reserved for each notifier. Chat APIs take about one post a second per webhook or chat
 * (Slack, Telegram; Discord five in two seconds), so a catch-up's burst of alerts, each its own invocation,
 * would otherwise run in parallel and be refused with 429s that burn its retries. Two lets one post wait out a
 * Retry-After while the next goes; the rest of a burst is throttled, which Lambda retries for up to six hours
 * without spending the function's retries. Reserved concurrency comes out of the account's unreserved pool (at
 * least 100 must stay unreserved): 2 per channel, beside the watcher's 1 or 2; `reserveConcurrency: false`
 * reserves none, for accounts whose quota has no room.
 */
export const NOTIFIER_CONCURRENCY = 2;

export interface ChatNotifiersProps {
  projectRoot: string;
  alertsTopic: ITopic;
  operationsTopic: ITopic;
  chat: readonly ChatSubscription[];
  logRetention: RetentionDays;
  serviceName: string;
  logLevel: string;
  /** Reserve NOTIFIER_CONCURRENCY executions per notifier (the deploy setting `reserveConcurrency`). */
  reserveConcurrency: boolean;
}

export class ChatNotifiers extends Construct {
  readonly functions: NodejsFunction[] = [];
  readonly deadLetterQueue: Queue;
  readonly failedPosts: Alarm;

  constructor(scope: Construct, id: string, props: ChatNotifiersProps) {
    super(scope, id);
    this.deadLetterQueue = new Queue(this, 'DeadLetters', { encryption: QueueEncryption.SQS_MANAGED, enforceSSL: true, retentionPeriod: Duration.days(14) });
    Validations.of(this.deadLetterQueue).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason: 'This queue is itself the dead-letter destination of the chat notifiers; nothing consumes it.',
    });
    props.chat.forEach((subscription, index) => this.functions.push(this.notifier(subscription, index, props)));
    this.failedPosts = new Alarm(this, 'FailedPosts', {
      metric: this.deadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5), statistic: 'Maximum' }),
      threshold: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
      alarmDescription:
        "A chat channel did not take an alert after three attempts and Lambda's retries. The queued event names the alert; " +
        "the notifier's log says what the service answered (a revoked webhook, a bot removed from the chat). Purge the queue once understood.",
    });
    this.failedPosts.addAlarmAction(new SnsAction(props.operationsTopic));
  }

  private notifier({ channel, parameterName, filter }: ChatSubscription, index: number, props: ChatNotifiersProps): NodejsFunction {
    const scope = new Construct(this, `${channel}${index}`);
    const logGroup = new LogGroup(scope, 'Logs', { retention: props.logRetention, removalPolicy: RemovalPolicy.DESTROY });
    const role = new Role(scope, 'Role', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: `stacks-watch ${channel} notifier: its SSM parameter, its logs, the chat dead-letter queue`,
    });
    const { partition, region, account } = Stack.of(this);
    const allow = (actions: string[], resource: string) => role.addToPrincipalPolicy(new PolicyStatement({ actions, resources: [resource] }));
    // A SecureString under the AWS-managed aws/ssm key needs no KMS grant; a customer key would.
    allow(['ssm:GetParameter'], `arn:${partition}:ssm:${region}:${account}:parameter${parameterName}`);
    allow(['logs:CreateLogStream', 'logs:PutLogEvents'], logGroup.logGroupArn);
    allow(['sqs:SendMessage'], this.deadLetterQueue.queueArn);
    const deadLetterQueue = this.deadLetterQueue;
    const onFailure: IDestination = { bind: () => ({ destination: deadLetterQueue.queueArn }) };
    const fn = new NodejsFunction(scope, 'Function', {
      description: `stacks-watch: posts alerts to ${channel}`,
      entry: join(props.projectRoot, NOTIFIER_ENTRY),
      projectRoot: props.projectRoot,
      depsLockFilePath: join(props.projectRoot, 'package-lock.json'),
      handler: 'handler',
      runtime: Runtime.NODEJS_24_X,
      architecture: Architecture.ARM_64,
      memorySize: 128,
      // Three attempts, each up to 10 s, and a Retry-After of up to 30 s between them.
      timeout: Duration.seconds(120),
      role,
      logGroup,
      environment: {
        CHAT_CHANNEL: channel,
        CHAT_PARAMETER: parameterName,
        POWERTOOLS_SERVICE_NAME: `${props.serviceName}-${channel}`,
        POWERTOOLS_LOG_LEVEL: props.logLevel,
        NODE_OPTIONS: '--enable-source-maps',
      },
      retryAttempts: 2,
      onFailure,
      ...(props.reserveConcurrency ? { reservedConcurrentExecutions: NOTIFIER_CONCURRENCY } : {}),
      bundling: ESM_BUNDLING,
    });
    fn.addPermission('FromAlertsTopic', { principal: new ServicePrincipal('sns.amazonaws.com'), sourceArn: props.alertsTopic.topicArn });
    // Every alert the filter lets through but the SMS digest, like a webhook subscriber.
    new CfnSubscription(scope, 'Subscription', {
      topicArn: props.alertsTopic.topicArn,
      protocol: 'lambda',
      endpoint: fn.functionArn,
      filterPolicy: routedFilterPolicy(filter, 'https'),
      filterPolicyScope: 'MessageAttributes',
    });
    return fn;
  }
}
