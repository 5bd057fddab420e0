// Emily (sBTC's public API) as the run's port, the same way for the CLI and the Lambda: the network's public
// server, or EMILY_API_URL (a proxy, a local stand-in). Built for every run; asked only by the sBTC lifecycle
// stage, so a config without the sbtcLifecycle section sends it nothing.
import type { Network } from '../core/domain';
import type { EmilyApi } from '../core/sbtc/emily-port';
import type { Telemetry } from '../core/ports';
import { createEmilyApi } from '../emily';
import { EnvironmentError } from './api-env';

export function emilyFromEnv(env: NodeJS.ProcessEnv, network: Network, log: Telemetry['log']): EmilyApi {
  const baseUrl = env.EMILY_API_URL?.trim();
  try {
    return createEmilyApi({ network, ...(baseUrl ? { baseUrl } : {}), log });
  } catch (error) {
    throw new EnvironmentError(`EMILY_API_URL: ${(error as Error).message}`);
  }
}
