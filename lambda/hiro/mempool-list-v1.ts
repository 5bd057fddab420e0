// The v1 mempool list, `GET /extended/v1/tx/mempool` (deprecated since API 9.0): read only when the API has no
// v3 mempool list (a 404 from a self-hosted API older than it), until the hourly re-check finds it. The same waiting
// transactions in the v1 transaction form, newest first (`order_by=age&order=desc`), paged by offset; mapped
// to the same MempoolTx as the v3 list, so the pending rules alert the same whichever route was read.
import type { MempoolTx } from '../core/mempool/mempool-ports';
import type { HiroHttp } from './http';
import * as z from '../zod-mini';

export const V1_MEMPOOL_ROUTE = 'GET /extended/v1/tx/mempool';

const count = z.int().check(z.nonnegative());
const hex = z.string().check(z.regex(/^0x[0-9a-fA-F]*$/, 'expected a 0x-prefixed hex string'));
const microStx = z.string().check(z.regex(/^\d+$/, 'expected a decimal string of micro-STX'));

/** One waiting transaction of the v1 list; other types (deploys) are read only as far as their type. */
const v1MempoolTxSchema = z.object({
  tx_id: hex,
  tx_type: z.string(),
  nonce: count,
  fee_rate: microStx,
  sender_address: z.string(),
  receipt_time: count,
  token_transfer: z.optional(z.object({ recipient_address: z.string(), amount: microStx, memo: z.nullish(hex) })),
  contract_call: z.optional(z.object({ contract_id: z.string(), function_name: z.string() })),
});

const v1MempoolPageSchema = z.object({
  total: count,
  // Each entry is checked on its own, as on the v3 list: one odd entry costs that entry, not the page.
  results: z.array(z.unknown()),
});

/** A listed transaction: its id and receipt time (where a read stops), and the MempoolTx when it is one. */
export interface ListedTx {
  txId: string;
  receivedAt: number;
  tx: MempoolTx | null;
}

/** One page at `offset`; `next` is the next page's offset, null at the list's end. */
export async function readV1MempoolPage(http: HiroHttp, offset: number, limit: number): Promise<{ listed: ListedTx[]; next: number | null }> {
  const body = await http.getBody(
    {
      route: V1_MEMPOOL_ROUTE,
      path: '/extended/v1/tx/mempool',
      query: [
        ['limit', limit],
        ['offset', offset],
        ['order_by', 'age'],
        ['order', 'desc'],
      ],
      retries: 0,
    },
    v1MempoolPageSchema,
  );
  const listed: ListedTx[] = [];
  for (const entry of body.results) {
    const raw = v1MempoolTxSchema.safeParse(entry);
    if (raw.success) listed.push({ txId: raw.data.tx_id.toLowerCase(), receivedAt: raw.data.receipt_time, tx: toMempoolTx(raw.data) });
  }
  const next = offset + body.results.length;
  return { listed, next: body.results.length === 0 || next >= body.total ? null : next };
}

function toMempoolTx(raw: z.infer<typeof v1MempoolTxSchema>): MempoolTx | null {
  const common = { txId: raw.tx_id.toLowerCase(), sender: raw.sender_address, nonce: raw.nonce, fee: raw.fee_rate, receivedAt: raw.receipt_time };
  if (raw.tx_type === 'contract_call' && raw.contract_call) {
    return { ...common, type: 'contract_call', contractCall: { contractId: raw.contract_call.contract_id, functionName: raw.contract_call.function_name } };
  }
  if (raw.tx_type === 'token_transfer' && raw.token_transfer) {
    const { recipient_address: recipient, amount, memo } = raw.token_transfer;
    return { ...common, type: 'token_transfer', tokenTransfer: { recipient, amount, memo: memo ?? null } };
  }
  return null;
}
