// Scripted misbehaviour for the fake server: one-off or repeated overrides of the next matching requests
// (a 429 storm, a 503, a hang, an HTML page, a `total` that changes between pages), or a function that
// decides per request.
import type { SeenRequest } from './routes';

export interface FaultOverride {
  /** Answer with this status instead of the real one (with a Fastify-style body unless `body` is given). */
  status?: number;
  /** Extra or replacing headers, e.g. `{ 'retry-after': '2' }`; null removes a header the answer would have. */
  headers?: Record<string, string | null>;
  /** Replacing body: an object is sent as JSON, a string as is (HTML, truncated JSON), a Buffer byte for byte (a huge body made once). */
  body?: unknown;
  /** Wait this long (real ms) before answering, e.g. past the client's timeout. */
  delayMs?: number;
  /** Close the connection without answering (a network error). */
  hangUp?: boolean;
  /** Change the normal JSON answer (e.g. bump `total`); not used with `status` or `body`. */
  transform?: (body: unknown) => unknown;
}

/** Which requests an override applies to: a route name from ROUTES, an exact path, a regex on path+query, or a test. */
export type RequestMatcher = string | RegExp | ((request: SeenRequest) => boolean);

export type FaultRule = (request: SeenRequest) => FaultOverride | undefined;

interface Queued {
  override: FaultOverride;
  match: RequestMatcher | undefined;
  remaining: number;
}

export class FaultPlan {
  private readonly queue: Queued[] = [];
  private readonly rules: FaultRule[] = [];

  /** The next matching request gets `override`. */
  once(override: FaultOverride, match?: RequestMatcher): this {
    return this.times(1, override, match);
  }

  /** The next `count` matching requests get `override` (queued after earlier entries). */
  times(count: number, override: FaultOverride, match?: RequestMatcher): this {
    this.queue.push({ override, match, remaining: count });
    return this;
  }

  /** Every request is offered to `rule` (after the queue); returns a function that removes it. */
  use(rule: FaultRule): () => void {
    this.rules.push(rule);
    return () => {
      const index = this.rules.indexOf(rule);
      if (index >= 0) this.rules.splice(index, 1);
    };
  }

  clear(): void {
    this.queue.length = 0;
    this.rules.length = 0;
  }

  /** Queued overrides not used yet. */
  get pending(): number {
    return this.queue.reduce((sum, entry) => sum + entry.remaining, 0);
  }

  /** The override for `request`, consuming a queued one if it matches. */
  take(request: SeenRequest): FaultOverride | undefined {
    const index = this.queue.findIndex((entry) => matches(entry.match, request));
    if (index >= 0) {
      const entry = this.queue[index]!;
      entry.remaining -= 1;
      if (entry.remaining <= 0) this.queue.splice(index, 1);
      return entry.override;
    }
    for (const rule of this.rules) {
      const override = rule(request);
      if (override) return override;
    }
    return undefined;
  }
}

function matches(match: RequestMatcher | undefined, request: SeenRequest): boolean {
  if (match === undefined) return true;
  if (typeof match === 'function') return match(request);
  if (match instanceof RegExp) return match.test(request.url);
  return match === request.route || match === request.path;
}
