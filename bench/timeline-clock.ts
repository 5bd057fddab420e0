// The clock of the cost benchmark: real time plus every wait the watcher would have spent, without spending
// it. A sleep (rate-limit pacing) and an assumed network round trip move the clock forward at once; real
// work in between moves it as real time does. Concurrent waits overlap, as they would: the clock moves to
// the latest wake-up asked for, not to the sum of them.
import type { Clock } from '../lambda/core/ports';

export class TimelineClock implements Clock {
  private skew = 0;
  private readonly startMs: number;

  constructor() {
    this.startMs = this.now();
  }

  readonly now = (): number => performance.now() + this.skew;

  readonly sleep = (ms: number): Promise<void> => {
    const wakeAt = this.now() + Math.max(0, ms);
    this.skew = Math.max(this.skew, wakeAt - performance.now());
    return new Promise((resolve) => setImmediate(resolve));
  };

  /** A fetch that takes `latencyMs` of timeline per request on top of the real one. */
  fetchWithLatency(latencyMs: number): typeof fetch {
    return async (input, init) => {
      await this.sleep(latencyMs);
      return fetch(input, init);
    };
  }

  elapsed(): number {
    return this.now() - this.startMs;
  }
}
