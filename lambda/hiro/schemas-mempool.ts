// The mempool routes the pending rules read (stacks-blockchain-api 9.x: src/api/routes/v3/mempool.ts and
// src/api/schemas/v3/entities/mempool-transaction-summaries.ts; v1 `/extended/v1/tx/multiple`, which also
// returns mempool transactions, dropped ones included, with their `tx_status`). Only the fields used.
import * as z from '../zod-mini';

const count = z.int().check(z.nonnegative());
const hex = z.string().check(z.regex(/^0x[0-9a-fA-F]*$/, 'expected a 0x-prefixed hex string'));
const microStx = z.string().check(z.regex(/^\d+$/, 'expected a decimal string of micro-STX'));

/** One summary of the v3 mempool list; other types (deploys) are read only as far as their type. */
export const v3MempoolSummarySchema = z.object({
  tx_id: hex,
  sender: z.object({ address: z.string(), nonce: count }),
  fee_rate: microStx,
  receipt_time: count,
  type: z.string(),
  token_transfer: z.nullish(z.object({ recipient: z.string(), amount: microStx, memo: z.nullable(z.object({ hex })) })),
  contract_call: z.nullish(z.object({ contract_id: z.string(), function_name: z.string() })),
  // Read only to see whom a deploy names (a principal's mempool route lists the deploy of that contract).
  smart_contract: z.nullish(z.object({ contract_id: z.string() })),
});
export type RawMempoolSummary = z.infer<typeof v3MempoolSummarySchema>;

/** `GET /extended/v3/mempool/transactions`: newest first (receipt_time, then tx_id, descending), cursor paging. */
export const v3MempoolPageSchema = z.object({
  cursor: z.object({ next: z.nullable(z.string()) }),
  // Each entry is checked on its own: one odd entry costs that entry, not the page.
  results: z.array(z.unknown()),
});

/** `GET /extended/v3/transactions/{tx_id}`: a mined transaction names its block; a waiting one its status. */
export const v3TxStatusSchema = z.object({
  tx_id: hex,
  status: z.string(),
  block: z.nullish(z.object({ height: count })),
  replaced_by_tx_id: z.nullish(z.string()),
  contract_call: z.nullish(z.object({ function_args: z.optional(z.array(z.object({ repr: z.string() }))) })),
});

/** `GET /extended/v1/tx/multiple`: mined and mempool transactions alike, dropped ones with their status. */
export const v1TxStatusesSchema = z.record(
  z.string(),
  z.object({
    found: z.boolean(),
    result: z.optional(
      z.object({
        tx_status: z.optional(z.string()),
        block_height: z.nullish(z.number()),
        canonical: z.optional(z.boolean()),
        replaced_by_tx_id: z.nullish(z.string()),
        contract_call: z.optional(z.object({ function_args: z.optional(z.array(z.object({ repr: z.string() }))) })),
      }),
    ),
  }),
);
