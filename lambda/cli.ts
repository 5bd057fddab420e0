// The local composition root: `npm start`. Reads the command line and environment, builds the adapters
// (Hiro client, file or DynamoDB state, stdout or SNS publisher), and runs watch cycles.
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { operatorChannelOverLog } from './core/operator-log';
import { runCycle } from './core/cycle';
import type { CycleDeps, CycleSummary } from './core/cycle-types';
import type { StatusSweep } from './core/contract-status-sweep';
import type { WatchConfig } from './core/domain';
import type { Publisher, StateStore, Telemetry } from './core/ports';
import { loadWatchConfigFile, WatchConfigError } from './config/watch-config';
import { contractStatusSweep, createHiroClient, HiroConfigError } from './hiro';
import { FileStateStore, StateFileError } from './adapters/file/file-state-store';
import { createStdoutPublisher } from './adapters/stdout/stdout-publisher';
import { parseCliArgs, UsageError, USAGE, type CliOptions } from './local/args';
import { createStderrTelemetry, parseLogLevel } from './local/stderr-telemetry';
import { createProgressReporter } from './local/progress';
import { EnvironmentError, readApiSettings } from './runtime/api-env';

/** A local cycle stops at a block boundary after this long, so the cursor is saved at least this often. */
const CYCLE_BUDGET_MS = 50 * 60_000;
/**
 * The lease is renewed between blocks, so it can be short: a killed runner holds up the next one (on a
 * DynamoDB table; a state file's lock is freed at once when its process is gone) for at most this long.
 */
const LEASE_TTL_MS = 2 * 60_000;

export const EXIT = { ok: 0, failure: 1, usage: 2 } as const;

async function main(): Promise<number> {
  let options: CliOptions;
  let config: WatchConfig;
  let telemetry: Telemetry;
  try {
    options = parseCliArgs(process.argv.slice(2));
    if (options.help) {
      process.stdout.write(USAGE);
      return EXIT.ok;
    }
    telemetry = createStderrTelemetry(process.stderr, parseLogLevel(process.env.LOG_LEVEL));
    config = await loadWatchConfigFile(options.config);
  } catch (error) {
    if (error instanceof UsageError || error instanceof WatchConfigError || error instanceof EnvironmentError) {
      process.stderr.write(`${error.message}\n${error instanceof UsageError ? '\n' + USAGE : ''}`);
      return EXIT.usage;
    }
    throw error;
  }

  let deps: CycleDeps;
  try {
    deps = await buildDeps(options, config, telemetry);
  } catch (error) {
    if (error instanceof EnvironmentError || error instanceof StateFileError || error instanceof HiroConfigError) {
      process.stderr.write(`${error.message}\n`);
      return EXIT.usage;
    }
    throw error;
  }

  // One cycle checks every contract; a runner that keeps going sweeps a long list a slice per interval.
  const statusSweep = options.once
    ? undefined
    : contractStatusSweep(readApiSettings(process.env).requestsPerMinute, options.intervalSeconds * 1000);
  let stopRequested = false;
  let wake: (() => void) | undefined;
  process.on('SIGINT', () => {
    if (stopRequested) process.exit(130);
    stopRequested = true;
    telemetry.log('info', 'stopping after the current block (Ctrl-C again to quit at once)');
    wake?.();
  });
  process.on('SIGTERM', () => {
    stopRequested = true;
    wake?.();
  });

  for (;;) {
    let behind = false;
    try {
      const summary = await oneCycle(deps, config, () => stopRequested, statusSweep);
      // Behind the tip with budget left: go on at once rather than waiting a whole interval.
      behind = summary.stoppedBecause === 'max-blocks' || summary.stoppedBecause === 'time-budget';
    } catch (error) {
      telemetry.log('error', `cycle failed: ${(error as Error).message}`, { error: (error as Error).name });
      if (options.once) return EXIT.failure;
    }
    if (options.once || stopRequested) return EXIT.ok;
    if (!behind) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, options.intervalSeconds * 1000);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    if (stopRequested) return EXIT.ok;
  }
}

async function oneCycle(
  deps: CycleDeps,
  config: WatchConfig,
  shouldStop: () => boolean,
  statusSweep: StatusSweep | undefined,
): Promise<CycleSummary> {
  const progress = createProgressReporter(process.stderr);
  try {
    return await runCycle(deps, config, {
      runId: `cli:${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`,
      deadlineMs: deps.clock.now() + CYCLE_BUDGET_MS,
      leaseTtlMs: LEASE_TTL_MS,
      alertStaleAfterMs: LEASE_TTL_MS,
      shouldStop,
      ...(statusSweep ? { statusSweep } : {}),
      onBlockDone: (p) => progress.update(p),
    });
  } finally {
    progress.end();
  }
}

async function buildDeps(options: CliOptions, config: WatchConfig, telemetry: Telemetry): Promise<CycleDeps> {
  const operator = operatorChannelOverLog(telemetry);
  const chain = createHiroClient({
    ...readApiSettings(process.env),
    log: (level, message, attributes) => telemetry.log(level, message, attributes),
    operator,
  });
  const state: StateStore = options.table
    ? await openDynamoState(options.table, config, telemetry)
    : await FileStateStore.open(options.state, config.network);
  const publisher: Publisher = options.topic
    ? await openSnsPublisher(options.topic, telemetry)
    : createStdoutPublisher(process.stdout, options.json ? 'json' : 'human');
  return { chain, state, publisher, clock: { now: () => Date.now() }, telemetry, operator };
}

// The AWS adapters load only when asked for, so a local run never pays for the AWS SDK.
async function openDynamoState(tableName: string, config: WatchConfig, telemetry: Telemetry): Promise<StateStore> {
  const { DynamoDBClient } = await import('@aws-sdk/client-dynamodb');
  const { createDynamoStateStore } = await import('./adapters/dynamodb');
  return createDynamoStateStore({ client: new DynamoDBClient({}), tableName, network: config.network, log: telemetry.log });
}

async function openSnsPublisher(topicArn: string, telemetry: Telemetry): Promise<Publisher> {
  const { SNSClient } = await import('@aws-sdk/client-sns');
  const { createSnsPublisher } = await import('./adapters/sns');
  return createSnsPublisher({ client: new SNSClient({}), topicArn, log: telemetry.log });
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`stacks-watch failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = EXIT.failure;
  },
);
