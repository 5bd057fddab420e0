// How soon an alert follows its block: the `latency` setting (deploy.json or -c) and the loop's period,
// `loopDelaySeconds`. `schedule` runs the watcher once a schedule interval; `loop` runs a turn every few
// seconds, each queuing the next on SQS with a delay, the schedule only restarting a loop that died
// (docs/latency.md says what was weighed). The shipped deploy.json chooses the loop; a settings file that names
// no latency keeps the schedule, as it deployed before.
import { z } from 'zod';
import { wholeNumber } from './context-values';
import { doorbellContext, doorbellSettings, type DoorbellSettings } from './doorbell-settings';

export type LatencyMode = 'schedule' | 'loop';

/** The deploy's latency mode when the settings name none: the cheapest bill (docs/latency.md). */
export const DEFAULT_LATENCY: LatencyMode = 'schedule';
/** A loop turn every this many seconds: alerts within 10 s at the 90th percentile (bench, latency table). */
export const DEFAULT_LOOP_DELAY_SECONDS = 8;

/** The latency settings' schema pieces, which the deploy settings' schema spreads in. */
export const latencyContext = {
  latency: z.enum(['schedule', 'loop'], { error: 'must be schedule or loop' }).default(DEFAULT_LATENCY),
  loopDelaySeconds: wholeNumber(1, 60, ' of seconds').default(DEFAULT_LOOP_DELAY_SECONDS),
  ...doorbellContext,
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

/** How soon an alert follows its block, as the deploy settings hold it. */
export interface LatencySettings {
  /**
   * `schedule`: one run a schedule interval; `loop`: a turn every `loopDelaySeconds`, each queuing the next
   * on SQS with a delay, the schedule only restarting a loop that died (docs/latency.md).
   */
  latency: LatencyMode;
  loopDelaySeconds: number;
  /** Set: a function URL a push source rings to start a cycle at once (docs/doorbell.md). */
  doorbell?: DoorbellSettings;
}

export function latencySettings(values: { latency: LatencyMode; loopDelaySeconds: number; doorbell: boolean | { secretArn: string } }): LatencySettings {
  const doorbell = doorbellSettings(values.doorbell);
  return { latency: values.latency, loopDelaySeconds: values.loopDelaySeconds, ...(doorbell ? { doorbell } : {}) };
}

/** Settings that contradict the latency mode. */
export function latencyProblems(values: { latency: LatencyMode; doorbell?: unknown; reserveConcurrency?: boolean }): string[] {
  if (values.doorbell !== undefined && values.doorbell !== false) {
    // The loop's turns and the doorbell's rings would contend for one lease; the loop needs no bell.
    if (values.latency === 'loop') return ['doorbell: the loop already looks every few seconds; the doorbell is for latency=schedule (docs/doorbell.md)'];
    // One ring at a time is what bounds a flood's bill: the doorbell reserves one concurrent execution.
    if (values.reserveConcurrency === false) return ['doorbell: needs reserveConcurrency (one ring at a time bounds what a flood of rings costs)'];
  }
  return [];
}
