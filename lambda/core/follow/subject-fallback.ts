// The per-subject source on an API older than its routes (a 404 that names the route, not a cursor: the v3
// block list before API 9.7.0, a feed before its release): the run goes on through the block scan from the
// block it was at, as it would have without the plan, and the operator hears of it once per process (each Lambda
// container, each local runner), not on every run. Any other feed error is the scan's, as before.
import type { OperatorChannel, Telemetry } from '../ports';
import { SubjectFeedError } from './subject-feed-walk';
import type { ReadAheadLimits, ReadBlock } from './read-ahead';

export const ROUTE_MISSING = 'this API does not have the route';

type ReadAhead = { take(height: number, limits: ReadAheadLimits): Promise<ReadBlock | null>; discard(): void };

/** Routes already told to the operator in this process. */
const told = new Set<string>();

export class SubjectFallback implements ReadAhead {
  private current: ReadAhead;

  constructor(
    subjects: ReadAhead,
    private readonly blockScan: () => ReadAhead,
    private readonly ports: { telemetry: Telemetry; operator?: OperatorChannel },
  ) {
    this.current = subjects;
  }

  async take(height: number, limits: ReadAheadLimits): Promise<ReadBlock | null> {
    try {
      return await this.current.take(height, limits);
    } catch (error) {
      if (!(error instanceof SubjectFeedError) || !error.message.endsWith(ROUTE_MISSING)) throw error;
      await this.degrade(error.route, height);
      return this.current.take(height, limits);
    }
  }

  discard(): void {
    this.current.discard();
  }

  private async degrade(route: string, height: number): Promise<void> {
    this.current.discard();
    this.current = this.blockScan();
    const message = `the API has no ${route} (older than it): reading per subject is not possible, so the blocks from ${height} are read by the block scan`;
    this.ports.telemetry.log('warn', message, { route, height });
    if (told.has(route)) return;
    told.add(route);
    await this.ports.operator?.notify({
      kind: 'api-deprecation',
      subject: 'stacks-watch: the API lacks a per-subject route; reading by block scan',
      message: `${message}. Every block is still read and alerted as before, at the block scan's cost. Update the API (a self-hosted one) to read per subject.`,
    });
  }
}
