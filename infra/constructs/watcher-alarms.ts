// The alarms that page someone, to the operations topic: the watcher failing, a lost run, or the watcher
// falling behind or going silent (and, with detailed metrics, an alert parked as undeliverable, which the
// function reports to the operations topic itself in any case). Each description says what to look at. Conditions the function itself can
// name (a deep reorg, 429s that do not stop) are for it to report through its operator channel rather than
// as alarms of their own ($0.10 a month each, and a metric sent on every run for their missing data to mean
// anything).
import { Duration } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, type IMetric, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { WatcherMetrics } from './watcher-metrics';

const FIVE_MINUTES = Duration.minutes(5);

export interface WatcherAlarmsProps {
  fn: IFunction;
  deadLetterQueue: IQueue;
  metrics: WatcherMetrics;
  operationsTopic: ITopic;
  scheduleInterval: Duration;
  lagAlarmSeconds: number;
  /**
   * An alarm on alerts parked as undeliverable. Off by default ($0.10 a month): the function itself tells the
   * operations topic of each alert it parks, with the alert's key and the reason, the moment it parks it.
   */
  alarmOnParkedAlerts: boolean;
}

export class WatcherAlarms extends Construct {
  readonly functionErrors: Alarm;
  readonly deadLetters: Alarm;
  readonly chainLag: Alarm;
  readonly undeliverableAlerts: Alarm | undefined;

  constructor(scope: Construct, id: string, props: WatcherAlarmsProps) {
    super(scope, id);
    const { metrics } = props;
    const atLeastOnce = (alarmId: string, metric: IMetric, alarmDescription: string) =>
      this.alarm(alarmId, props.operationsTopic, {
        metric,
        threshold: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: TreatMissingData.NOT_BREACHING,
        alarmDescription,
      });

    this.functionErrors = atLeastOnce(
      'FunctionErrors',
      props.fn.metricErrors({ period: FIVE_MINUTES, statistic: 'Sum' }),
      'A stacks-watch run failed. Read the function logs ("invocation failed") for the cause; the next run retries.',
    );
    this.deadLetters = atLeastOnce(
      'DeadLetters',
      props.deadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: FIVE_MINUTES, statistic: 'Maximum' }),
      'A scheduled run was lost: it failed, or waited longer than one interval behind a run still going. The ' +
        'queued message says which (EventAgeExceeded means runs overlapped); a loop turn message there failed to ' +
        'start three times (the schedule restarts the loop). Purge the queue once understood.',
    );
    // A parked alert is one nobody received: the function sends the count only when it is not zero, so
    // missing data means none were lost.
    this.undeliverableAlerts = props.alarmOnParkedAlerts
      ? atLeastOnce(
          'UndeliverableAlerts',
          metrics.metric('AlertsUndeliverable', { period: FIVE_MINUTES, statistic: 'Sum' }),
          'An alert could not be published and was parked. Read the function logs ("alert parked") for the alert ' +
            'and the reason (a refused message, a missing topic or permission), fix it, and publish it by hand if needed.',
        )
      : undefined;
    // A watcher that stopped running emits no lag at all, so silence counts as lag.
    const lagPeriod = Duration.minutes(Math.max(FIVE_MINUTES.toMinutes(), props.scheduleInterval.toMinutes()));
    this.chainLag = this.alarm('ChainLag', props.operationsTopic, {
      metric: metrics.metric('ChainLagSeconds', { statistic: 'Maximum', period: lagPeriod }),
      threshold: props.lagAlarmSeconds,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 2,
      datapointsToAlarm: 2,
      treatMissingData: TreatMissingData.BREACHING,
      alarmDescription:
        `The last scanned block is over ${props.lagAlarmSeconds} s old, or the watcher stopped reporting. Check ` +
        'that the schedule is enabled, the function succeeds, and the Stacks API answers.',
    });
  }

  private alarm(id: string, topic: ITopic, props: ConstructorParameters<typeof Alarm>[2]): Alarm {
    const alarm = new Alarm(this, id, props);
    alarm.addAlarmAction(new SnsAction(topic));
    alarm.addOkAction(new SnsAction(topic));
    return alarm;
  }
}
