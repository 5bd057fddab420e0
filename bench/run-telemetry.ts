// The Lambda's telemetry in a benchmark cycle: the real Powertools logger and metrics behind the real adapter,
// lean or detailed as the stack sets it, finished the way the handler finishes an invocation (its log line,
// the API counts, one EMF flush). Everything they write is captured, to count the bytes CloudWatch Logs
// would ingest and the metric series CloudWatch would bill.
import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics } from '@aws-lambda-powertools/metrics';
import type { CycleSummary } from '../lambda/core/cycle-types';
import type { ApiStats } from '../lambda/hiro';
import { createPowertoolsTelemetry, recordApiStats, type PowertoolsTelemetry } from '../lambda/runtime/powertools-telemetry';

/** Lambda's own START, END and REPORT lines of an invocation, about this long together, where they are logged. */
export const LAMBDA_PLATFORM_LOG_BYTES = 350;

/** Lambda's own lines a run of this function logs: none at a system log level above INFO (infra/constructs/watcher-function.ts). */
export function platformLogBytes(fn: { Properties?: { LoggingConfig?: { SystemLogLevel?: string } } }): number {
  const level = fn.Properties?.LoggingConfig?.SystemLogLevel;
  return level === 'WARN' || level === 'ERROR' ? 0 : LAMBDA_PLATFORM_LOG_BYTES;
}

export interface InvocationTelemetry {
  /** The same invocation as a quiet loop turn outside its minute: no info line, no EMF record. */
  quietTurnLogBytes: number;
  /** The EMF records' share of logBytes. */
  emfBytes: number;
  logBytes: number;
  /** Distinct metric series (name and dimensions) the invocation sent. */
  metricSeries: string[];
}

/** Series named in the EMF records among `lines`. */
export function emfSeries(lines: readonly string[]): string[] {
  const series = new Set<string>();
  for (const line of lines) {
    if (!line.includes('"_aws"')) continue;
    const record = JSON.parse(line) as Record<string, unknown> & {
      _aws: { CloudWatchMetrics: { Dimensions: string[][]; Metrics: { Name: string }[] }[] };
    };
    for (const directive of record._aws.CloudWatchMetrics) {
      const dimensions = directive.Dimensions.flat().map((name) => `${name}=${String(record[name])}`);
      for (const { Name } of directive.Metrics) series.add([Name, ...dimensions].join('|'));
    }
  }
  return [...series].sort();
}

export class CapturedTelemetry {
  readonly telemetry: PowertoolsTelemetry;
  private readonly logger = new Logger({ serviceName: 'stacks-watch', logLevel: 'INFO' });
  private readonly metrics = new Metrics({ serviceName: 'stacks-watch', namespace: 'StacksWatch' });
  private written: string[] = [];
  private restore: (() => void) | undefined;

  /**
   * One measured cycle is one invocation, as on the schedule and in the loop: its summary is logged once, on the
   * invocation's line.
   */
  constructor(detailed: boolean) {
    this.telemetry = createPowertoolsTelemetry(this.logger, this.metrics, { detailed });
  }

  /** Starts capturing stdout and stderr (the streams Lambda sends to CloudWatch Logs). */
  start(): void {
    this.written = [];
    const streams = [process.stdout, process.stderr];
    const originals = streams.map((stream) => stream.write.bind(stream));
    for (const stream of streams) {
      stream.write = ((chunk: string | Uint8Array) => {
        this.written.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
        return true;
      }) as typeof stream.write;
    }
    this.restore = () => streams.forEach((stream, i) => (stream.write = originals[i]!));
  }

  /** Stops capturing (after a failed cycle, so its error is seen). */
  stop(): void {
    this.restore?.();
    this.restore = undefined;
  }

  /** Ends the invocation as the handler does, stops capturing, and returns what it cost in telemetry. */
  finish(summary: CycleSummary, api: ApiStats): InvocationTelemetry {
    this.logger.info('invocation done', { summary, api });
    recordApiStats(this.telemetry, api);
    // As the handler: a run with no metric stored (the default) writes no EMF record and no "no metrics" warning.
    if (this.metrics.hasStoredMetrics()) this.metrics.publishStoredMetrics();
    this.stop();
    const text = this.written.join('');
    const lines = text.split('\n');
    const bytesOf = (pick: (line: string) => boolean) => lines.filter(pick).reduce((sum, line) => sum + Buffer.byteLength(line) + 1, 0);
    const emfBytes = bytesOf((line) => line.includes('"_aws"'));
    const invocationLineBytes = bytesOf((line) => line.includes('"message":"invocation done"'));
    return {
      // Lambda's own lines, where the function logs them, are the bill's (platformLogBytes).
      logBytes: Buffer.byteLength(text),
      // A quiet loop turn (lambda/runtime/loop-invocation.ts) logs its invocation line at debug, and its EMF record once a minute.
      quietTurnLogBytes: Buffer.byteLength(text) - emfBytes - invocationLineBytes,
      emfBytes,
      metricSeries: emfSeries(lines),
    };
  }
}
