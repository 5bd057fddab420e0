// The v3 successors of the deprecated routes (stacks-blockchain-api 9.x, src/api/schemas/v3): only the fields
// the client uses, checked at the edge like every other answer.
import * as z from '../zod-mini';

const count = z.int().check(z.nonnegative());
const hex = z.string().check(z.regex(/^0x[0-9a-fA-F]*$/, 'expected a 0x-prefixed hex string'));
const microStx = z.string().check(z.regex(/^\d+$/, 'expected a decimal string of micro-STX'));
const clarityValue = z.object({ hex, repr: z.string() });

/** `{next, previous, current}`: `next` is null on the last page. */
const cursorsSchema = z.object({ next: z.nullable(z.string()) });

// ---- GET /extended/v3/blocks/{height_or_hash}/transactions ----

export const transactionSummarySchema = z
  .object({
    tx_id: hex,
    sender: z.object({ address: z.string() }),
    // The fee in micro-STX, paid by the sponsor of a sponsored transaction (balance rules debit it).
    fee_rate: z.optional(microStx),
    sponsor: z.nullish(z.object({ address: z.string() })),
    block: z.object({ height: count, hash: hex, time: count, tx_index: count }),
    bitcoin_block: z.optional(z.object({ height: count })),
    status: z.string(),
    type: z.string(),
    // Since API 9.7.0; an older server leaves it out, and the events then tell.
    event_count: z.optional(count),
    token_transfer: z.nullish(z.object({ recipient: z.string(), amount: microStx, memo: z.nullable(clarityValue) })),
    // Summaries name the function; its arguments come only from the transaction route, when asked for.
    contract_call: z.nullish(z.object({ contract_id: z.string(), function_name: z.string(), function_args: z.optional(z.array(clarityValue)) })),
    smart_contract: z.nullish(z.object({ contract_id: z.string() })),
  })
  .check(
    z.superRefine((tx, ctx) => {
      // A payload the transaction's type promises must be there, or transfers and calls would go unseen.
      const payload = { token_transfer: tx.token_transfer, contract_call: tx.contract_call, smart_contract: tx.smart_contract };
      if (tx.type in payload && !payload[tx.type as keyof typeof payload]) {
        ctx.addIssue({ code: 'custom', path: [tx.type], message: `missing for a ${tx.type} transaction` });
      }
    }),
  );
export type RawTransactionSummary = z.infer<typeof transactionSummarySchema>;

export const v3BlockTransactionsPageSchema = z.object({
  total: count,
  cursor: cursorsSchema,
  results: z.array(transactionSummarySchema),
});
export type RawV3BlockTransactionsPage = z.infer<typeof v3BlockTransactionsPageSchema>;

// ---- GET /extended/v3/transactions/{tx_id}/events ----

// An asset movement (src/api/serializers/v3/transaction-events.ts): a mint has no sender and a burn no
// recipient (both omitted; null or "", v1's way, read the same); an STX transfer's memo is null without one,
// and a mint or burn has none at all.
const assetAction = z.enum(['transfer', 'mint', 'burn']);
const baseUnits = z.string().check(z.regex(/^\d+$/, 'expected a decimal string of base units'));
const principal = z.nullish(z.string());
const parties = { type: assetAction, sender: principal, recipient: principal };
const stxAssetSchema = z.object({ ...parties, amount: baseUnits, memo: z.nullish(clarityValue) });
const ftAssetSchema = z.object({ ...parties, asset_identifier: z.string(), amount: baseUnits });
const nftAssetSchema = z.object({ ...parties, asset_identifier: z.string(), value: clarityValue });

/** The parties each action moves between: a movement missing one would reach no tracked address. */
const PARTIES_OF: Readonly<Record<z.infer<typeof assetAction>, readonly ('sender' | 'recipient')[]>> = {
  transfer: ['sender', 'recipient'],
  mint: ['recipient'],
  burn: ['sender'],
};
const ASSET_TYPES = ['stx_asset', 'ft_asset', 'nft_asset'] as const;

const transactionEventSchema = z
  .object({
    event_index: count,
    type: z.string(),
    contract_log: z.nullish(z.object({ contract_id: z.string(), topic: z.string(), value: clarityValue })),
    stx_asset: z.nullish(stxAssetSchema),
    ft_asset: z.nullish(ftAssetSchema),
    nft_asset: z.nullish(nftAssetSchema),
    stx_lock: z.nullish(z.object({ amount: microStx, unlock_bitcoin_height: count, address: z.string() })),
  })
  .check(
    z.superRefine((event, ctx) => {
      if (event.type === 'contract_log' && !event.contract_log) {
        ctx.addIssue({ code: 'custom', path: ['contract_log'], message: 'missing for a contract_log event' });
      }
      if (event.type === 'stx_lock' && !event.stx_lock) {
        ctx.addIssue({ code: 'custom', path: ['stx_lock'], message: 'missing for an stx_lock event' });
      }
      const type = ASSET_TYPES.find((name) => name === event.type);
      if (!type) return;
      const asset = event[type];
      if (!asset) {
        ctx.addIssue({ code: 'custom', path: [type], message: `missing for a ${type} event` });
        return;
      }
      for (const side of PARTIES_OF[asset.type]) {
        if (!asset[side]) {
          ctx.addIssue({ code: 'custom', path: [type, side], message: `missing for a ${asset.type} ${type} event` });
        }
      }
    }),
  );
export type RawV3TransactionEvent = z.infer<typeof transactionEventSchema>;

export const v3TransactionEventsPageSchema = z.object({
  total: count,
  cursor: cursorsSchema,
  results: z.array(transactionEventSchema),
});

// ---- GET /extended/v3/transactions/{tx_id}?include=function_args&include=result ----

/** A contract call with the heavy fields asked for: both must be there, or the alert would carry nulls. */
export const v3CallDetailSchema = z.object({
  tx_id: hex,
  type: z.literal('contract_call'),
  contract_call: z.object({ function_name: z.string(), function_args: z.array(clarityValue) }),
  result: clarityValue,
});
export type RawV3CallDetail = z.infer<typeof v3CallDetailSchema>;
