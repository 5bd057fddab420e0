// What a run sends to CloudWatch through Powertools: the EMF document the Metrics utility would print.
import { describe, expect, it } from 'vitest';
import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics } from '@aws-lambda-powertools/metrics';
import { createPowertoolsTelemetry } from '../../lambda/runtime/powertools-telemetry';

function leanRun() {
  const metrics = new Metrics({ namespace: 'StacksWatch', serviceName: 'stacks-watch' });
  const telemetry = createPowertoolsTelemetry(new Logger({ logLevel: 'SILENT' }), metrics, { detailed: false });
  const sent = (): Record<string, unknown> => {
    if (!metrics.hasStoredMetrics()) return {};
    const emf = metrics.serializeMetrics() as unknown as Record<string, unknown>;
    const names = (emf._aws as { CloudWatchMetrics: { Metrics: { Name: string }[] }[] }).CloudWatchMetrics[0]!.Metrics.map((m) => m.Name);
    return Object.fromEntries(names.map((name) => [name, emf[name]]));
  };
  return { telemetry, sent };
}

describe('lean metrics', () => {
  it('send a parked alert as AlertsUndeliverable, which its alarm pages on', () => {
    const run = leanRun();
    run.telemetry.metric('AlertsUndeliverable', 1);
    expect(run.sent()).toEqual({ AlertsUndeliverable: 1 });
  });

  it('leave out AlertsUndeliverable when nothing was parked, and the counters nobody alarms on', () => {
    const run = leanRun();
    run.telemetry.metric('AlertsUndeliverable', 0);
    run.telemetry.metric('BlocksScanned', 12);
    run.telemetry.metric('CycleDurationMs', 800);
    expect(run.sent()).toEqual({});
  });

  it('leave out the chain lag, which the schedule tick judges itself (its metric and alarm come with detailed metrics)', () => {
    const run = leanRun();
    run.telemetry.metric('ChainLagSeconds', 700);
    run.telemetry.metric('ChainLagBlocks', 40);
    expect(run.sent()).toEqual({});
  });
});

describe('log lines of a one-cycle invocation', () => {
  const levels = () => {
    const logger = new Logger({ logLevel: 'SILENT' });
    const seen: string[] = [];
    for (const level of ['debug', 'info', 'warn', 'error'] as const) {
      logger[level] = ((message: string) => void seen.push(`${level}:${message}`)) as never;
    }
    const telemetry = createPowertoolsTelemetry(logger, new Metrics({ namespace: 'StacksWatch' }), { detailed: false });
    telemetry.log('info', 'cycle done', { blocksScanned: 1 });
    telemetry.log('info', 'the scan got past the block that had been failing');
    return seen;
  };

  it('put the cycle summary at debug, since the invocation line repeats it; other lines keep their level', () => {
    expect(levels()).toEqual(['debug:cycle done', 'info:the scan got past the block that had been failing']);
  });
});
