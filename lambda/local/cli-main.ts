// The local composition root behind `npm start` (lambda/cli.ts): reads the command line and environment, builds
// the adapters (local-deps.ts), checks the API serves the watched network, and runs watch cycles (watch-loop.ts),
// or answers --check, --status and --replay. It reads process.argv, process.env and the standard streams when
// called, never at import, so the end-to-end suites run it in-process exactly as the bin does.
import type { CycleDeps } from '../core/cycle-types';
import type { Telemetry } from '../core/ports';
import type { WatchConfig } from '../core/watch-config/watch-config-schema';
import { loadWatchConfigFile, WatchConfigError } from '../config/watch-config';
import { showControlCharacters } from '../core/render/untrusted-text';
import { HiroConfigError, HiroNetworkError, type HiroClient } from '../hiro';
import { StateFileError } from '../adapters/file/file-state-store';
import { parseCliArgs, UsageError, USAGE, type CliOptions } from './args';
import { createStderrTelemetry, parseLogLevel } from './stderr-telemetry';
import { ApiUnreachableError, checkApiNetwork, NetworkMismatchError, unreachableMessage } from './api-check';
import { describeWatch } from './describe';
import { bareAmountWarnings } from '../core/watch-config/amount-warnings';
import { describeChatChannels } from '../channels/registry';
import { buildDeps, dynamoClient, firstContactClient, printStatus, runClient } from './local-deps';
import { replay } from './replay-command';
import { printHistory } from './history-command';
import { packageVersion } from './version';
import { clearProgress, EXIT } from './terminal';
import { runLoop } from './watch-loop';
import { tokenDecimalsStart } from './token-decimals-start';
import { TokenDecimalsUnreadError } from '../config/config-token-decimals';
import { EnvironmentError, readApiSettings, readFetchWay, type ApiSettings } from '../runtime/api-env';

async function main(): Promise<number> {
  let options: CliOptions;
  let config: WatchConfig;
  let telemetry: Telemetry;
  let api: ApiSettings;
  let tokenNotes: string[] = [];
  let chainFor: (api: ApiSettings) => HiroClient;
  let startApi: ApiSettings | undefined; // the API start-up read token decimals from, if any
  try {
    options = parseCliArgs(process.argv.slice(2));
    if (options.help) {
      process.stdout.write(`${USAGE}\n${describeChatChannels(process.env)}`);
      return EXIT.ok;
    }
    if (options.version) {
      process.stdout.write(`stacks-watch ${packageVersion()}\n`);
      return EXIT.ok;
    }
    if (options.history) return await history(options, options.history);
    const base = createStderrTelemetry(process.stderr, parseLogLevel(process.env.LOG_LEVEL), clearProgress);
    telemetry = quietCycleDone(base);
    chainFor = runClient(options, telemetry);
    const tokens = tokenDecimalsStart(options, telemetry, (network) => chainFor((startApi = readApiSettings(process.env, undefined, network))));
    config = await loadWatchConfigFile(options.config, tokens.prepare);
    tokenNotes = tokens.notes;
    api = readApiSettings(process.env, undefined, config.network);
    options.fetchWay = readFetchWay(process.env);
  } catch (error) {
    return startFailure(error, startApi);
  }

  if (options.replay) return replay(options, options.replay, config, telemetry, api);

  let deps: CycleDeps & { chain: HiroClient; chat?: { drain(): Promise<void> } };
  try {
    deps = await buildDeps(options, config, telemetry, chainFor(api));
  } catch (error) {
    if (error instanceof EnvironmentError || error instanceof StateFileError || error instanceof HiroConfigError) {
      process.stderr.write(`${error.message}\n`);
      return EXIT.usage;
    }
    throw error;
  }

  if (options.check) return printCheck(config, api, options, tokenNotes);
  if (options.status) return printStatus(deps, options, config);

  const refused = await checkNetwork(options, config, api, telemetry);
  if (refused !== undefined) return refused;
  for (const warning of bareAmountWarnings(config)) telemetry.log('warn', warning.replace(/^warning: /, ''));
  const code = await runLoop(deps, config, options, telemetry, api);
  // The chat posts still queued get a bounded time to go out; what is left is recorded as not posted.
  await deps.chat?.drain();
  return code;
}

/** --check: what the config watches and through which API and channels, without running a cycle. */
function printCheck(config: WatchConfig, api: ApiSettings, options: CliOptions, tokenNotes: string[]): number {
  const fromEnvironment = Boolean(process.env.STACKS_API_URL?.trim());
  process.stdout.write(
    describeWatch(
      config,
      { ...api, fromEnvironment, hasKey: api.apiKey !== undefined, cycleSeconds: options.intervalSeconds, fetchWay: options.fetchWay },
      options.config,
    ) +
      tokenNotes.map((note) => `${note}\n`).join('') +
      describeChatChannels(process.env),
  );
  return EXIT.ok;
}

/**
 * Before the first cycle, that the API serves the watched network: the exit code when it does not (2) or is
 * out of reach (1); undefined to go on, also when it could not tell (a warning says so).
 */
async function checkNetwork(options: CliOptions, config: WatchConfig, api: ApiSettings, telemetry: Telemetry): Promise<number | undefined> {
  try {
    if (options.networkCheck) {
      const check = await checkApiNetwork(firstContactClient(api, telemetry), config.network, api.baseUrl);
      if (!check.verified)
        telemetry.log('warn', `could not check that the API serves ${config.network}: ${check.reason}; going on (--no-network-check skips this check)`);
    }
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
  return undefined;
}

/** The exit code of a start that failed before the config was in hand, its reason written; other errors are thrown on. */
function startFailure(error: unknown, startApi: ApiSettings | undefined): number {
  if (
    error instanceof UsageError ||
    error instanceof WatchConfigError ||
    error instanceof EnvironmentError ||
    error instanceof StateFileError ||
    error instanceof HiroConfigError
  ) {
    // The mistake is the last thing on the screen, not buried above the whole help.
    process.stderr.write(`${error.message}\n${error instanceof UsageError ? '(npm start -- --help lists every option)\n' : ''}`);
    return EXIT.usage;
  }
  // The API gave no answer for a token's decimals: the config is not at fault and a later start works, so
  // this is the exit of an API out of reach (1), not of a bad config (2).
  if (error instanceof TokenDecimalsUnreadError) {
    const cause = error.cause instanceof HiroNetworkError && startApi ? `${unreachableMessage(startApi.baseUrl, error.cause)}\n` : '';
    process.stderr.write(`${cause}${error.message}\n`);
    return EXIT.failure;
  }
  throw error;
}

async function history(options: CliOptions, { sinceMs }: { sinceMs?: number }): Promise<number> {
  try {
    const table = options.table !== undefined ? { name: options.table, client: await dynamoClient() } : undefined;
    await printHistory({ statePath: options.state, ...(table ? { table } : {}) }, { json: options.json, ...(sinceMs !== undefined ? { sinceMs } : {}) });
    return EXIT.ok;
  } catch (error) {
    if ((error as Error).name === 'ResourceNotFoundException') {
      process.stderr.write(`no DynamoDB table ${options.table} in this account and region (AWS_REGION)\n`);
      return EXIT.usage;
    }
    if (!(error instanceof StateFileError || error instanceof EnvironmentError)) throw error;
    process.stderr.write(`${error.message}\n`);
    return EXIT.usage;
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

/** One run of the CLI to its exit code: an unexpected error is written to stderr, as a failure (1). */
export function cliMain(): Promise<number> {
  return main().catch((error: unknown) => {
    clearProgress();
    process.stderr.write(`stacks-watch failed: ${showControlCharacters(error instanceof Error ? (error.stack ?? error.message) : String(error))}\n`);
    return EXIT.failure;
  });
}
