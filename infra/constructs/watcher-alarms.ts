// The alarms that page someone, to the operations topic, on metrics AWS emits for free: a run that failed or was
// lost (the dead-letter queue: Lambda sends a failed scheduled run there, a failed loop turn sends itself), and a
// function nobody invokes any more (a schedule that stopped). A watcher that runs but makes no progress (a stuck
// block, a chain that does not link, a dead loop, lag past the limit) is told of by the schedule's tick itself,
// with the cause (lambda/core/health/self-watch.ts). With detailed metrics, an alarm on the function's errors
// (which pages within a minute, where the queue's metric may come a few minutes later; in the loop mode one on the
// turns' function too, whose turns killed at their timeout reach no dead-letter queue), the lag metric's own
// alarm and one on alerts parked as undeliverable are added ($0.30 a series and $0.10 an alarm a month).
// Each description says what to look at.
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
  /** The loop's turns function, in the loop mode: its errors are alarmed beside the watcher's (`alarmOnErrors`). */
  turns?: IFunction;
  deadLetterQueue: IQueue;
  metrics: WatcherMetrics;
  operationsTopic: ITopic;
  scheduleInterval: Duration;
  lagAlarmSeconds: number;
  /**
   * An alarm on the function's errors. Off by default ($0.10 a month): every failed run also lands in the
   * dead-letter queue, whose alarm pages for it.
   */
  alarmOnErrors: boolean;
  /** The lag metric's alarm, beside the tick's own judgement (the metric is sent with detailed metrics only). */
  alarmOnLagMetric: boolean;
  /**
   * An alarm on alerts parked as undeliverable. Off by default ($0.10 a month): the function itself tells the
   * operations topic of each alert it parks, with the alert's key and the reason, the moment it parks it.
   */
  alarmOnParkedAlerts: boolean;
}

export class WatcherAlarms extends Construct {
  readonly functionErrors: Alarm | undefined;
  /** The loop's turns' errors: a turn killed at its timeout (the loop's delay) reaches no dead-letter queue. */
  readonly turnErrors: Alarm | undefined;
  readonly deadLetters: Alarm;
  readonly noInvocations: Alarm;
  readonly chainLag: Alarm | undefined;
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

    this.functionErrors = props.alarmOnErrors
      ? atLeastOnce(
          'FunctionErrors',
          props.fn.metricErrors({ period: FIVE_MINUTES, statistic: 'Sum' }),
          'A stacks-watch run failed. Read the function logs ("invocation failed") for the cause; the next run retries.',
        )
      : undefined;
    this.turnErrors =
      props.alarmOnErrors && props.turns
        ? atLeastOnce(
            'LoopTurnErrors',
            props.turns.metricErrors({ period: FIVE_MINUTES, statistic: 'Sum' }),
            'A loop turn failed or was killed at its timeout (the loop delay). Read the function logs ("invocation failed", ' +
              '"Task timed out") for the cause; its message comes back for the next turn.',
          )
        : undefined;
    this.deadLetters = atLeastOnce(
      'DeadLetters',
      props.deadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: FIVE_MINUTES, statistic: 'Maximum' }),
      'A run failed or was lost. The queued message says which and why: a scheduled run that failed (its error), ' +
        'or waited longer than one interval behind a run still going (EventAgeExceeded: runs overlapped); a loop ' +
        'turn that failed ("loop turn", its error), each time its message came back and failed again (the schedule ' +
        'restarts a loop that stopped). The function logs ("invocation failed") have the rest. Purge the queue once understood.',
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
    // Free: Lambda reports Invocations for every function. No data at all is a function nobody invokes.
    this.noInvocations = this.alarm('NoInvocations', props.operationsTopic, {
      metric: props.fn.metricInvocations({ period: FIVE_MINUTES, statistic: 'Sum' }),
      threshold: 1,
      comparisonOperator: ComparisonOperator.LESS_THAN_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: TreatMissingData.BREACHING,
      alarmDescription:
        'The watcher was not invoked in five minutes: its schedule is disabled or deleted, or the function cannot start. ' +
        'Check the EventBridge schedule and the function; nothing is watched meanwhile.',
    });
    this.chainLag = props.alarmOnLagMetric ? this.lagAlarm(props) : undefined;
  }

  /** A watcher that stopped running emits no lag at all, so silence counts as lag. */
  private lagAlarm(props: WatcherAlarmsProps): Alarm {
    const lagPeriod = Duration.minutes(Math.max(FIVE_MINUTES.toMinutes(), props.scheduleInterval.toMinutes()));
    return this.alarm('ChainLag', props.operationsTopic, {
      metric: props.metrics.metric('ChainLagSeconds', { statistic: 'Maximum', period: lagPeriod }),
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
