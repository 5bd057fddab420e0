// Telemetry over Powertools: structured JSON logs and EMF metrics, with the `service` dimension that the
// stack's alarms select on.
import type { Logger } from '@aws-lambda-powertools/logger';
import { MetricUnit, type Metrics } from '@aws-lambda-powertools/metrics';
import type { MetricName, Telemetry } from '../core/ports';

type Unit = (typeof MetricUnit)[keyof typeof MetricUnit];

const UNITS: Record<MetricName, Unit> = {
  BlocksScanned: MetricUnit.Count,
  ChainLagBlocks: MetricUnit.Count,
  ChainLagSeconds: MetricUnit.Seconds,
  AlertsPublished: MetricUnit.Count,
  ContractsWatched: MetricUnit.Count,
  ReorgsDetected: MetricUnit.Count,
  DeepReorgs: MetricUnit.Count,
  ApiDeprecations: MetricUnit.Count,
  CycleDurationMs: MetricUnit.Milliseconds,
};

export function createPowertoolsTelemetry(logger: Logger, metrics: Metrics): Telemetry {
  return {
    log(level, message, attributes) {
      logger[level](message, attributes ?? {});
    },
    metric(name, value, dimensions) {
      if (!dimensions) {
        metrics.addMetric(name, UNITS[name], value);
        return;
      }
      // A metric with its own dimensions (AlertsPublished by type) goes out as a single EMF blob, so its
      // dimensions do not leak onto the others.
      const single = metrics.singleMetric();
      single.addDimensions(dimensions);
      single.addMetric(name, UNITS[name], value);
    },
  };
}
