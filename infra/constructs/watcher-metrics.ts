// The custom metrics the function emits through Powertools (EMF), as CloudWatch metrics for alarms and the
// dashboard. Powertools adds the `service` dimension to every metric, so each is selected by it.
import { Duration } from 'aws-cdk-lib';
import { Metric, type MetricOptions } from 'aws-cdk-lib/aws-cloudwatch';
import type { MetricName } from '../../lambda/core/ports';

/** The core's metrics, plus those the handler counts around Hiro requests. */
export type WatcherMetricName = MetricName | 'ApiRequests' | 'ApiThrottled' | 'ApiErrors';

export const SERVICE_DIMENSION = 'service';

export class WatcherMetrics {
  constructor(
    readonly namespace: string,
    readonly serviceName: string,
  ) {}

  metric(name: WatcherMetricName, options: MetricOptions & { dimensions?: Record<string, string> } = {}): Metric {
    const { dimensions, ...rest } = options;
    return new Metric({
      namespace: this.namespace,
      metricName: name,
      period: Duration.minutes(5),
      ...rest,
      dimensionsMap: { [SERVICE_DIMENSION]: this.serviceName, ...dimensions },
    });
  }
}
