// The clock of the duration benchmarks: real time plus every wait the watcher would have spent, without
// spending it, with concurrent waits overlapping as they would. Sleeps (rate-limit pacing, assumed round
// trips) are timers on a queue; whenever nothing is running, neither local work nor real I/O to the
// in-process fakes, the clock jumps to the earliest timer and wakes it. Two requests sent together each
// wait their 100 ms at the same time, so a run's duration is what the function would be billed for.
import type { Clock } from '../lambda/core/ports';

interface Sleeper {
  wakeAt: number;
  seq: number;
  resolve: () => void;
}

export class EventClock implements Clock {
  private skew = 0;
  /** Epoch ms at performance.now() = 0: the watcher reads this clock as wall time (record expiry, UTC days). */
  private readonly origin = Date.now() - performance.now();
  private readonly startMs: number;
  private readonly sleepers: Sleeper[] = [];
  private seq = 0;
  /** Real I/O under way (to the fake API, dynalite): the clock runs as real time until it is done. */
  private busy = 0;
  private scheduled = false;

  constructor() {
    this.startMs = this.now();
  }

  readonly now = (): number => this.origin + performance.now() + this.skew;

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

  /** A fetch that waits `latencyMs` on the clock (the round trip), then reads the answer whole as real I/O. */
  fetchWithLatency(latencyMs: number): typeof fetch {
    return async (input, init) => {
      await this.sleep(latencyMs);
      return this.track(async () => {
        const response = await fetch(input, init);
        const text = await response.text();
        const nullBody = [101, 204, 205, 304].includes(response.status);
        return new Response(nullBody ? null : text, { status: response.status, headers: response.headers });
      });
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
