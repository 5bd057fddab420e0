// Before the first cycle: is the API there, and does it serve the watched network? A testnet watch read
// from the mainnet API would scan the wrong chain without a single error, so a proven mismatch stops the
// runner. Anything short of proof (a self-hosted API without its node's /v2/info, a 500, a garbled answer)
// is said and the runner goes on: the /extended routes it watches through may well answer.
import type { Network } from '../core/domain';
import { HiroApiError, HiroNetworkError, withoutCredentials, type HiroClient } from '../hiro';

/** The API answers for another network than the config's: a setup mistake (exit 2, nothing written). */
export class NetworkMismatchError extends Error {
  override name = 'NetworkMismatchError';
}

/** The API could not be reached at all: nothing can be done this run (exit 1). */
export class ApiUnreachableError extends Error {
  override name = 'ApiUnreachableError';
}

export type NetworkCheck = { verified: true } | { verified: false; reason: string };

export async function checkApiNetwork(chain: Pick<HiroClient, 'getNetwork'>, network: Network, baseUrl: string): Promise<NetworkCheck> {
  let served;
  try {
    served = await chain.getNetwork();
  } catch (error) {
    if (error instanceof HiroNetworkError) throw new ApiUnreachableError(unreachableMessage(baseUrl, error));
    // A proxy that forwards only /extended, or an API whose node is down, cannot tell; the watcher runs and says so.
    if (error instanceof HiroApiError)
      return { verified: false, reason: `${hostOf(baseUrl)} did not answer /v2/info (${withoutNextRunAdvice(error.message)})` };
    throw error;
  }
  if (served.network === network) return { verified: true };
  const what = served.network === 'unknown' ? `a chain with id ${served.chainId}` : served.network;
  throw new NetworkMismatchError(
    `the watch config is for ${network}, but the API at ${hostOf(baseUrl)} serves ${what} (its /v2/info network_id is ${served.chainId}). ` +
      `Unset STACKS_API_URL to use Hiro's ${network} API, or point it at a ${network} API.`,
  );
}

/** What an operator reads when the API is out of reach: the host, and what to try. */
/**
 * The client's errors end with advice for a scheduled run ("the next run retries"); the runner goes on with
 * this run, so that sentence would be untrue here.
 */
function withoutNextRunAdvice(message: string): string {
  return message
    .split(/(?<=\.)\s+/)
    .filter((sentence) => !/\bnext run\b/i.test(sentence))
    .join(' ');
}

export function unreachableMessage(baseUrl: string, error: Error): string {
  return (
    `cannot reach the Stacks API at ${hostOf(baseUrl)}: ${error.message}\n` +
    `  Check the network connection and firewall, or set STACKS_API_URL to an API you can reach.\n` +
    `  To see stacks-watch work with no network at all: npm run demo`
  );
}

export function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return withoutCredentials(baseUrl);
  }
}
