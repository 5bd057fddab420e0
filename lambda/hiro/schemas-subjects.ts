// The per-subject routes' answers (stacks-blockchain-api 9.x: src/api/routes/v2/smart-contracts.ts,
// routes/v3/principals.ts, schemas/v3/entities/principal-*.ts): only the fields the client uses, checked at
// the edge like every other answer. The batch route and the 9.1.0 transfer routes are not in the API source
// this client was built from: they are read as their release notes describe them, and anything else is refused.
import * as z from '../zod-mini';
import { transactionSummarySchema } from './schemas-v3';

const count = z.int().check(z.nonnegative());
const hex = z.string().check(z.regex(/^0x[0-9a-fA-F]*$/, 'expected a 0x-prefixed hex string'));
const units = z.string().check(z.regex(/^\d+$/, 'expected a decimal string of base units'));
const signedUnits = z.string().check(z.regex(/^-?\d+$/, 'expected a decimal string'));
const clarityValue = z.object({ hex, repr: z.string() });
/** `height:microblock_sequence:tx_index` (transactions) or with `:event_index` (events). */
export const txCursor = z.string().check(z.regex(/^\d+:\d+:\d+$/, 'expected a cursor height:microblock:tx_index'));
export const eventCursor = z.string().check(z.regex(/^\d+:\d+:\d+:\d+$/, 'expected a cursor height:microblock:tx_index:event_index'));
const v3Cursors = <C extends z.ZodMiniType<string>>(cursor: C) => z.object({ next: z.nullable(cursor), current: z.optional(z.nullable(cursor)) });

// ---- GET /extended/v2/smart-contracts/{contract_id}/logs: `prev_cursor` is the OLDER page ----
export const contractLogsPageSchema = z.object({
  total: count,
  cursor: z.nullable(eventCursor),
  prev_cursor: z.nullable(eventCursor),
  results: z.array(
    z.object({
      event_index: count,
      event_type: z.literal('smart_contract_log'),
      tx_id: hex,
      contract_log: z.object({ contract_id: z.string(), topic: z.string(), value: clarityValue }),
    }),
  ),
});

// ---- GET /extended/v3/principals/{p}/transactions: `cursor.next` is the older page ----
export const principalTransactionsPageSchema = z.object({
  total: count,
  cursor: v3Cursors(txCursor),
  results: z.array(
    z.object({
      transaction: transactionSummarySchema,
      involvement: z.enum(['sender', 'sponsor', 'affected']),
      balance_changes: z.object({ stx: z.object({ sent: units, received: units, net: signedUnits }) }),
      // Which asset classes moved for the principal; optional: the client then reads the events to know.
      affected_balances: z.optional(z.object({ stx: z.optional(z.boolean()), ft: z.optional(z.boolean()), nft: z.optional(z.boolean()) })),
    }),
  ),
});

// ---- GET /extended/v3/transactions/batch?tx_id=A,B ----
export const transactionBatchSchema = z.object({ results: z.array(transactionSummarySchema) });

// ---- GET /extended/v3/principals/{p}/transfers/stx/inbound|outbound and /transfers/ft/{asset} (9.1.0) ----
const located = {
  transaction: z.object({ tx_id: hex, event_index: count }),
  block: z.object({ height: count, hash: hex, time: count, tx_index: count }),
};
export const stxTransfersPageSchema = z.object({
  total: count,
  cursor: v3Cursors(eventCursor),
  results: z.array(z.object({ sender: z.string(), recipient: z.string(), amount: units, memo: z.nullish(clarityValue), ...located })),
});
export const ftTransfersPageSchema = z.object({
  total: count,
  cursor: v3Cursors(eventCursor),
  results: z.array(z.object({ sender: z.nullish(z.string()), recipient: z.nullish(z.string()), amount: units, asset_identifier: z.string(), ...located })),
});

// ---- GET /extended/v3/principals/{p}/balances/stx and /ft ----
export const stxBalanceSchema = z.object({
  balance: units,
  locked: z.nullable(z.object({ amount: units, burn_unlock_height: count })),
});
export const ftBalancesPageSchema = z.object({
  total: count,
  cursor: z.object({ next: z.nullable(z.string()) }),
  results: z.array(z.object({ asset_identifier: z.string(), balance: units })),
});
