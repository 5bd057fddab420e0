// Emily as the core's port (core/sbtc/emily-port.ts): each read is a client of its own, so that each run has
// its own bound on requests (a long `npm start` process would spend one client's bound in a few runs), its
// deadline the run's, its attempts shorter than a lone client's (a poll holds the scan up while it waits).
import type { EmilyApi, EmilyRead } from '../core/sbtc/emily-port';
import { createEmilyClient } from './client';
import type { EmilyClientOptions } from './options';
import { pollEmily } from './poll';

/** Per attempt: Emily answers a list in well under a second; a poll's slice is ten. */
export const EMILY_POLL_TIMEOUT_MS = 4_000;
/** Retries after a first attempt that failed (429, 5xx, no answer). */
export const EMILY_POLL_RETRIES = 1;
/** Requests a read sends at most, retries included: the lists' pages and the deposits read one by one. */
export const EMILY_POLL_MAX_REQUESTS = 12;

export type EmilyApiOptions = Omit<EmilyClientOptions, 'deadline'>;

/** Throws at once on options no read could use (a base URL that is not https, a bound below 1). */
export function createEmilyApi(options: EmilyApiOptions): EmilyApi {
  createEmilyClient(options);
  return {
    async read(plan, deadlineMs): Promise<EmilyRead> {
      const client = createEmilyClient({
        timeoutMs: EMILY_POLL_TIMEOUT_MS,
        maxRetries: EMILY_POLL_RETRIES,
        maxRequests: EMILY_POLL_MAX_REQUESTS,
        ...options,
        deadline: () => deadlineMs,
      });
      const poll = await pollEmily(client, {
        openDeposits: plan.openDeposits,
        openWithdrawals: plan.openWithdrawals,
        limits: plan.limits,
        deposits: plan.deposits,
      });
      return {
        observations: poll.observations,
        malformed: poll.malformed,
        error: poll.error ? { kind: poll.error.kind, message: poll.error.message } : null,
        requests: client.stats().requests,
      };
    },
  };
}
