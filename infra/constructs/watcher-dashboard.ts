// One CloudWatch dashboard for the operator: is the watcher keeping up, what did it alert, how hard is it
// leaning on the Stacks API, and is anything failing.
import { Aws, Duration } from 'aws-cdk-lib';
import { AlarmStatusWidget, Dashboard, GraphWidget, type IAlarm, type IMetric } from 'aws-cdk-lib/aws-cloudwatch';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { ALERT_TYPES } from '../alert-message';
import type { WatcherMetrics } from './watcher-metrics';

const PERIOD = Duration.minutes(5);
const WIDTH = 12;
const HEIGHT = 6;

export interface WatcherDashboardProps {
  fn: IFunction;
  /** The loop's turns function, in the loop mode: most invocations are its turns, graphed beside the watcher's runs. */
  turns?: IFunction;
  deadLetterQueue: IQueue;
  metrics: WatcherMetrics;
  alarms: IAlarm[];
}

export class WatcherDashboard extends Construct {
  readonly dashboard: Dashboard;

  constructor(scope: Construct, id: string, props: WatcherDashboardProps) {
    super(scope, id);
    const { metrics, fn, turns } = props;
    const sum = { statistic: 'Sum', period: PERIOD };
    const max = { statistic: 'Maximum', period: PERIOD };
    const graph = (title: string, left: IMetric[], right: IMetric[] = []) => new GraphWidget({ title, left, right, width: WIDTH, height: HEIGHT });
    /** A function's invocation time, average and longest. */
    const durations = (f: IFunction, what: string) => [
      f.metricDuration({ statistic: 'Average', period: PERIOD, label: `${what}, average` }),
      f.metricDuration({ ...max, label: `${what}, max` }),
    ];

    this.dashboard = new Dashboard(this, 'Dashboard', {
      defaultInterval: Duration.days(1),
      widgets: [
        [new AlarmStatusWidget({ title: 'Alarms', alarms: props.alarms, width: 2 * WIDTH, height: 3 })],
        [
          graph(
            'Chain lag (seconds behind the newest scanned block; blocks behind the tip on the right)',
            [metrics.metric('ChainLagSeconds', { ...max, label: 'seconds' })],
            [metrics.metric('ChainLagBlocks', { ...max, label: 'blocks' })],
          ),
          graph(
            'Blocks scanned and reorgs',
            [metrics.metric('BlocksScanned', { ...sum, label: 'blocks scanned' })],
            [metrics.metric('ReorgsDetected', { ...sum, label: 'reorgs' }), metrics.metric('DeepReorgs', { ...sum, label: 'deep reorgs' })],
          ),
        ],
        [
          graph(
            'Alerts published, by type',
            ALERT_TYPES.map((type) => metrics.metric('AlertsPublished', { ...sum, label: type, dimensions: { type } })),
          ),
          graph('Stacks API requests', [
            metrics.metric('ApiRequests', { ...sum, label: 'requests' }),
            metrics.metric('ApiThrottled', { ...sum, label: '429 throttled' }),
            metrics.metric('ApiErrors', { ...sum, label: 'other errors' }),
          ]),
        ],
        [
          graph('Run duration (ms)', [
            ...durations(fn, 'invocation'),
            ...(turns ? durations(turns, 'loop turn') : []),
            metrics.metric('CycleDurationMs', { ...max, label: 'cycle, max' }),
          ]),
          graph(
            'Failures',
            [
              fn.metricErrors({ ...sum, label: 'function errors' }),
              fn.metricThrottles({ ...sum, label: 'function throttles (overlapping runs)' }),
              // A turn killed at its timeout (the loop's delay) shows here and in no dead-letter queue.
              ...(turns ? [turns.metricErrors({ ...sum, label: 'loop turn errors' }), turns.metricThrottles({ ...sum, label: 'loop turn throttles' })] : []),
            ],
            [props.deadLetterQueue.metricApproximateNumberOfMessagesVisible({ ...max, label: 'lost runs queued' })],
          ),
        ],
      ],
    });
  }

  /** The console address of the dashboard, for the stack output. */
  get url(): string {
    return `https://${Aws.REGION}.console.aws.amazon.com/cloudwatch/home?region=${Aws.REGION}#dashboards:name=${this.dashboard.dashboardName}`;
  }
}
