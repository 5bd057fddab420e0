// The fake Hiro server: a real node:http server on 127.0.0.1 answering from a FakeChain, with a request
// log, scripted faults, optional API-key checks and an optional rate-limit budget.
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import { listenLocally } from '../local-server';
import { FakeChain } from './chain';
import { FaultPlan, type FaultOverride } from './faults';
import { FakeRateLimit, type FakeRateLimitOptions } from './rate-limit';
import { answer, DEPRECATION_WARNINGS, routeOf, type FakeAnswer, type SeenRequest, type SubjectRoutes } from './routes';
import { errorBody } from './shapes';
import type { V3BlockShape } from './routes-v3-blocks';

export interface FakeHiroOptions {
  /** The chain to serve; a fresh empty FakeChain by default. */
  chain?: FakeChain;
  /** Report (and by default enforce) a request budget. Without it, headers report an untouched budget. */
  rateLimit?: FakeRateLimitOptions;
  /** Check X-API-Key: a wrong key is a 403; no key is a 401 when `required`, else served. */
  apiKey?: { key: string; required?: boolean };
  /** Send the deprecated routes' `Warning: 299` header, as the real API does (default true). */
  deprecationWarnings?: boolean;
  /** How the v3 block routes answer (routes-v3-blocks.ts); 'absent' as before API 9.7.0. Default 'v3'. */
  v3BlockShape?: V3BlockShape | 'absent';
  /** Which per-subject routes (contract logs, principal feeds, the batch) the API has (routes.ts). Default all. */
  subjectRoutes?: SubjectRoutes;
}

export interface RunningFakeHiro {
  /** e.g. `http://127.0.0.1:41234` */
  url: string;
  /** Stops the server, dropping open connections and pending delays. */
  close(): Promise<void>;
}

export class FakeHiro {
  readonly chain: FakeChain;
  readonly faults = new FaultPlan();
  /** Every request seen, in arrival order. */
  readonly requests: SeenRequest[] = [];
  private readonly rateLimit: FakeRateLimit;
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly retired = new Set<string>();

  constructor(private readonly options: FakeHiroOptions = {}) {
    this.chain = options.chain ?? new FakeChain();
    this.rateLimit = new FakeRateLimit(options.rateLimit);
  }

  /** Requests seen for a route name (see ROUTES) or an exact path; all requests without an argument. */
  count(routeOrPath?: string): number {
    return this.requestsTo(routeOrPath).length;
  }

  requestsTo(routeOrPath?: string): SeenRequest[] {
    if (routeOrPath === undefined) return [...this.requests];
    return this.requests.filter((r) => r.route === routeOrPath || r.path === routeOrPath);
  }

  /** Requests per route name. */
  counts(): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const { route } of this.requests) counts[route] = (counts[route] ?? 0) + 1;
    return counts;
  }

  /**
   * Answer these routes (names from ROUTES) 410 Gone from now on, as the API does for every deprecated route
   * once its ENABLE_DEPRECATED_ENDPOINTS switch is off; no argument brings them all back.
   */
  retire(...routes: string[]): void {
    if (routes.length === 0) this.retired.clear();
    for (const route of routes) this.retired.add(route);
  }

  clearLog(): void {
    this.requests.length = 0;
  }

  /** On a random free port unless `port` is given (the demo serves a fixed one). */
  async start(options: { port?: number } = {}): Promise<RunningFakeHiro> {
    return listenLocally({
      handle: (req, res) => this.handle(req, res),
      failureBody: (error) => errorBody(500, 'Internal Server Error', `fake hiro failed: ${String(error)}`),
      timers: this.timers,
      ...(options.port === undefined ? {} : { port: options.port }),
    });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake-hiro');
    const method = req.method ?? 'GET';
    const seen: SeenRequest = {
      seq: this.requests.length + 1,
      method,
      path: url.pathname,
      query: url.searchParams,
      url: `${url.pathname}${url.search}`,
      headers: req.headers,
      route: routeOf(method, url.pathname),
      receivedAt: performance.now(),
    };
    this.requests.push(seen);
    const fault = this.faults.take(seen);
    if (fault?.delayMs) await this.delay(fault.delayMs);
    if (fault?.hangUp) {
      req.socket.destroy();
      return;
    }
    const budget = this.rateLimit.consume();
    const reply = this.reply(seen, fault, budget.allowed);
    const headers: Record<string, string | null> = {
      ...budget.headers,
      ...(reply.body !== undefined ? { 'content-type': contentType(reply.body) } : {}),
      ...reply.headers,
      ...fault?.headers,
    };
    for (const [name, value] of Object.entries(headers)) if (value !== null) res.setHeader(name, value);
    res.writeHead(reply.status);
    res.end(reply.body === undefined ? undefined : typeof reply.body === 'string' || Buffer.isBuffer(reply.body) ? reply.body : JSON.stringify(reply.body));
  }

  private reply(seen: SeenRequest, fault: FaultOverride | undefined, allowed: boolean): FakeAnswer {
    if (fault?.status !== undefined && (fault.body !== undefined || fault.status >= 300)) {
      return { status: fault.status, body: fault.body ?? defaultErrorBody(fault.status) };
    }
    if (fault?.body !== undefined) return { status: 200, body: fault.body };
    const keyProblem = this.checkApiKey(seen);
    if (keyProblem) return keyProblem;
    if (!allowed) return { status: 429, body: errorBody(429, 'Too Many Requests', 'API rate limit exceeded') };
    if (this.retired.has(seen.route)) {
      const warning = DEPRECATION_WARNINGS[seen.route];
      return {
        status: 410,
        ...(warning ? { headers: { warning } } : {}),
        body: { error: 'Gone', message: 'This endpoint has been disabled. Deprecated endpoint' },
      };
    }
    const served = answer(this.chain, seen, this.options.deprecationWarnings ?? true, this.options.v3BlockShape, this.options.subjectRoutes);
    const normal = fault?.status !== undefined ? { ...served, status: fault.status } : served;
    if (fault?.transform && normal.body !== undefined && typeof normal.body !== 'string') {
      return { ...normal, body: fault.transform(structuredClone(normal.body)) };
    }
    return normal;
  }

  private checkApiKey(seen: SeenRequest): FakeAnswer | undefined {
    const expected = this.options.apiKey;
    if (!expected) return undefined;
    const sent = seen.headers['x-api-key'];
    if (sent === undefined) {
      return expected.required ? { status: 401, body: errorBody(401, 'Unauthorized', 'API key required') } : undefined;
    }
    if (sent !== expected.key) return { status: 403, body: errorBody(403, 'Forbidden', 'Invalid API key') };
    return undefined;
  }

  private delay(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        resolve();
      }, ms);
      this.timers.add(timer);
    });
  }
}

export function createFakeHiro(options: FakeHiroOptions = {}): FakeHiro {
  return new FakeHiro(options);
}

function defaultErrorBody(status: number): unknown {
  if (status === 503) return { error: 'The database service is unavailable' };
  if (status === 410) return errorBody(410, 'Gone', 'This route has been retired');
  if (status === 304) return undefined;
  const text = STATUS_CODES[status] ?? 'Error';
  return errorBody(status, text, text);
}

function contentType(body: unknown): string {
  return typeof body === 'string' && body.trimStart().startsWith('<') ? 'text/html; charset=utf-8' : 'application/json; charset=utf-8';
}
