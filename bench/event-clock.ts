// The clock of the duration benchmarks: real time plus every wait the watcher would have spent, without
// spending it, with concurrent waits overlapping as they would. Sleeps (rate-limit pacing, assumed round
// trips) are timers on a queue; whenever nothing is running, neither local work nor real I/O to the
// in-process fakes, the clock jumps to the earliest timer and wakes it. Two requests sent together each
// wait their 100 ms at the same time, so a run's duration is what the function would be billed for.
//
// Timed by CPU (`cpuStretch`), the clock moves only with this process's own CPU work (process.cpuUsage(), user +
// system, every thread) stretched to the function's share of a vCPU, and with its jumps: time spent waiting on
// real I/O to stand-ins out of the process (bench/stand-ins.ts) counts nothing, the assumed round trip is its
// cost. A burst of work stretched past a pending timer's moment lets the timer fire with no jump: stretched work
// and waits overlap as they would in the function.
import type { Clock } from '../lambda/core/ports';
import type { HttpGet } from '../lambda/hiro/http-get';
import { nodeGet } from '../lambda/hiro/node-get';

/**
 * "Lambda allocates CPU power in proportion to the amount of memory configured. [...] At 1,769 MB, a function has
 * the equivalent of one vCPU (one vCPU-second of credits per second)." (Lambda developer guide, configuring memory)
 */
export const ONE_VCPU_MB = 1_769;

/**
 * How much longer the same CPU work takes in a function of `memoryMb` than on one whole core of this machine: a
 * function below 1,769 MB has that share of a vCPU (256 MB: 0.145, work 6.9 times as long; 128 MB: 0.072, 13.8
 * times); above it, never faster than one core, since the cycle's work runs on one thread.
 */
export function cpuStretch(memoryMb: number): number {
  if (!(memoryMb > 0)) throw new Error(`a function's memory is a positive number of MB, not ${memoryMb}`);
  return Math.max(1, ONE_VCPU_MB / memoryMb);
}

export interface EventClockOptions {
  /** Time this process's CPU work, each ms of it counted this many times (cpuStretch), instead of real time. */
  cpuStretch?: number;
  /** The CPU ms spent so far: this process's (processCpuMs) unless told (a test drives its own). */
  cpuMs?: () => number;
}

/** This process's CPU time, user + system, every thread, in ms. */
export function processCpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

interface Sleeper {
  wakeAt: number;
  seq: number;
  resolve: () => void;
}

export class EventClock implements Clock {
  private skew = 0;
  /** The clock's own time without its jumps: real ms, or stretched CPU ms. */
  private readonly local: () => number;
  /** Epoch ms at local() = 0: the watcher reads this clock as wall time (record expiry, UTC days). */
  private readonly origin: number;
  private readonly startMs: number;
  private readonly sleepers: Sleeper[] = [];
  private seq = 0;
  /** Real I/O under way (to the fake API, dynalite): the clock does not jump until it is done. */
  private busy = 0;
  private scheduled = false;

  constructor(options: EventClockOptions = {}) {
    const stretch = options.cpuStretch;
    if (stretch === undefined) this.local = () => performance.now();
    else {
      const cpuMs = options.cpuMs ?? processCpuMs;
      const start = cpuMs();
      this.local = () => (cpuMs() - start) * stretch;
    }
    this.origin = Date.now() - this.local();
    this.startMs = this.now();
  }

  readonly now = (): number => this.origin + this.local() + this.skew;

  readonly sleep = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      this.sleepers.push({ wakeAt: this.now() + Math.max(0, ms), seq: this.seq++, resolve });
      this.schedule();
    });

  /** Runs real I/O: no timer fires, and the clock does not jump, until it settles. */
  async track<T>(work: () => Promise<T>): Promise<T> {
    this.busy += 1;
    try {
      return await work();
    } finally {
      this.busy -= 1;
      this.schedule();
    }
  }

  /**
   * The function's own GET (node:http, lambda/hiro/node-get.ts), the answer read whole as real I/O and handed on
   * from memory: no timer fires, and the clock does not jump, while a request is out.
   */
  readonly get: HttpGet = (url, init) =>
    this.track(async () => {
      const answer = await nodeGet(url, init);
      const chunks: Uint8Array[] = [];
      for await (const chunk of answer.body) chunks.push(chunk);
      const body = Buffer.concat(chunks);
      return {
        status: answer.status,
        headers: answer.headers,
        body: (async function* () {
          if (body.length > 0) yield body;
        })(),
        cancel: () => {},
      };
    });

  /** The GET above after `latencyMs` on the clock: the round trip the function would wait. */
  getWithLatency(latencyMs: number): HttpGet {
    return async (url, init) => {
      await this.sleep(latencyMs);
      return this.get(url, init);
    };
  }

  elapsed(): number {
    return this.now() - this.startMs;
  }

  // setImmediate, not a microtask: whatever a woken sleeper does synchronously or in promise callbacks
  // (start the next request, sleep again) happens before the clock is allowed to move on.
  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      if (this.busy > 0 || this.sleepers.length === 0) return;
      this.sleepers.sort((a, b) => a.wakeAt - b.wakeAt || a.seq - b.seq);
      const next = this.sleepers.shift()!;
      this.skew += Math.max(0, next.wakeAt - this.now());
      next.resolve();
      if (this.sleepers.length > 0) this.schedule();
    });
  }
}
