// `npm start -- --replay FROM..TO`: the block rules tried on past blocks, printed as alerts.
import { render } from '../core/render';
import { replayBlocks, ReplayRangeError } from '../core/scan/replay';
import type { Telemetry } from '../core/ports';
import type { WatchConfig } from '../core/watch-config/watch-config-schema';
import { createHiroClient, HiroConfigError, HiroNetworkError, type HiroClient } from '../hiro';
import { createStdoutPublisher } from '../adapters/stdout/stdout-publisher';
import type { ApiSettings } from '../runtime/api-env';
import type { CliOptions } from './args';
import { ApiUnreachableError, checkApiNetwork, NetworkMismatchError, unreachableMessage } from './api-check';
import { clearProgress, endProgress, EXIT, showProgress, startProgress } from './terminal';

/**
 * `--replay`: the block rules on past blocks, printed as alerts in the usual formats. Only the Hiro client
 * is built (under the same request budget as a watch): no state store is opened, no publisher but stdout.
 */
export async function replay(
  options: CliOptions,
  range: { from: number; to: number },
  config: WatchConfig,
  telemetry: Telemetry,
  api: ApiSettings,
): Promise<number> {
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
  startProgress();
  try {
    if (options.networkCheck) {
      const check = await checkApiNetwork(chain, config.network, api.baseUrl);
      if (!check.verified) telemetry.log('warn', `could not check that the API serves ${config.network}: ${check.reason}; going on`);
    }
    const done = await replayBlocks(
      chain,
      config,
      range,
      {
        onAlerts: async (alerts) => {
          clearProgress();
          await out.publish(alerts.map((alert) => ({ alert, rendering: render(alert) })));
        },
        onBlockDone: showProgress,
      },
      { now: () => Date.now() },
    );
    clearProgress();
    const heldOrMuted = done.heldOrMuted > 0 ? `; ${done.heldOrMuted} held by cooldowns or muted` : '';
    telemetry.log(
      'info',
      `replayed ${done.blocks} block${done.blocks === 1 ? '' : 's'} (${range.from}–${range.to}): ${done.alerts} alert${done.alerts === 1 ? '' : 's'} would have been sent${heldOrMuted}`,
    );
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
    endProgress();
  }
}
