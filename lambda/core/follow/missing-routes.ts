// The routes a process found an API lacks (a 404 from an API older than the route) or answering in a way
// stacks-watch cannot use (a shape it cannot read, a query form it refuses with a 400): each is not asked again
// for an hour, then one request asks it again, since an upgraded API answers it. Unlike a 410 (retired for good:
// hiro/deprecations.ts), a missing route may come back. Kept by the runner across the runs (and the Lambda
// container across the per-invocation clients) of its process: no module keeps it, so nothing outlives its runner.

/** How long a route found missing is not asked again in the process: one request an hour finds an upgraded API. */
export const REPROBE_MS = 60 * 60_000;

/** What one API (its base URL) was found to lack: each route with the time it may be asked again, and those told. */
export interface ApiRoutes {
  missing: Map<string, number>;
  /** Told to the operator (until the route answers again). */
  told: Set<string>;
}

/** One API's missing routes on one clock, for a reader that asks that API (the Hiro client). */
export interface RouteMemory {
  /** Whether `route` was found missing and is not to be asked before the hourly re-check. */
  skips(route: string): boolean;
  /** `route` found missing now: not asked again before the time returned. */
  found(route: string): number;
  /** `route` answered: asked as any other from now on; true when it had been found missing. */
  answered(route: string): boolean;
}

/** The routes a process found missing, per API: kept by the runner across its runs, as a process lives. */
export class MissingRoutes {
  private readonly byApi = new Map<string, ApiRoutes>();

  of(api: string | undefined): ApiRoutes {
    const key = api ?? '';
    if (!this.byApi.has(key)) this.byApi.set(key, { missing: new Map(), told: new Set() });
    return this.byApi.get(key)!;
  }

  /** `route` of `api` found missing at `now`: the time a run may ask it again. */
  found(api: string | undefined, route: string, now: number): number {
    const probeAt = now + REPROBE_MS;
    this.of(api).missing.set(route, probeAt);
    return probeAt;
  }

  /** Whether `route` of `api` was found missing and is not to be asked again before its re-check. */
  skips(api: string | undefined, route: string, now: number): boolean {
    const probeAt = this.byApi.get(api ?? '')?.missing.get(route);
    return probeAt !== undefined && now < probeAt;
  }

  /** `route` of `api` answered: forgotten, and a later 404 is news again. True when it had been found missing. */
  answered(api: string | undefined, route: string): boolean {
    const routes = this.byApi.get(api ?? '');
    routes?.told.delete(route);
    return routes?.missing.delete(route) ?? false;
  }

  /** The memory of one API on one clock. */
  at(api: string, now: () => number): RouteMemory {
    return {
      skips: (route) => this.skips(api, route, now()),
      found: (route) => this.found(api, route, now()),
      answered: (route) => this.answered(api, route),
    };
  }
}
