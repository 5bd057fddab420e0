// The per-subject source on an API older than its routes (a 404 that names the route, not a cursor: the v3
// block list before API 9.7.0, a principal's transactions or a contract's logs on an API without them): the run
// goes on through the block scan from the block it was at, as it would have without the plan, so no block is
// skipped and none is read twice. The process (each Lambda container, each local runner) remembers the route in
// the MissingFeedRoutes its runner keeps across runs (the cycle budget's `missingFeedRoutes`): its later runs keep
// the block scan without asking it (fetch-choice.ts), and one run an hour asks it again (missing-routes.ts). The operator hears of a missing route once, and once when a run reads per subject again. Any
// other feed error is the scan's, as before.
import type { ChainApi, Clock, OperatorChannel, Telemetry } from '../ports';
import { SubjectFeedError } from './subject-feed-walk';
import type { ReadAheadLimits, ReadBlock } from './read-ahead';
import { MissingRoutes } from './missing-routes';

export const ROUTE_MISSING = 'this API does not have the route';

type ReadAhead = { take(height: number, limits: ReadAheadLimits): Promise<ReadBlock | null>; discard(): void };

/** The per-subject routes a process found missing, per API (missing-routes.ts): kept by the runner across its runs. */
export class MissingFeedRoutes extends MissingRoutes {
  /** A route of `api` found missing and not to be asked again before `probeAt`; null when every one may be asked. */
  gone(now: number, api: string | undefined): { route: string; probeAt: number } | null {
    for (const [route, probeAt] of this.of(api).missing) if (now < probeAt) return { route, probeAt };
    return null;
  }
}

export class SubjectFallback implements ReadAhead {
  private current: ReadAhead;
  private degraded = false;
  private readonly missing: Map<string, number>;
  private readonly told: Set<string>;

  constructor(
    subjects: ReadAhead,
    private readonly blockScan: () => ReadAhead,
    private readonly ports: { chain: ChainApi; telemetry: Telemetry; clock: Clock; operator?: OperatorChannel },
    private readonly routes: MissingFeedRoutes,
    /** The routes the per-subject reads have seen answer: only those of the missing ones are back. */
    private readonly answered: ReadonlySet<string> = new Set(),
  ) {
    this.current = subjects;
    ({ missing: this.missing, told: this.told } = routes.of(ports.chain.subjects?.api));
  }

  async take(height: number, limits: ReadAheadLimits): Promise<ReadBlock | null> {
    let read: ReadBlock | null;
    try {
      read = await this.current.take(height, limits);
    } catch (error) {
      if (this.degraded || !(error instanceof SubjectFeedError) || !error.message.endsWith(ROUTE_MISSING)) throw error;
      await this.degrade(error.route, height);
      return this.current.take(height, limits);
    }
    // A block read per subject: a missing route the reads asked has answered (a read may not ask every route).
    if (read && !this.degraded && this.missing.size > 0) await this.recovered();
    return read;
  }

  discard(): void {
    this.current.discard();
  }

  private async degrade(route: string, height: number): Promise<void> {
    this.current.discard();
    this.current = this.blockScan();
    this.degraded = true;
    const probeAt = this.routes.found(this.ports.chain.subjects?.api, route, this.ports.clock.now());
    const message = `the API has no ${route} (older than it): reading per subject is not possible, so the blocks from ${height} are read by the block scan`;
    this.ports.telemetry.log('warn', `${message}; the route is asked again at ${new Date(probeAt).toISOString()}`, { route, height });
    if (this.told.has(route)) return;
    this.told.add(route);
    await this.ports.operator?.notify({
      kind: 'api-deprecation',
      subject: 'stacks-watch: the API lacks a per-subject route; reading by block scan',
      message:
        `${message}. Every block is still read and alerted as before, at the block scan's cost. The route is asked again once an hour; ` +
        'you will hear when it answers. Update the API (a self-hosted one) to read per subject.',
    });
  }

  private async recovered(): Promise<void> {
    const routes = [...this.missing.keys()].filter((route) => this.answered.has(route));
    for (const route of routes) {
      this.missing.delete(route);
      this.ports.telemetry.log('info', `the API answers ${route} again: reading per subject`, { route });
      if (!this.told.delete(route)) continue;
      await this.ports.operator?.notify({
        kind: 'api-deprecation',
        subject: 'stacks-watch: a per-subject route answers again; reading per subject',
        message: `The API answers ${route} again (it answered 404 before): runs read per subject again, as the fetch plan says.`,
      });
    }
  }
}
