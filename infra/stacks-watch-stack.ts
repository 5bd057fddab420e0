// The whole watcher in one stack: state table, alert and operations topics with their subscribers, the
// function and its schedule, the API key secret, the alarms that page someone, and on request a dashboard
// and a customer-managed key.
import { fileURLToPath } from 'node:url';
import { Annotations, CfnOutput, Duration, Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import type { Network } from '../lambda/core/domain';
import { loopTurnSeconds } from '../lambda/core/scan/loop-turns';
import type { BundledWatchConfig } from './bundled-watch-config';
import { AlertTopics } from './constructs/alert-topics';
import { ChatNotifiers } from './constructs/chat-notifiers';
import { Doorbell } from './constructs/doorbell';
import { apiKeySecret } from './constructs/api-key-secret';
import { StateTable } from './constructs/state-table';
import { TopicSubscriptions } from './constructs/topic-subscriptions';
import { WatchSchedule } from './constructs/watch-schedule';
import { WatcherAlarms } from './constructs/watcher-alarms';
import { WatcherDashboard } from './constructs/watcher-dashboard';
import { WatcherFunction } from './constructs/watcher-function';
import { WatcherMetrics } from './constructs/watcher-metrics';
import { WatchConfigStore } from './constructs/watch-config-store';
import { nodeOptions, type DeploySettings } from './settings/deploy-settings';

export const DEFAULT_API_URLS: Record<Network, string> = {
  mainnet: 'https://api.hiro.so',
  testnet: 'https://api.testnet.hiro.so',
};

export const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));

export interface StacksWatchStackProps extends StackProps {
  settings: DeploySettings;
  watchConfig: BundledWatchConfig;
  /** Defaults to the repository this file is in. */
  projectRoot?: string;
  /** Different at every synth (the default: the time), so that every deploy reports the live watch config version. */
  deployId?: string;
}

export class StacksWatchStack extends Stack {
  readonly state: StateTable;
  readonly topics: AlertTopics;
  readonly watcher: WatcherFunction;
  readonly schedule: WatchSchedule;
  readonly alarms: WatcherAlarms;
  readonly dashboard: WatcherDashboard | undefined;
  /** The function URL a push source rings (docs/doorbell.md), when `doorbell` is set. */
  readonly doorbell: Doorbell | undefined;
  readonly watchConfigStore: WatchConfigStore;

  constructor(scope: Construct, id: string, props: StacksWatchStackProps) {
    super(scope, id, props);
    const { settings, watchConfig } = props;
    const interval = Duration.minutes(settings.scheduleMinutes);

    this.state = new StateTable(this, 'State', { deletionProtection: settings.deletionProtection });
    this.topics = new AlertTopics(this, 'Topics', { encryption: settings.encryptionKey });
    new TopicSubscriptions(this, 'AlertSubscribers', {
      topic: this.topics.alerts,
      subscriptions: settings.alertSubscriptions,
      routeSms: true,
    });
    new TopicSubscriptions(this, 'OperationsSubscribers', {
      topic: this.topics.operations,
      subscriptions: settings.opsEmails.map((endpoint) => ({ protocol: 'email', endpoint, filter: {} })),
    });
    const secret = apiKeySecret(this, settings.apiKey);
    this.warnAboutMissingSubscribers(settings);
    for (const warning of watchConfig.warnings ?? []) Annotations.of(this).addWarningV2('stacks-watch:tokenDecimalsAtFirstRun', warning);

    this.watchConfigStore = new WatchConfigStore(this, 'WatchConfig', {
      projectRoot: props.projectRoot ?? PROJECT_ROOT,
      watchConfigPath: watchConfig.path,
      replace: settings.replaceWatchConfig,
      deployId: props.deployId ?? new Date().toISOString(),
      logRetention: settings.logRetentionDays,
    });
    const configStore = this.watchConfigStore;
    this.watcher = new WatcherFunction(this, 'Watcher', {
      projectRoot: props.projectRoot ?? PROJECT_ROOT,
      watchConfigObjectArn: configStore.bucket.arnForObjects(configStore.key),
      table: this.state.table,
      alertsTopic: this.topics.alerts,
      opsTopic: this.topics.operations,
      ...(this.topics.key ? { topicKey: this.topics.key } : {}),
      ...(secret ? { apiKeySecret: secret } : {}),
      environment: {
        TABLE_NAME: this.state.table.tableName,
        TOPIC_ARN: this.topics.alerts.topicArn,
        OPS_TOPIC_ARN: this.topics.operations.topicArn,
        WATCH_CONFIG_BUCKET: configStore.bucket.bucketName,
        WATCH_CONFIG_KEY: configStore.key,
        STACKS_API_URL: settings.stacksApiUrl ?? DEFAULT_API_URLS[watchConfig.config.network],
        ...(settings.stacksApiRpm !== undefined ? { STACKS_API_RPM: String(settings.stacksApiRpm) } : {}),
        ...(secret ? { STACKS_API_KEY_SECRET_ARN: secret.secretArn } : {}),
        // A run ends before the next is due: an overlap would be throttled (reserved concurrency 1) and,
        // once older than maxEventAge, land in the dead-letter queue and raise its alarm.
        RUN_SECONDS: String(runSecondsFor(interval.toSeconds())),
        // Long watch lists have their statuses checked a slice per interval, positioned by the clock.
        SCHEDULE_SECONDS: String(interval.toSeconds()),
        POWERTOOLS_SERVICE_NAME: settings.serviceName,
        POWERTOOLS_METRICS_NAMESPACE: settings.metricsNamespace,
        POWERTOOLS_LOG_LEVEL: settings.logLevel,
        // The schedule's tick tells the operations topic when the last scanned block is older than this.
        LAG_ALARM_SECONDS: String(settings.lagAlarmSeconds),
        // How each run reads the chain: unset, the function follows the fetch plan (auto); block-scan or per-subject when named (docs/api-routes.md).
        ...(settings.fetchWay !== undefined ? { FETCH_WAY: settings.fetchWay } : {}),
        ...(settings.detailedMetrics ? { DETAILED_METRICS: 'true' } : {}),
        NODE_OPTIONS: nodeOptions(settings.memorySize),
      },
      memorySize: settings.memorySize,
      timeout: Duration.seconds(settings.timeoutSeconds),
      scheduleInterval: interval,
      reserveConcurrency: settings.reserveConcurrency,
      logRetention: settings.logRetentionDays,
      logLevel: settings.logLevel,
      // A turn works the delay less its margin: its function times out at the delay (watcher-function.ts).
      ...(settings.latency === 'loop' ? { loop: { delaySeconds: settings.loopDelaySeconds, turnSeconds: loopTurnSeconds(settings.loopDelaySeconds) } } : {}),
    });
    this.doorbell = undefined;
    if (settings.doorbell) {
      const { role, logGroup, environment } = this.watcher;
      const doorbellProps = { settings: settings.doorbell, role, logGroup, logLevel: settings.logLevel, environment, memorySize: settings.memorySize };
      this.doorbell = new Doorbell(this, 'Doorbell', {
        projectRoot: props.projectRoot ?? PROJECT_ROOT,
        ...doorbellProps,
        timeout: Duration.seconds(settings.timeoutSeconds),
      });
    }
    if (settings.chat.length > 0) {
      new ChatNotifiers(this, 'Chat', {
        projectRoot: props.projectRoot ?? PROJECT_ROOT,
        alertsTopic: this.topics.alerts,
        operationsTopic: this.topics.operations,
        chat: settings.chat,
        logRetention: settings.logRetentionDays,
        serviceName: settings.serviceName,
        logLevel: settings.logLevel,
        reserveConcurrency: settings.reserveConcurrency,
      });
    }
    const fn = this.watcher.function;
    const deadLetterQueue = this.watcher.deadLetterQueue;

    this.schedule = new WatchSchedule(this, 'Schedule', {
      fn,
      interval,
      maxEventAge: this.watcher.maxEventAge,
      deadLetterQueue,
    });

    const metrics = new WatcherMetrics(settings.metricsNamespace, settings.serviceName);
    this.alarms = new WatcherAlarms(this, 'Alarms', {
      fn,
      ...(this.watcher.turns ? { turns: this.watcher.turns } : {}),
      deadLetterQueue,
      metrics,
      operationsTopic: this.topics.operations,
      scheduleInterval: interval,
      lagAlarmSeconds: settings.lagAlarmSeconds,
      alarmOnErrors: settings.detailedMetrics,
      alarmOnLagMetric: settings.detailedMetrics,
      alarmOnParkedAlerts: settings.detailedMetrics,
    });
    const { functionErrors, turnErrors, deadLetters, noInvocations, chainLag, undeliverableAlerts } = this.alarms;
    // Its graphs need the detailed metrics, so they bring it; `dashboard` alone still asks for it.
    this.dashboard =
      settings.dashboard || settings.detailedMetrics
        ? new WatcherDashboard(this, 'Dashboard', {
            fn,
            turns: this.watcher.turns,
            deadLetterQueue,
            metrics,
            alarms: [chainLag, functionErrors, turnErrors, deadLetters, noInvocations, undeliverableAlerts].filter((alarm) => alarm !== undefined),
          })
        : undefined;

    new CfnOutput(this, 'AlertsTopicArn', { value: this.topics.alerts.topicArn });
    new CfnOutput(this, 'OperationsTopicArn', { value: this.topics.operations.topicArn });
    new CfnOutput(this, 'StateTableName', { value: this.state.table.tableName });
    new CfnOutput(this, 'FunctionName', { value: fn.functionName });
    if (this.watcher.turns) new CfnOutput(this, 'LoopFunctionName', { value: this.watcher.turns.functionName, description: "the loop's turns" });
    new CfnOutput(this, 'LogGroupName', { value: this.watcher.logGroup.logGroupName });
    new CfnOutput(this, 'DeadLetterQueueUrl', { value: deadLetterQueue.queueUrl });
    if (this.dashboard) new CfnOutput(this, 'DashboardUrl', { value: this.dashboard.url });
    if (secret) new CfnOutput(this, 'ApiKeySecretArn', { value: secret.secretArn });
    new CfnOutput(this, 'WatchConfigBucketName', { value: configStore.bucket.bucketName, description: 'npm run config -- push changes the watch list here' });
    new CfnOutput(this, 'WatchConfigKey', { value: configStore.key });
    new CfnOutput(this, 'WatchConfigLiveVersion', {
      value: configStore.seed.getAttString('VersionId'),
      description: 'the watch config version live after this deploy',
    });
    new CfnOutput(this, 'WatchConfigDeploy', { value: configStore.seed.getAttString('Action'), description: 'what this deploy did to the watch config' });
  }

  /** A deploy without subscribers is valid (subscribe later in the console) but is usually a mistake. */
  private warnAboutMissingSubscribers(settings: DeploySettings): void {
    // Pointed at deploy.json, which every deploy reads: a -c subscriber is dropped by the next plain deploy.
    if (settings.alertSubscriptions.length === 0 && settings.chat.length === 0) {
      Annotations.of(this).addWarningV2(
        'stacks-watch:noAlertSubscribers',
        'Nobody is subscribed to the alerts: write alertEmails (or alertPhoneNumbers, alertWebhooks, alertSubscriptions, chat) in deploy.json and deploy again.',
      );
    }
    for (const warning of settings.warnings ?? []) Annotations.of(this).addWarningV2('stacks-watch:subscriberNotInSettingsFile', warning);
    if (settings.dashboard && !settings.detailedMetrics) {
      Annotations.of(this).addWarningV2(
        'stacks-watch:dashboardWithoutDetailedMetrics',
        'The dashboard graphs blocks, API requests and run duration only with -c detailedMetrics=true; without it they stay empty.',
      );
    }
    if (settings.opsEmails.length === 0) {
      Annotations.of(this).addWarningV2(
        'stacks-watch:noOperationsSubscribers',
        'Nobody is subscribed to the alarms: write opsEmails (e.g. ["you@example.com"]) in deploy.json and deploy again.',
      );
    }
  }
}

/** Work time per invocation: the schedule interval less 10 s of start-up jitter, at least 20 s. */
export function runSecondsFor(intervalSeconds: number): number {
  return Math.max(20, intervalSeconds - 10);
}
