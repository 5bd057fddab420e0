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

/** Settings that contradict the latency mode. */
export function latencyProblems(values: { latency: LatencyMode; pollSeconds: number }): string[] {
  if (values.latency === 'loop' && values.pollSeconds > 0) {
    return ['pollSeconds: polling inside the invocation and latency=loop both shorten the wait for an alert; keep one (the loop is billed only for its turns)'];
  }
  return [];
}
