// The Hiro adapter of the SubjectFeedApi port (core/follow/subject-feeds.ts): one page of a watched contract's logs
// or a tracked principal's transactions per call, the transaction batch that places logs in blocks, and the
// header chain from the v3 block list. Every request goes through HiroHttp: paced, retried, bounded in size,
// counted in the run's request budget. A 404 naming the route (an API older than it) says `missing`; a 404
// on a cursor says the API no longer knows it. Routes and costs: docs/api-routes.md.
import type { HeaderReader } from './http-get';
import type { FeedAnswer, FeedPosition, HeaderLink, LocatedTransaction, LogFeedItem, PrincipalFeedItem, SubjectFeedApi } from '../core/follow/subject-feeds';
import * as z from '../zod-mini';
import { V3_BLOCK_ROUTES, v3BlockListRequest } from './block-headers-v3';
import { HiroResponseError } from './errors';
import type { HiroAnswer, HiroHttp } from './http';
import { fromTransactionSummary } from './mappers-v3';
import { describeRequest, type HiroRequest } from './request';
import { contractLogsPageSchema, principalTransactionsPageSchema, transactionBatchSchema } from './schemas-subjects';
import { readV3BlockListPage } from './schemas-v3-blocks';
import type { RawTransactionSummary } from './schemas-v3';
import { checkBody } from './validate';

export const SUBJECT_ROUTES = {
  contractLogs: 'GET /extended/v2/smart-contracts/{contract_id}/logs',
  principalTransactions: 'GET /extended/v3/principals/{principal}/transactions',
  transactionBatch: 'GET /extended/v3/transactions/batch',
  stxTransfers: 'GET /extended/v3/principals/{principal}/transfers/stx/{direction}',
  ftTransfers: 'GET /extended/v3/principals/{principal}/transfers/ft/{asset_identifier}',
  stxBalance: 'GET /extended/v3/principals/{principal}/balances/stx',
  ftBalances: 'GET /extended/v3/principals/{principal}/balances/ft',
} as const;

/** Each route's largest page (the API refuses more). */
export const LOG_PAGE_LIMIT = 100;
export const PRINCIPAL_PAGE_LIMIT = 50;
/** Transaction ids per batch request: 50 ids of 66 characters keep the URL near 3.5 KB. */
export const BATCH_IDS = 50;
/** List pages walked for the header chain at most (600 blocks); the caller covers less and goes on next run. */
export const MAX_HEADER_PAGES = 20;
/** How long the newest list page the tip was read from may stand in for the header chain's first page. */
export const NEWEST_PAGE_REUSE_MS = 30_000;

const anyBody = z.unknown();

/** A cursor's `height:microblock:tx_index[:event_index]` as a position. */
export function cursorPosition(cursor: string): FeedPosition {
  const [height = 0, , txIndex = 0, eventIndex = -1] = cursor.split(':').map(Number);
  return { height, txIndex, eventIndex };
}

function etagOf(headers: HeaderReader): string | null {
  const tag = headers.get('etag');
  return tag === null ? null : tag.replace(/^W\//, '').replace(/^"|"$/g, '');
}

function located(raw: RawTransactionSummary): LocatedTransaction {
  return { transaction: fromTransactionSummary(raw), block: { height: raw.block.height, hash: raw.block.hash } };
}

export class HiroSubjectFeeds implements SubjectFeedApi {
  readonly headerRoute = V3_BLOCK_ROUTES.list;
  /** The newest list page the run's tip was read from, taken once by the header chain read that follows. */
  private newest: { body: unknown; atMs: number } | null = null;

  constructor(
    private readonly http: HiroHttp,
    private readonly now: () => number = Date.now,
  ) {}

  /** Keeps the newest list page just read (for the tip) for the header chain read that follows it. */
  keepNewestPage(body: unknown): void {
    this.newest = { body, atMs: this.now() };
  }

  /** The kept newest page when it is fresh and reaches `fromHeight`; it is handed out once. */
  private takeNewestPage(fromHeight: number): unknown {
    const kept = this.newest;
    this.newest = null;
    if (!kept || this.now() - kept.atMs > NEWEST_PAGE_REUSE_MS) return undefined;
    const page = readV3BlockListPage(kept.body);
    return page.ok && (page.value.headers[0]?.height ?? -1) >= fromHeight ? kept.body : undefined;
  }

  async headerChain(fromHeight: number): Promise<HeaderLink[] | null> {
    const headers: HeaderLink[] = [];
    let cursor: string | null = null;
    for (let pages = 0; pages < MAX_HEADER_PAGES; pages += 1) {
      const request = v3BlockListRequest(cursor);
      const kept = cursor === null ? this.takeNewestPage(fromHeight) : undefined;
      const answer = kept === undefined ? await this.http.get(request, anyBody) : { ok: true as const, body: kept };
      if (!answer.ok) return null;
      const page = readV3BlockListPage(answer.body);
      if (!page.ok) throw new HiroResponseError({ endpoint: describeRequest(request), route: request.route }, 200, page.problem);
      const raw = answer.body as { results: { index_hash?: string; index_block_hash?: string }[] };
      for (const [index, header] of page.value.headers.entries()) {
        const above = headers.at(-1);
        if (above && header.height !== above.height - 1) {
          throw new HiroResponseError(
            { endpoint: describeRequest(request), route: request.route },
            200,
            `block ${header.height} follows block ${above.height} across pages`,
          );
        }
        if (above && above.parentHash === null) above.parentHash = header.hash;
        const names = raw.results[index];
        headers.push({ ...header, indexHash: names?.index_hash ?? names?.index_block_hash ?? header.hash });
      }
      cursor = page.value.next;
      if (cursor === null || (headers.at(-1)?.height ?? -1) <= fromHeight) break;
    }
    return headers.filter((header) => header.height >= fromHeight).reverse();
  }

  async contractLogs(contractId: string, cursor: string | null, ifNoneMatch?: string): Promise<FeedAnswer<LogFeedItem>> {
    const request = this.feedRequest(
      SUBJECT_ROUTES.contractLogs,
      `/extended/v2/smart-contracts/${encodeURIComponent(contractId)}/logs`,
      LOG_PAGE_LIMIT,
      cursor,
      ifNoneMatch,
    );
    const answer = await this.http.get(request, anyBody);
    const early = this.early<LogFeedItem>(request, answer);
    if (early) return early;
    const body = this.parse(request, contractLogsPageSchema, (answer as { body: unknown }).body);
    return {
      kind: 'page',
      page: {
        route: request.route,
        items: body.results.map((item) => ({
          txId: item.tx_id,
          log: {
            eventIndex: item.event_index,
            contractId: item.contract_log.contract_id,
            topic: item.contract_log.topic,
            valueHex: item.contract_log.value.hex,
            valueRepr: item.contract_log.value.repr,
          },
        })),
        at: body.cursor === null ? null : cursorPosition(body.cursor),
        older: body.prev_cursor === null ? null : { cursor: body.prev_cursor, at: cursorPosition(body.prev_cursor) },
        etag: etagOf((answer as { headers: HeaderReader }).headers),
      },
    };
  }

  async principalTransactions(principal: string, cursor: string | null, ifNoneMatch?: string): Promise<FeedAnswer<PrincipalFeedItem>> {
    const path = `/extended/v3/principals/${encodeURIComponent(principal)}/transactions`;
    const request = this.feedRequest(SUBJECT_ROUTES.principalTransactions, path, PRINCIPAL_PAGE_LIMIT, cursor, ifNoneMatch);
    const answer = await this.http.get(request, anyBody);
    const early = this.early<PrincipalFeedItem>(request, answer);
    if (early) return early;
    const body = this.parse(request, principalTransactionsPageSchema, (answer as { body: unknown }).body);
    const first = body.results[0]?.transaction;
    return {
      kind: 'page',
      page: {
        route: request.route,
        items: body.results.map((row) => ({
          ...located(row.transaction),
          moves: {
            stx: { sent: BigInt(row.balance_changes.stx.sent), received: BigInt(row.balance_changes.stx.received) },
            ft: row.affected_balances?.ft ?? null,
            nft: row.affected_balances?.nft ?? null,
          },
        })),
        at: body.cursor.current
          ? cursorPosition(body.cursor.current)
          : first
            ? { height: first.block.height, txIndex: first.block.tx_index, eventIndex: -1 }
            : null,
        older: body.cursor.next === null ? null : { cursor: body.cursor.next, at: cursorPosition(body.cursor.next) },
        etag: etagOf((answer as { headers: HeaderReader }).headers),
      },
    };
  }

  async transactions(txIds: readonly string[]): Promise<Map<string, LocatedTransaction> | { missing: string }> {
    const found = new Map<string, LocatedTransaction>();
    const unique = [...new Set(txIds)];
    for (let start = 0; start < unique.length; start += BATCH_IDS) {
      const ids = unique.slice(start, start + BATCH_IDS);
      const request: HiroRequest = {
        route: SUBJECT_ROUTES.transactionBatch,
        path: '/extended/v3/transactions/batch',
        query: [['tx_id', ids.join(',')]],
        expect: [404],
      };
      // Unknown ids are left out of a 200: a 404 is the route itself missing (an API older than it).
      const answer = await this.http.get(request, anyBody);
      if (!answer.ok) return { missing: request.route };
      const body = this.parse(request, transactionBatchSchema, answer.body);
      const asked = new Set(ids);
      for (const raw of body.results) {
        if (!asked.has(raw.tx_id))
          throw new HiroResponseError(
            { endpoint: describeRequest(request), route: request.route },
            200,
            `answered transaction ${raw.tx_id}, which was not asked for`,
          );
        found.set(raw.tx_id, located(raw));
      }
    }
    return found;
  }

  private feedRequest(route: string, path: string, limit: number, cursor: string | null, ifNoneMatch: string | undefined): HiroRequest {
    return {
      route,
      path,
      query: [['limit', limit], ...(cursor === null ? [] : [['cursor', cursor] as const])],
      ...(ifNoneMatch === undefined ? {} : { headers: { 'if-none-match': `"${ifNoneMatch}"` } }),
      expect: [304, 404],
    };
  }

  /** 304, or a 404 that names the cursor (the API's `Cursor not found`) or the route (an older API). */
  private early<T>(request: HiroRequest, answer: HiroAnswer<unknown>): FeedAnswer<T> | null {
    if (answer.ok) return null;
    if (answer.status === 304) return { kind: 'not-modified' };
    const hadCursor = request.query?.some(([key]) => key === 'cursor') ?? false;
    return hadCursor ? { kind: 'unknown-cursor', route: request.route } : { kind: 'missing', route: request.route };
  }

  private parse<T>(request: HiroRequest, schema: z.ZodMiniType<T>, body: unknown): T {
    const checked = checkBody(schema, body);
    if (checked.ok) return checked.value;
    throw new HiroResponseError({ endpoint: describeRequest(request), route: request.route }, 200, checked.problem);
  }
}
