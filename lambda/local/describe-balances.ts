// What `--check` and `npm run config -- validate` say of the balance rules' reads: how many addresses a run
// reads within its share of the request budget (lambda/hiro/balance-share.ts), without an API key and with
// one, and a warning past it: the rules then start over several runs, each alerting nothing until read.
import type { WatchConfig } from '../core/watch-config/watch-config-schema';
import { formatCount } from '../core/render/stx-amount';
import { balanceReadsPerRun } from '../hiro/balance-share';
import { RATE_LIMIT_WITH_KEY, RATE_LIMIT_WITHOUT_KEY } from '../hiro/options';

export interface BalanceBudgetApi {
  requestsPerMinute: number;
  hasKey: boolean;
}

/** How runs are named and spaced: the local runner's cycles (`--interval`), or the deployed function's runs. */
export interface RunCadence {
  seconds: number;
  /** "cycle" or "run". */
  word: string;
}

/** The line on the balance reads, or null without balance rules. */
export function balanceBudgetWords(config: Pick<WatchConfig, 'balances'>, api: BalanceBudgetApi, cadence: RunCadence): string | null {
  const addresses = new Set(config.balances.map((rule) => rule.address)).size;
  if (addresses === 0) return null;
  const perRun = (requestsPerMinute: number) => balanceReadsPerRun(requestsPerMinute, cadence.seconds * 1000);
  const without = perRun(api.hasKey ? RATE_LIMIT_WITHOUT_KEY : api.requestsPerMinute);
  const withKey = perRun(api.hasKey ? api.requestsPerMinute : RATE_LIMIT_WITH_KEY);
  const carried = `up to ${formatCount(without)} without an API key, ${formatCount(withKey)} with one: a fifth of the request budget`;
  const held = api.hasKey ? withKey : without;
  const rules = `${formatCount(addresses)} ${addresses === 1 ? 'address' : 'addresses'}`;
  if (addresses <= held) return `- balance reads: the balance rules read ${rules}, all in the first ${cadence.word} (a ${cadence.word} reads ${carried})`;
  const runs = (reads: number) => Math.ceil(addresses / reads);
  const span = (reads: number) => `${formatCount(runs(reads))} ${cadence.word}s (${minutes(runs(reads) * cadence.seconds)})`;
  return (
    `warning: the balance rules read ${rules}, more than a ${cadence.word} reads (${carried}): they start over ${span(without)} without a key, ` +
    `${runs(withKey) === 1 ? `all in the first ${cadence.word}` : span(withKey)} with one. A rule alerts nothing until its first read; ` +
    `the blocks are scanned every ${cadence.word} meanwhile`
  );
}

function minutes(seconds: number): string {
  return seconds < 120 ? `${Math.round(seconds)} s` : `about ${formatCount(Math.round(seconds / 60))} min`;
}
