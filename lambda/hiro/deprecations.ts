// Hiro's deprecated routes as this process has seen them: which answered with a deprecation `Warning`
// (still served, to be retired one day) and which answered 410 Gone (retired: the client uses their v3
// replacement from then on, for the rest of the process's life, rather than asking again on every block).
// A 410 is for good, so the process remembers it beyond one client: the Lambda container, which builds a client
// per invocation, keeps a RetiredRoutes and hands it to each (the local runner's one client lives as long as it).
import type { HeaderReader } from './http-get';
import type { ApiDeprecation } from '../core/domain';
import { HiroGoneError, oneLine } from './errors';

export const DEPRECATED_ROUTES = {
  blockTransactions: 'GET /extended/v2/blocks/{height_or_hash}/transactions',
  txMultiple: 'GET /extended/v1/tx/multiple',
  block: 'GET /extended/v2/blocks/{height_or_hash}',
} as const;

export const V3_ROUTES = {
  blockTransactions: 'GET /extended/v3/blocks/{height_or_hash}/transactions',
  transactionEvents: 'GET /extended/v3/transactions/{tx_id}/events',
} as const;

/** What each deprecated route is replaced by here (the block header's v3 successor is not confirmed yet). */
const REPLACEMENT: Record<string, string> = {
  [DEPRECATED_ROUTES.blockTransactions]: V3_ROUTES.blockTransactions,
  [DEPRECATED_ROUTES.txMultiple]: V3_ROUTES.transactionEvents,
  [DEPRECATED_ROUTES.block]: V3_ROUTES.blockTransactions,
  // The balance now and the principal's changes since (past-balances.ts).
  'GET /extended/v1/address/{principal}/balances': 'GET /extended/v3/principals/{principal}/balances/stx',
};

/** RFC 9111 warn-code 299 ("miscellaneous persistent warning"), which Hiro's deprecation plugin sends. */
const DEPRECATION_WARNING = /^\s*299\b/;

/** A route in the warning's words (`use GET /extended/v3/… instead`); a docs link is not a replacement. */
const NAMED_ROUTE = /(?:\b(GET|POST)\s+)?(\/(?:extended|v2)\/[^\s"',;]+)/;

/**
 * The replacement a deprecation warning names, as a route (`GET /extended/v3/…`), or null when it names none:
 * Hiro's plugin sends each route's own `deprecatedMessage` when it has one, else a link to its docs.
 */
export function replacementNamedIn(warning: string): string | null {
  const match = NAMED_ROUTE.exec(warning);
  return match ? `${match[1] ?? 'GET'} ${match[2]}` : null;
}

/**
 * The routes a process found retired (410 Gone), per API (its base URL): kept by the runner across the clients
 * it builds, so that a later client goes straight to the replacement instead of asking the route once more.
 * It holds at most the deprecated routes a client reads, per API the runner reads.
 */
export class RetiredRoutes {
  private readonly byApi = new Map<string, Set<string>>();
  private readonly servedByApi = new Map<string, Set<string>>();

  /** The routes `api` was found to have retired, to be added to as more answer 410. */
  of(api: string): Set<string> {
    return setOf(this.byApi, api);
  }

  /**
   * The routes `api` was seen to serve (a 2xx answer) in the process: a run reading many blocks at once asks
   * the first alone only while its route is neither served nor retired as far as the process knows (block-source.ts).
   */
  servedOf(api: string): Set<string> {
    return setOf(this.servedByApi, api);
  }
}

function setOf(byApi: Map<string, Set<string>>, api: string): Set<string> {
  let routes = byApi.get(api);
  if (!routes) byApi.set(api, (routes = new Set()));
  return routes;
}

export class RouteDeprecations {
  /** Seen since the last take(), one entry per route; a 410 replaces a warning. */
  private unreported = new Map<string, ApiDeprecation>();
  /**
   * Warnings already taken: a deprecated route is news once per client, that is once per Lambda invocation
   * (which builds its own client) and once per local runner process, not once per polling cycle.
   */
  private readonly reported = new Set<string>();

  /**
   * `retired`: the routes the process already found retired on this client's API (RetiredRoutes), shared with it;
   * `served`: those it has seen answer.
   */
  constructor(
    private readonly retired: Set<string> = new Set(),
    private readonly served: Set<string> = new Set(),
  ) {}

  /** `route` answered (2xx): it is served, until a 410 says otherwise. */
  answered(route: string): void {
    this.served.add(route);
  }

  /** Whether the process knows how `route` answers: seen served, or found retired. */
  known(route: string): boolean {
    return this.served.has(route) || this.retired.has(route);
  }

  /**
   * Looks at every answer's headers: any route the server marks with a 299 warning is listed, whether or not
   * the watcher knows it as deprecated; other warn-codes are not deprecations.
   */
  observe(route: string, headers: HeaderReader): void {
    const warning = headers.get('warning');
    if (!warning || !DEPRECATION_WARNING.test(warning) || this.unreported.has(route) || this.reported.has(route)) return;
    const named = replacementNamedIn(warning);
    this.unreported.set(route, {
      route,
      replacement: named ?? REPLACEMENT[route] ?? null,
      replacementNamedByApi: named !== null,
      gone: this.retired.has(route),
      detail: oneLine(warning.trim()),
    });
  }

  /** The route answered 410: from now on the client goes straight to its replacement. */
  retire(route: string, detail: string): void {
    this.retired.add(route);
    this.served.delete(route);
    this.unreported.set(route, { route, replacement: REPLACEMENT[route] ?? null, gone: true, detail });
  }

  isRetired(route: string): boolean {
    return this.retired.has(route);
  }

  take(): ApiDeprecation[] {
    const taken = [...this.unreported.values()];
    this.unreported = new Map();
    for (const deprecation of taken) this.reported.add(deprecation.route);
    // A retired route stays news for every cycle, whichever client of the process met its 410: the operator must
    // hear it until the watcher is updated (the cycle tells it at most once a day: core/follow/api-deprecations.ts).
    for (const route of this.retired) {
      if (!taken.some((d) => d.route === route)) {
        taken.push({ route, replacement: REPLACEMENT[route] ?? null, gone: true, detail: 'answered 410 Gone earlier in this process' });
      }
    }
    return taken;
  }
}

/**
 * Runs `deprecated` unless its route is retired; when it answers 410, retires the route and runs `successor`,
 * now and for every later call. Only a 410 from that route itself switches: any other failure is the caller's.
 */
export async function withSuccessor<T>(
  routes: RouteDeprecations,
  route: string,
  deprecated: () => Promise<T>,
  successor: () => Promise<T>,
  log: (level: 'warn', message: string, attributes: Record<string, unknown>) => void,
): Promise<T> {
  if (!routes.isRetired(route)) {
    try {
      return await deprecated();
    } catch (error) {
      if (!(error instanceof HiroGoneError) || error.route !== route) throw error;
      if (!routes.isRetired(route)) {
        log('warn', 'Hiro retired a route (410 Gone); using its v3 replacement from now on', {
          endpoint: route,
          replacement: REPLACEMENT[route] ?? null,
          detail: error.message,
        });
      }
      routes.retire(route, error.message);
    }
  }
  return successor();
}
