// Telemetry over Powertools: structured JSON logs and EMF metrics, with the `service` dimension that the
// stack's alarms select on.
//
// Each metric name sent in an hour is a custom metric series billed for that hour ($0.30 a month when sent
// every hour), so by default a run sends only counters of rare events when they happened: the chain lag is
// judged by the schedule's tick itself (lambda/core/health/self-watch.ts), which tells the operations topic. Blocks scanned, API
// requests, durations and the rest are in each run's `cycle done` and `invocation done` log lines, for Logs
// Insights. DETAILED_METRICS=true (`-c detailedMetrics=true`) sends everything on every run, as the
// dashboard expects.
import type { Logger } from '@aws-lambda-powertools/logger';
import { MetricUnit, type Metrics } from '@aws-lambda-powertools/metrics';
import type { MetricName, Telemetry } from '../core/ports';
import type { ApiStats } from '../hiro';

/** The core's metrics, plus the handler's counts of Hiro requests. */
export type LambdaMetricName = MetricName | 'ApiRequests' | 'ApiThrottled' | 'ApiErrors';

type Unit = (typeof MetricUnit)[keyof typeof MetricUnit];

const UNITS: Record<LambdaMetricName, Unit> = {
  BlocksScanned: MetricUnit.Count,
  ChainLagBlocks: MetricUnit.Count,
  ChainLagSeconds: MetricUnit.Seconds,
  AlertsPublished: MetricUnit.Count,
  AlertsUndeliverable: MetricUnit.Count,
  ContractsWatched: MetricUnit.Count,
  ReorgsDetected: MetricUnit.Count,
  DeepReorgs: MetricUnit.Count,
  ApiDeprecations: MetricUnit.Count,
  CycleDurationMs: MetricUnit.Milliseconds,
  ApiRequests: MetricUnit.Count,
  ApiThrottled: MetricUnit.Count,
  ApiErrors: MetricUnit.Count,
};

/** What a lean run sends: `non-zero` counters of rare events (`always` is for an alarm's input; none needs one now). */
export const LEAN_METRICS: Partial<Record<LambdaMetricName, 'always' | 'non-zero'>> = {
  AlertsPublished: 'non-zero',
  // Its alarm pages: a parked alert is one nobody received.
  AlertsUndeliverable: 'non-zero',
  ReorgsDetected: 'non-zero',
  DeepReorgs: 'non-zero',
  ApiThrottled: 'non-zero',
  ApiErrors: 'non-zero',
};

export interface PowertoolsTelemetry extends Telemetry {
  metric(name: LambdaMetricName, value: number, dimensions?: Record<string, string>): void;
}

export function sendsMetric(name: LambdaMetricName, value: number, detailed: boolean): boolean {
  if (detailed) return true;
  const rule = LEAN_METRICS[name];
  return rule === 'always' || (rule === 'non-zero' && value !== 0);
}

/**
 * An invocation runs one cycle, so its `invocation done` line carries the cycle's whole summary, and the core's
 * `cycle done` line goes to debug rather than log the same summary twice at info (about a third of a quiet
 * run's log bytes, docs/benchmarks.md).
 */
export function createPowertoolsTelemetry(logger: Logger, metrics: Metrics, options: { detailed: boolean }): PowertoolsTelemetry {
  return {
    log(level, message, attributes) {
      logger[message === 'cycle done' ? 'debug' : level](message, attributes ?? {});
    },
    metric(name, value, dimensions) {
      if (!sendsMetric(name, value, options.detailed)) return;
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

/**
 * The Hiro client's own counts, once per invocation. Answers the client asked for (an empty block's 404, the
 * tip's 304) are not errors there, so ApiErrors counts only failures.
 */
export function recordApiStats(telemetry: PowertoolsTelemetry, stats: ApiStats): void {
  telemetry.metric('ApiRequests', stats.requests);
  telemetry.metric('ApiThrottled', stats.throttled);
  telemetry.metric('ApiErrors', stats.errors);
}
