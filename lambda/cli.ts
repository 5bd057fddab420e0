// The local composition root: `npm start`. Reads the command line and environment, builds the adapters
// (Hiro client, file or DynamoDB state, stdout or SNS publisher), checks the API serves the watched
// network, and runs watch cycles (or answers --check / --status).
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { operatorChannelOverLog } from './core/operator-log';
import { runCycle } from './core/cycle';
import { render } from './core/render';
import { replayBlocks, ReplayRangeError } from './core/replay';
import { SMS_PER_RUN_DEFAULT } from './core/sms-budget';
import type { CycleDeps, CycleSummary } from './core/cycle-types';
import type { StatusSweep } from './core/contract-status-sweep';
import type { WatchConfig } from './core/watch-config/watch-config-schema';
import type { Publisher, StateStore, Telemetry } from './core/ports';
import { loadWatchConfigFile, WatchConfigError } from './config/watch-config';
import { contractStatusSweep, createHiroClient, HiroConfigError, HiroNetworkError, type HiroClient } from './hiro';
import { FileStateStore, StateFileError } from './adapters/file/file-state-store';
import { createStdoutPublisher } from './adapters/stdout/stdout-publisher';
import { parseCliArgs, UsageError, USAGE, type CliOptions } from './local/args';
import { createStderrTelemetry, parseLogLevel } from './local/stderr-telemetry';
import { createProgressReporter } from './local/progress';
import { ApiUnreachableError, checkApiNetwork, NetworkMismatchError, unreachableMessage } from './local/api-check';
import { cycleLine, describeStatus, describeWatch } from './local/describe';
import { OutageTracker } from './local/outage';
import { EnvironmentError, readApiSettings, type ApiSettings } from './runtime/api-env';

/** A local cycle stops at a block boundary after this long, so the cursor is saved at least this often. */
const CYCLE_BUDGET_MS = 50 * 60_000;
/**
 * The lease is renewed between blocks, so it can be short: a killed runner holds up the next one (on a
 * DynamoDB table; a state file's lock is freed at once when its process is gone) for at most this long.
 */
const LEASE_TTL_MS = 2 * 60_000;

export const EXIT = { ok: 0, failure: 1, usage: 2 } as const;

/** The one backfill progress line on the terminal; every other output clears it first. */
let progress: ReturnType<typeof createProgressReporter> | undefined;
const clearProgress = () => progress?.clear();

async function main(): Promise<number> {
  let options: CliOptions;
  let config: WatchConfig;
  let telemetry: Telemetry;
  let api: ApiSettings;
  try {
    options = parseCliArgs(process.argv.slice(2));
    if (options.help) {
      process.stdout.write(USAGE);
      return EXIT.ok;
    }
    const base = createStderrTelemetry(process.stderr, parseLogLevel(process.env.LOG_LEVEL), clearProgress);
    telemetry = quietCycleDone(base);
    config = await loadWatchConfigFile(options.config);
    api = readApiSettings(process.env, undefined, config.network);
  } catch (error) {
    if (error instanceof UsageError || error instanceof WatchConfigError || error instanceof EnvironmentError) {
      process.stderr.write(`${error.message}\n${error instanceof UsageError ? '\n' + USAGE : ''}`);
      return EXIT.usage;
    }
    throw error;
  }

  if (options.replay) return replay(options, options.replay, config, telemetry, api);

  let deps: CycleDeps & { chain: HiroClient };
  try {
    deps = await buildDeps(options, config, telemetry, api);
  } catch (error) {
    if (error instanceof EnvironmentError || error instanceof StateFileError || error instanceof HiroConfigError) {
      process.stderr.write(`${error.message}\n`);
      return EXIT.usage;
    }
    throw error;
  }

  if (options.check) {
    const fromEnvironment = Boolean(process.env.STACKS_API_URL?.trim());
    process.stdout.write(
      describeWatch(config, { ...api, fromEnvironment, hasKey: api.apiKey !== undefined }, options.config),
    );
    return EXIT.ok;
  }
  if (options.status) return printStatus(deps, options, config);

  try {
    const check = await checkApiNetwork(deps.chain, config.network, api.baseUrl);
    if (!check.verified) telemetry.log('warn', `could not check that the API serves ${config.network}: ${check.reason}`);
  } catch (error) {
    if (error instanceof NetworkMismatchError) {
      process.stderr.write(`${error.message}\n`);
      return EXIT.usage;
    }
    if (error instanceof ApiUnreachableError) {
      process.stderr.write(`${error.message}\n`);
      return EXIT.failure;
    }
    throw error;
  }
  return runLoop(deps, config, options, telemetry, api);
}

async function runLoop(deps: CycleDeps, config: WatchConfig, options: CliOptions, telemetry: Telemetry, api: ApiSettings): Promise<number> {
  // One cycle checks every contract; a runner that keeps going sweeps a long list a slice per interval.
  const statusSweep = options.once
    ? undefined
    : contractStatusSweep(api.requestsPerMinute, options.intervalSeconds * 1000);
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

  const outage = new OutageTracker(options.intervalSeconds * 1000, (level, message) => telemetry.log(level, message));
  let worked = false;
  for (;;) {
    let pauseMs = options.intervalSeconds * 1000;
    try {
      const summary = await oneCycle(deps, config, () => stopRequested, { statusSweep, toSns: options.topic !== undefined });
      worked = true;
      outage.succeeded();
      const line = cycleLine(summary);
      if (line) telemetry.log('info', line);
      // Behind the tip with budget left: go on at once rather than waiting a whole interval.
      if (summary.stoppedBecause === 'max-blocks' || summary.stoppedBecause === 'time-budget') pauseMs = 0;
    } catch (error) {
      const failure = error as Error;
      // A first cycle that fails is a setup problem more often than an outage: say so and stop.
      if (options.once || !worked) {
        const message = failure instanceof HiroNetworkError ? unreachableMessage(api.baseUrl, failure) : `cycle failed: ${failure.message}`;
        clearProgress();
        process.stderr.write(`${message}\n`);
        return EXIT.failure;
      }
      pauseMs = outage.failed(failure);
    }
    if (options.once || stopRequested) return EXIT.ok;
    if (pauseMs > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, pauseMs);
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
  { statusSweep, toSns }: { statusSweep: StatusSweep | undefined; toSns: boolean },
): Promise<CycleSummary> {
  progress = createProgressReporter(process.stderr);
  try {
    return await runCycle(deps, config, {
      runId: `cli:${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`,
      deadlineMs: deps.clock.now() + CYCLE_BUDGET_MS,
      leaseTtlMs: LEASE_TTL_MS,
      alertStaleAfterMs: LEASE_TTL_MS,
      shouldStop,
      ...(statusSweep ? { statusSweep } : {}),
      // Only an SNS topic reaches phones; stdout prints every alert.
      ...(toSns ? { smsPerRun: config.smsPerRun ?? SMS_PER_RUN_DEFAULT } : {}),
      onBlockDone: (p) => progress?.update(p),
    });
  } finally {
    progress.end();
    progress = undefined;
  }
}

/**
 * The core's `cycle done` line carries the whole summary, for CloudWatch; on a terminal the runner prints
 * its own short line when a cycle did something, so the core's goes to debug.
 */
function quietCycleDone(telemetry: Telemetry): Telemetry {
  return {
    ...telemetry,
    log: (level, message, attributes) => telemetry.log(message === 'cycle done' ? 'debug' : level, message, attributes),
  };
}

/**
 * `--replay`: the block rules on past blocks, printed as alerts in the usual formats. Only the Hiro client
 * is built (under the same request budget as a watch): no state store is opened, no publisher but stdout.
 */
async function replay(options: CliOptions, range: { from: number; to: number }, config: WatchConfig, telemetry: Telemetry, api: ApiSettings): Promise<number> {
  let chain: HiroClient;
  try {
    chain = createHiroClient({ ...api, log: (level, message, attributes) => telemetry.log(level, message, attributes) });
  } catch (error) {
    if (error instanceof HiroConfigError) {
      process.stderr.write(`${error.message}\n`);
      return EXIT.usage;
    }
    throw error;
  }
  const out = createStdoutPublisher(process.stdout, options.json ? 'json' : 'human');
  progress = createProgressReporter(process.stderr);
  try {
    await checkApiNetwork(chain, config.network, api.baseUrl);
    const done = await replayBlocks(chain, config, range, {
      onAlerts: async (alerts) => {
        clearProgress();
        await out.publish(alerts.map((alert) => ({ alert, rendering: render(alert) })));
      },
      onBlockDone: (p) => progress?.update(p),
    }, { now: () => Date.now() });
    clearProgress();
    telemetry.log('info', `replayed ${done.blocks} block${done.blocks === 1 ? '' : 's'} (${range.from}–${range.to}): ${done.alerts} alert${done.alerts === 1 ? '' : 's'} would have been sent`);
    return EXIT.ok;
  } catch (error) {
    clearProgress();
    if (error instanceof ReplayRangeError || error instanceof NetworkMismatchError) {
      process.stderr.write(`${error.message}\n`);
      return EXIT.usage;
    }
    if (error instanceof ApiUnreachableError) {
      process.stderr.write(`${error.message}\n`);
      return EXIT.failure;
    }
    const failure = error as Error;
    process.stderr.write(`${failure instanceof HiroNetworkError ? unreachableMessage(api.baseUrl, failure) : `replay failed: ${failure.message}`}\n`);
    return EXIT.failure;
  } finally {
    progress.end();
    progress = undefined;
  }
}

async function printStatus(deps: CycleDeps & { chain: HiroClient }, options: CliOptions, config: WatchConfig): Promise<number> {
  const cursor = await deps.state.readCursor();
  let tip: { height: number } | { error: string };
  try {
    const chainTip = await deps.chain.getTip();
    tip = chainTip ? { height: chainTip.height } : { error: 'the API has no chain tip yet' };
  } catch (error) {
    tip = { error: (error as Error).message };
  }
  const statePath = options.table ? `DynamoDB table ${options.table}` : options.state;
  process.stdout.write(describeStatus({ statePath, network: config.network, cursor, nowMs: Date.now(), tip }));
  return EXIT.ok;
}

async function buildDeps(options: CliOptions, config: WatchConfig, telemetry: Telemetry, api: ApiSettings) {
  const operator = operatorChannelOverLog(telemetry);
  const chain = createHiroClient({
    ...api,
    // --status asks for the tip once and says when it cannot: no retries behind its back.
    ...(options.status ? { maxRetries: 0 } : {}),
    log: (level, message, attributes) => telemetry.log(level, message, attributes),
    operator,
  });
  const state: StateStore = options.table
    ? await openDynamoState(options.table, config, telemetry)
    : await FileStateStore.open(options.state, config.network);
  const publisher: Publisher = options.topic
    ? await openSnsPublisher(options.topic, telemetry)
    : createStdoutPublisher(process.stdout, options.json ? 'json' : 'human');
  const clearing: Publisher = {
    publish: (alerts) => {
      clearProgress();
      return publisher.publish(alerts);
    },
  };
  return {
    chain,
    state,
    publisher: clearing,
    clock: { now: () => Date.now() },
    telemetry,
    operator,
  };
}

// The AWS adapters load only when asked for, so a local run never pays for the AWS SDK.
async function openDynamoState(tableName: string, config: WatchConfig, telemetry: Telemetry): Promise<StateStore> {
  const { DynamoDBClient } = await import('@aws-sdk/client-dynamodb');
  const { createDynamoStateStore } = await import('./adapters/dynamodb');
  const client = new DynamoDBClient({});
  await requireRegion(() => client.config.region());
  return createDynamoStateStore({ client, tableName, network: config.network, log: telemetry.log });
}

/** The SDK's own "Region is missing" does not say what to set. */
async function requireRegion(region: () => Promise<string>): Promise<void> {
  let found: string | undefined;
  try {
    found = await region();
  } catch {
    found = undefined;
  }
  if (!found) {
    throw new EnvironmentError('--table needs an AWS region: set AWS_REGION (e.g. AWS_REGION=us-east-1), or a region in your AWS profile');
  }
}

async function openSnsPublisher(topicArn: string, telemetry: Telemetry): Promise<Publisher> {
  const { SNSClient } = await import('@aws-sdk/client-sns');
  const { createSnsPublisher } = await import('./adapters/sns');
  return createSnsPublisher({ client: new SNSClient({ maxAttempts: 1 }), topicArn, log: telemetry.log });
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    clearProgress();
    process.stderr.write(`stacks-watch failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = EXIT.failure;
  },
);
