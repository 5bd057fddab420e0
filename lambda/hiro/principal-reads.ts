// A tracked principal's STX and token movements (API 9.1.0's transfer routes, one row per movement, with its
// block) and its current balances (the v3 balance routes, which have no past block: a past balance is the
// current one less the changes after it). Paged by cursor, every page bounded, every answer checked.
import * as z from '../zod-mini';
import { HiroResponseError } from './errors';
import type { HiroHttp } from './http';
import { describeRequest, type HiroRequest } from './request';
import { ftBalancesPageSchema, ftTransfersPageSchema, stxBalanceSchema, stxTransfersPageSchema } from './schemas-subjects';
import { SUBJECT_ROUTES } from './subject-feeds';
import { checkBody } from './validate';

export const TRANSFER_PAGE_LIMIT = 50;
export const FT_BALANCE_PAGE_LIMIT = 200;
/** Pages of token balances read at most (10,000 tokens): past it the read is refused, not cut short. */
export const MAX_FT_BALANCE_PAGES = 50;

export interface TransferRow {
  txId: string;
  eventIndex: number;
  block: { height: number; hash: string; txIndex: number; time: number };
  sender: string | null;
  recipient: string | null;
  /** Base units (micro-STX for STX), decimal string. */
  amount: string;
  /** 0x hex of an STX transfer's memo; null without one (and for tokens). */
  memo: string | null;
  /** The token's asset id; absent for STX. */
  assetId?: string;
}

export interface TransferPage {
  rows: TransferRow[];
  /** The next older page's cursor; null at the end. */
  older: string | null;
}

export interface StxBalanceNow {
  total: bigint;
  locked: bigint;
  unlockBurnHeight: number | null;
}

/** Requests made, for a caller that reports its cost (past-balances.ts). */
export interface RequestCount {
  requests: number;
}

const anyBody = z.unknown();

function checked<T>(request: HiroRequest, schema: z.ZodMiniType<T>, body: unknown): T {
  const result = checkBody(schema, body);
  if (result.ok) return result.value;
  throw new HiroResponseError({ endpoint: describeRequest(request), route: request.route }, 200, result.problem);
}

function pageRequest(route: string, path: string, limit: number, cursor: string | null): HiroRequest {
  return { route, path, query: [['limit', limit], ...(cursor === null ? [] : [['cursor', cursor] as const])], expect: [404] };
}

/** One page of STX moving into (`inbound`) or out of `principal`; null when the API has no such route (before 9.1.0). */
export async function readStxTransfers(
  http: HiroHttp,
  principal: string,
  direction: 'inbound' | 'outbound',
  cursor: string | null,
): Promise<TransferPage | null> {
  const request = pageRequest(
    SUBJECT_ROUTES.stxTransfers,
    `/extended/v3/principals/${encodeURIComponent(principal)}/transfers/stx/${direction}`,
    TRANSFER_PAGE_LIMIT,
    cursor,
  );
  const answer = await http.get(request, anyBody);
  if (!answer.ok) return null;
  const body = checked(request, stxTransfersPageSchema, answer.body);
  return {
    rows: body.results.map((row) => ({
      txId: row.transaction.tx_id,
      eventIndex: row.transaction.event_index,
      block: { height: row.block.height, hash: row.block.hash, txIndex: row.block.tx_index, time: row.block.time },
      sender: row.sender,
      recipient: row.recipient,
      amount: row.amount,
      memo: row.memo?.hex ?? null,
    })),
    older: body.cursor.next,
  };
}

/** One page of token `assetId` moving in or out of `principal`; null when the API has no such route. */
export async function readFtTransfers(http: HiroHttp, principal: string, assetId: string, cursor: string | null): Promise<TransferPage | null> {
  const path = `/extended/v3/principals/${encodeURIComponent(principal)}/transfers/ft/${encodeURIComponent(assetId)}`;
  const request = pageRequest(SUBJECT_ROUTES.ftTransfers, path, TRANSFER_PAGE_LIMIT, cursor);
  const answer = await http.get(request, anyBody);
  if (!answer.ok) return null;
  const body = checked(request, ftTransfersPageSchema, answer.body);
  return {
    rows: body.results.map((row) => ({
      txId: row.transaction.tx_id,
      eventIndex: row.transaction.event_index,
      block: { height: row.block.height, hash: row.block.hash, txIndex: row.block.tx_index, time: row.block.time },
      sender: row.sender ?? null,
      recipient: row.recipient ?? null,
      amount: row.amount,
      memo: null,
      assetId: row.asset_identifier,
    })),
    older: body.cursor.next,
  };
}

/** What `principal` holds in STX now, locked part included. */
export async function readStxBalanceNow(http: HiroHttp, principal: string, count?: RequestCount): Promise<StxBalanceNow> {
  if (count) count.requests += 1;
  const request: HiroRequest = { route: SUBJECT_ROUTES.stxBalance, path: `/extended/v3/principals/${encodeURIComponent(principal)}/balances/stx` };
  const body = await http.getBody(request, stxBalanceSchema);
  return { total: BigInt(body.balance), locked: body.locked ? BigInt(body.locked.amount) : 0n, unlockBurnHeight: body.locked?.burn_unlock_height ?? null };
}

/** Every token `principal` holds now, by asset id, every page of them (at most MAX_FT_BALANCE_PAGES). */
export async function readFtBalancesNow(http: HiroHttp, principal: string, count?: RequestCount): Promise<Map<string, bigint>> {
  const held = new Map<string, bigint>();
  let cursor: string | null = null;
  for (let pages = 0; ; pages += 1) {
    const request = pageRequest(
      SUBJECT_ROUTES.ftBalances,
      `/extended/v3/principals/${encodeURIComponent(principal)}/balances/ft`,
      FT_BALANCE_PAGE_LIMIT,
      cursor,
    );
    if (pages === MAX_FT_BALANCE_PAGES) {
      throw new HiroResponseError(
        { endpoint: describeRequest(request), route: request.route },
        200,
        `the principal holds more than ${MAX_FT_BALANCE_PAGES * FT_BALANCE_PAGE_LIMIT} tokens, the most read`,
      );
    }
    if (count) count.requests += 1;
    const body = await http.getBody({ ...request, expect: [] }, ftBalancesPageSchema);
    for (const row of body.results) held.set(row.asset_identifier, BigInt(row.balance));
    cursor = body.cursor.next;
    if (cursor === null) return held;
  }
}
