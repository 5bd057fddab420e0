// How soon an alert follows its block: the `latency` setting (deploy.json or -c) and the loop's period,
// `loopDelaySeconds`. `schedule` runs the watcher once a schedule interval; `loop` runs a turn every few
// seconds, each queuing the next on SQS with a delay, the schedule only restarting a loop that died
// (docs/latency.md says what was weighed and why the schedule stays the default).
import { z } from 'zod';
import { wholeNumber } from './context-values';

export type LatencyMode = 'schedule' | 'loop';

/** The deploy's latency mode when none is given (docs/latency.md says why). */
export const DEFAULT_LATENCY: LatencyMode = 'schedule';
/** A loop turn every this many seconds: alerts within 10 s at the 90th percentile (bench, latency table). */
export const DEFAULT_LOOP_DELAY_SECONDS = 8;

/** The latency settings' schema pieces, which the deploy settings' schema spreads in. */
export const latencyContext = {
  latency: z.enum(['schedule', 'loop'], { error: 'must be schedule or loop' }).default(DEFAULT_LATENCY),
  loopDelaySeconds: wholeNumber(1, 60, ' of seconds').default(DEFAULT_LOOP_DELAY_SECONDS),
};

/**
 * Polling inside the invocation (`pollSeconds`) is retired: the loop alerts as soon for about a third of the
 * price (docs/latency.md). A settings file that still says `"pollSeconds": 0` (off, as the example once showed
 * it) deploys; any other value is refused, naming the loop.
 */
export const RETIRED_POLL_KEY = 'pollSeconds';

/** The refusal of `pollSeconds` set to `value` (a number in the file, text with -c), or null when it is off. */
export function retiredPollProblem(value: unknown): string | null {
  if (value === undefined || value === 0 || (typeof value === 'string' && value.trim() === '0')) return null;
  return (
    `${RETIRED_POLL_KEY}: polling inside the invocation is retired; set "latency": "loop" instead (a turn every ` +
    `loopDelaySeconds, ${DEFAULT_LOOP_DELAY_SECONDS} s by default: alerts as soon, for about a third of the price; docs/latency.md) and remove pollSeconds`
  );
}
