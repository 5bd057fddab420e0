// The run lease: taken at the start of a cycle, renewed between blocks once half its time is gone, given
// back at the end (with the cycle's last cursor write when there is one, so that it costs no write of its
// own). A short lease that is renewed means a runner that dies (a killed local run, a crashed
// container) blocks the next run only briefly, while a long cycle keeps it as long as it is alive.
import type { Clock, StateStore } from '../ports';

export class RunLease {
  private takenAt = 0;
  private released = false;

  constructor(
    private readonly state: StateStore,
    private readonly clock: Clock,
    readonly owner: string,
    private readonly ttlMs: number,
    /** A loop turn's: no lease is taken, kept or given back; the turn's token checked at its write stands for it. */
    private readonly byToken = false,
  ) {
    this.released = byToken;
  }

  async acquire(): Promise<boolean> {
    const now = this.clock.now();
    if (!(await this.state.acquireLease(this.owner, now, this.ttlMs))) return false;
    this.takenAt = now;
    return true;
  }

  /**
   * Takes on a lease the caller already took under this owner in a write of its own (a loop turn takes the
   * lease together with its turn token, lambda/core/scan/loop-turns.ts), so that the cycle spends no second write.
   */
  adopt(): true {
    this.takenAt = this.clock.now();
    return true;
  }

  /** Renews the lease when half of it is spent; false when another run has taken it meanwhile. */
  async keep(): Promise<boolean> {
    if (this.byToken) return true;
    if (this.clock.now() - this.takenAt < this.ttlMs / 2) return true;
    return this.acquire();
  }

  /** Called after a cursor write that gave the lease back (`releaseLeaseOf`): nothing left to release. */
  releasedWithCursor(): void {
    this.released = true;
  }

  async release(): Promise<void> {
    if (this.released) return;
    await this.state.releaseLease(this.owner);
    this.released = true;
  }
}
