// A clock for the Hiro client's injectable `now` and `sleep`: sleeping takes no real time, the clock jumps
// to the earliest sleeper's wake-up, one sleeper at a time, so request start times come out exact and
// the same on every run (while real I/O to the fake server still happens in real time).

export class VirtualClock {
  private current: number;
  private readonly sleepers: { wakeAt: number; seq: number; resolve: () => void }[] = [];
  private seq = 0;
  private scheduled = false;
  /** Every sleep asked for, in ms, in order. */
  readonly sleeps: number[] = [];

  constructor(startMs = 1_750_000_000_000) {
    this.current = startMs;
  }

  readonly now = (): number => this.current;

  readonly sleep = (ms: number): Promise<void> => {
    this.sleeps.push(ms);
    return new Promise((resolve) => {
      this.sleepers.push({ wakeAt: this.current + Math.max(0, ms), seq: this.seq++, resolve });
      this.schedule();
    });
  };

  /** Moves the clock forward by hand (time passing between calls). */
  advance(ms: number): void {
    this.current += ms;
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    // setImmediate, not a microtask: everything a woken sleeper does synchronously (reading the clock,
    // calling fetch, sleeping again) happens before the clock moves on.
    setImmediate(() => {
      this.scheduled = false;
      if (this.sleepers.length === 0) return;
      this.sleepers.sort((a, b) => a.wakeAt - b.wakeAt || a.seq - b.seq);
      const next = this.sleepers.shift()!;
      this.current = Math.max(this.current, next.wakeAt);
      next.resolve();
      if (this.sleepers.length > 0) this.schedule();
    });
  }
}
