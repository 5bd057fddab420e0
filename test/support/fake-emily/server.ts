// A fake Emily (sBTC's public API): a real node:http server on 127.0.0.1 answering the read routes the client
// uses from deposits and withdrawals a test sets, paged with `nextToken` as Emily pages, with a request log and
// the fake Hiro's fault plan (a 500, an HTML page, a hang, a huge body, a transformed answer).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { listenLocally } from '../local-server';
import { FaultPlan, type FaultOverride } from '../fake-hiro/faults';
import type { SeenRequest } from '../fake-hiro/routes';
import { DEFAULT_LIMITS, depositInfo, withdrawalInfo, type DepositJson, type WithdrawalJson } from './shapes';

const STATUSES = new Set(['pending', 'reprocessing', 'accepted', 'confirmed', 'failed', 'rbf']);

export interface RunningFakeEmily {
  url: string;
  close(): Promise<void>;
}

interface Answer {
  status: number;
  body: unknown;
}

export class FakeEmily {
  readonly deposits = new Map<string, DepositJson>();
  readonly withdrawals = new Map<number, WithdrawalJson>();
  limits: Record<string, unknown> = { ...DEFAULT_LIMITS };
  readonly faults = new FaultPlan();
  readonly requests: SeenRequest[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();

  /** `pageSize` is Emily's own default page when the request names none. */
  constructor(private readonly defaultPageSize = 50) {}

  putDeposit(deposit: DepositJson): this {
    this.deposits.set(`${deposit.bitcoinTxid}:${deposit.bitcoinTxOutputIndex}`, deposit);
    return this;
  }

  putWithdrawal(withdrawal: WithdrawalJson): this {
    this.withdrawals.set(withdrawal.requestId, withdrawal);
    return this;
  }

  count(route?: string): number {
    return route === undefined ? this.requests.length : this.requests.filter((r) => r.route === route).length;
  }

  async start(): Promise<RunningFakeEmily> {
    return listenLocally({
      handle: (req, res) => this.handle(req, res),
      failureBody: (error) => ({ message: `fake emily failed: ${String(error)}` }),
      timers: this.timers,
    });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake-emily');
    const seen: SeenRequest = {
      seq: this.requests.length + 1,
      method: req.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      url: `${url.pathname}${url.search}`,
      headers: req.headers,
      route: routeOf(url.pathname),
      receivedAt: performance.now(),
    };
    this.requests.push(seen);
    const fault = this.faults.take(seen);
    if (fault?.delayMs) await this.delay(fault.delayMs);
    if (fault?.hangUp) {
      req.socket.destroy();
      return;
    }
    const reply = withFault(this.answer(seen), fault);
    const text = typeof reply.body === 'string' || Buffer.isBuffer(reply.body) ? reply.body : JSON.stringify(reply.body);
    const html = typeof reply.body === 'string' && reply.body.trimStart().startsWith('<');
    res.setHeader('content-type', html ? 'text/html' : 'application/json');
    for (const [name, value] of Object.entries(fault?.headers ?? {})) if (value !== null) res.setHeader(name, value);
    res.writeHead(reply.status);
    res.end(text);
  }

  private answer(seen: SeenRequest): Answer {
    const parts = seen.path.split('/').filter(Boolean);
    if (seen.method !== 'GET') return { status: 405, body: { message: 'method not allowed' } };
    if (parts[0] === 'limits' && parts.length === 1) return { status: 200, body: this.limits };
    if (parts[0] === 'deposit' && parts.length === 1) {
      return this.page(
        seen,
        'deposits',
        [...this.deposits.values()].map((d) => [d.status, depositInfo(d)]),
      );
    }
    if (parts[0] === 'deposit' && parts.length === 3) {
      const found = this.deposits.get(`${parts[1]}:${parts[2]}`);
      return found ? { status: 200, body: found } : { status: 404, body: { message: 'Resource not found' } };
    }
    if (parts[0] === 'withdrawal' && parts.length === 1) {
      return this.page(
        seen,
        'withdrawals',
        [...this.withdrawals.values()].map((w) => [w.status, withdrawalInfo(w)]),
      );
    }
    if (parts[0] === 'withdrawal' && parts.length === 2) {
      const found = this.withdrawals.get(Number(parts[1]));
      return found ? { status: 200, body: found } : { status: 404, body: { message: 'Resource not found' } };
    }
    return { status: 404, body: { message: 'Resource not found' } };
  }

  /** Emily's paging: an opaque `nextToken` while more remain, none on the last page. */
  private page(seen: SeenRequest, key: 'deposits' | 'withdrawals', all: [string, unknown][]): Answer {
    const status = seen.query.get('status');
    if (!status || !STATUSES.has(status)) return { status: 400, body: { message: `invalid status: ${status}` } };
    const matching = all.filter(([s]) => s === status).map(([, item]) => item);
    const size = Number(seen.query.get('pageSize') ?? this.defaultPageSize);
    const start = seen.query.has('nextToken') ? Number(Buffer.from(seen.query.get('nextToken')!, 'base64url').toString()) : 0;
    const items = matching.slice(start, start + size);
    const next = start + size < matching.length ? Buffer.from(String(start + size)).toString('base64url') : null;
    return { status: 200, body: { [key]: items, nextToken: next } };
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

function withFault(normal: Answer, fault: FaultOverride | undefined): Answer {
  if (!fault) return normal;
  if (fault.body !== undefined) return { status: fault.status ?? 200, body: fault.body };
  if (fault.status !== undefined) return { status: fault.status, body: { message: `fault ${fault.status}` } };
  if (fault.transform) return { ...normal, body: fault.transform(structuredClone(normal.body)) };
  return normal;
}

/** The route template a path is counted under, e.g. `GET /deposit/{txid}/{index}`. */
function routeOf(path: string): string {
  const parts = path.split('/').filter(Boolean);
  if (parts[0] === 'deposit') return parts.length === 3 ? 'GET /deposit/{txid}/{index}' : 'GET /deposit';
  if (parts[0] === 'withdrawal') return parts.length === 2 ? 'GET /withdrawal/{id}' : 'GET /withdrawal';
  return `GET /${parts.join('/')}`;
}

export function createFakeEmily(defaultPageSize?: number): FakeEmily {
  return new FakeEmily(defaultPageSize);
}
