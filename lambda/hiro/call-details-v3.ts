// A contract call's arguments and result, which v3 transaction summaries leave out, from
// `GET /extended/v3/transactions/{tx_id}?include=function_args&include=result` (heavy fields are sent only
// when asked for). Read only for calls that meet a `calls` rule: one request each.
import type { ContractCallDetails } from '../core/domain';
import { HiroInconsistentDataError, HiroNotFoundError } from './errors';
import type { HiroHttp } from './http';
import { describeRequest, type HiroRequest } from './request';
import { v3CallDetailSchema } from './schemas-v3';

export const V3_TRANSACTION_ROUTE = 'GET /extended/v3/transactions/{tx_id}';

export async function readCallDetailsV3(http: HiroHttp, txId: string, signal?: AbortSignal): Promise<ContractCallDetails> {
  const id = txId.toLowerCase().startsWith('0x') ? txId.toLowerCase() : `0x${txId.toLowerCase()}`;
  const request: HiroRequest = {
    route: V3_TRANSACTION_ROUTE,
    path: `/extended/v3/transactions/${encodeURIComponent(id)}`,
    query: [
      ['include', 'function_args'],
      ['include', 'result'],
    ],
    ...(signal ? { signal } : {}),
  };
  const body = await http.getBody(request, v3CallDetailSchema).catch((error: unknown) => {
    // The block list just named it: a 404 means the API is mid-reorg or lagging (tried again next run).
    if (!(error instanceof HiroNotFoundError)) throw error;
    throw new HiroInconsistentDataError(
      { endpoint: describeRequest(request), route: request.route },
      `transaction ${txId} is in a block the API listed, but the transaction route answers 404.`,
    );
  });
  return {
    functionName: body.contract_call.function_name,
    args: body.contract_call.function_args.map((arg) => arg.repr),
    resultRepr: body.result.repr,
  };
}
