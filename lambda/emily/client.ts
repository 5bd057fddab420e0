// The Emily adapter: sBTC's public API read for deposits, withdrawals and limits, each answer checked against
// Emily's OpenAPI shapes and turned into the watcher's sBTC records. Routes: `GET /deposit?status=`,
// `/deposit/{txid}/{index}`, `/withdrawal?status=`, `/withdrawal/{id}`, `/limits`.
import type { MalformedRecord, SbtcDeposit, SbtcLimits, SbtcStatus, SbtcWithdrawal } from '../core/sbtc/records';
import { EmilyError } from './errors';
import { EmilyHttp, type EmilyStats } from './http';
import { resolveEmilyOptions, type EmilyClientOptions } from './options';
import { readDeposit, readLimits, readRecords, readWithdrawal } from './records';
import { depositPageSchema, depositSchema, limitsSchema, withdrawalPageSchema, withdrawalSchema } from './schemas';

export interface EmilyPage<T> {
  items: T[];
  /** Pass to the next call for the next page; null on the last. */
  nextToken: string | null;
  /** Records the page held that could not be read, each with what is wrong with it. */
  malformed: MalformedRecord[];
}

export interface EmilyClient {
  readonly baseUrl: string;
  deposits(status: SbtcStatus, nextToken?: string): Promise<EmilyPage<SbtcDeposit>>;
  /** null when Emily does not know it. */
  deposit(bitcoinTxid: string, outputIndex: number): Promise<SbtcDeposit | null>;
  withdrawals(status: SbtcStatus, nextToken?: string): Promise<EmilyPage<SbtcWithdrawal>>;
  withdrawal(requestId: number): Promise<SbtcWithdrawal | null>;
  limits(): Promise<SbtcLimits>;
  stats(): EmilyStats;
}

const idOfDeposit = (raw: unknown): string | null => {
  const r = raw as { bitcoinTxid?: unknown; bitcoinTxOutputIndex?: unknown } | null;
  return typeof r?.bitcoinTxid === 'string' && typeof r.bitcoinTxOutputIndex === 'number' ? `${r.bitcoinTxid}:${r.bitcoinTxOutputIndex}` : null;
};
const idOfWithdrawal = (raw: unknown): string | null => {
  const id = (raw as { requestId?: unknown } | null)?.requestId;
  return typeof id === 'number' ? String(id) : null;
};

export function createEmilyClient(options: EmilyClientOptions): EmilyClient {
  const resolved = resolveEmilyOptions(options);
  const http = new EmilyHttp(resolved);
  const pageQuery = (status: SbtcStatus, nextToken: string | undefined) =>
    [['status', status], ['pageSize', resolved.pageSize], ...(nextToken ? [['nextToken', nextToken] as const] : [])] as const;

  return {
    baseUrl: resolved.baseUrl.href,
    stats: () => http.stats(),
    async deposits(status, nextToken) {
      const route = 'GET /deposit';
      const body = (await http.get({ route, path: '/deposit', query: pageQuery(status, nextToken) }, depositPageSchema))!;
      return { ...readRecords(body.deposits, 'deposits', readDeposit, idOfDeposit), nextToken: body.nextToken ?? null };
    },
    async deposit(bitcoinTxid, outputIndex) {
      const route = 'GET /deposit/{txid}/{index}';
      if (!/^[0-9a-fA-F]{64}$/.test(bitcoinTxid))
        throw new EmilyError('bad-input', route, `txid "${bitcoinTxid.slice(0, 80)}" is not a Bitcoin txid (64 hex digits)`);
      if (!Number.isInteger(outputIndex) || outputIndex < 0)
        throw new EmilyError('bad-input', route, `output index ${outputIndex} is not a whole number of at least 0`);
      const path = `/deposit/${bitcoinTxid.toLowerCase()}/${outputIndex}`;
      const body = await http.get({ route, path, expect: [404] }, depositSchema);
      return body === null ? null : single(readDeposit(body, 'deposit'), `GET ${path}`);
    },
    async withdrawals(status, nextToken) {
      const route = 'GET /withdrawal';
      const body = (await http.get({ route, path: '/withdrawal', query: pageQuery(status, nextToken) }, withdrawalPageSchema))!;
      return { ...readRecords(body.withdrawals, 'withdrawals', readWithdrawal, idOfWithdrawal), nextToken: body.nextToken ?? null };
    },
    async withdrawal(requestId) {
      const route = 'GET /withdrawal/{id}';
      if (!Number.isSafeInteger(requestId) || requestId < 0)
        throw new EmilyError('bad-input', route, `request id ${requestId} is not a whole number of at least 0`);
      const path = `/withdrawal/${requestId}`;
      const body = await http.get({ route, path, expect: [404] }, withdrawalSchema);
      return body === null ? null : single(readWithdrawal(body, 'withdrawal'), `GET ${path}`);
    },
    async limits() {
      return readLimits((await http.get({ route: 'GET /limits', path: '/limits' }, limitsSchema))!);
    },
  };
}

function single<T>(read: { ok: true; value: T } | { ok: false; problem: string }, endpoint: string): T {
  if (read.ok) return read.value;
  throw new EmilyError('malformed-answer', endpoint, `the answer is not what Emily's spec gives: ${read.problem}`);
}
