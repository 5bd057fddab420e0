// The answer bodies the client reads, as zod schemas: only the fields it uses, extra fields ignored, the
// fields the API "may" omit optional. Everything else about a body is checked here, once, at the edge.
// zod/mini (with its English messages, see ../zod-mini): only what is named here ends up in the bundle.
import * as z from '../zod-mini';

const height = z.int().check(z.nonnegative());
const count = z.int().check(z.nonnegative());
const unixSeconds = z.int().check(z.nonnegative());
const hex = z.string().check(z.regex(/^0x[0-9a-fA-F]*$/, 'expected a 0x-prefixed hex string'));
const microStx = z.string().check(z.regex(/^\d+$/, 'expected a decimal string of micro-STX'));

// ---- GET /extended ----

export const extendedStatusSchema = z.object({
  // Absent until the API has synced.
  chain_tip: z.nullish(
    z.object({
      block_height: height,
      block_hash: hex,
      index_block_hash: hex,
      burn_block_height: z.optional(height),
    }),
  ),
});

// ---- GET /v2/info (the Stacks node's RPC, proxied by Hiro) ----

/** `network_id` is the chain id: 1 on mainnet, 2147483648 (0x80000000) on testnet. */
export const nodeInfoSchema = z.object({
  network_id: z.int().check(z.nonnegative()),
  // The node's own Stacks tip and Bitcoin tip: chain health's second witness beside the API's database.
  stacks_tip_height: z.optional(height),
  burn_block_height: z.optional(height),
});

// ---- GET /extended/v2/smart-contracts/status ----

const contractStatusEntrySchema = z.discriminatedUnion('found', [
  z.object({
    found: z.literal(true),
    result: z.object({
      status: z.string(),
      tx_id: hex,
      // Absent while the deploy is pending (in the mempool).
      block_height: z.nullish(height),
    }),
  }),
  z.object({ found: z.literal(false) }),
]);

export const contractStatusesSchema = z.record(z.string(), contractStatusEntrySchema);

// ---- GET /extended/v2/blocks/{height_or_hash} ----

export const blockSchema = z.object({
  height,
  hash: hex,
  index_block_hash: hex,
  parent_block_hash: hex,
  block_time: z.nullish(unixSeconds),
  burn_block_time: unixSeconds,
  burn_block_height: z.optional(height),
  tx_count: count,
});
export type RawBlock = z.infer<typeof blockSchema>;

// ---- GET /extended/v2/blocks/{height_or_hash}/transactions ----

const blockTransactionSchema = z
  .object({
    tx_id: hex,
    tx_index: count,
    tx_type: z.string(),
    tx_status: z.string(),
    sender_address: z.string(),
    // The fee in micro-STX (balance rules debit it from the payer); a sponsored transaction's sponsor pays it.
    fee_rate: z.optional(microStx),
    sponsor_address: z.nullish(z.string()),
    burn_block_height: z.optional(height),
    // `events` is always [] on this route: only the count is real.
    event_count: count,
    block_hash: hex,
    parent_block_hash: hex,
    block_height: height,
    // Older API versions lack block_time; burn_block_time stands in for it.
    block_time: z.nullish(unixSeconds),
    burn_block_time: unixSeconds,
    token_transfer: z.nullish(z.object({ recipient_address: z.string(), amount: microStx, memo: z.string() })),
    contract_call: z.nullish(
      z.object({
        contract_id: z.string(),
        function_name: z.string(),
        // Each argument with its Clarity text; `contract_call` alerts show them without another request.
        function_args: z.nullish(z.array(z.object({ repr: z.string() }))),
      }),
    ),
    smart_contract: z.nullish(z.object({ contract_id: z.string() })),
    tx_result: z.nullish(z.object({ repr: z.string() })),
  })
  .check(
    z.superRefine((tx, ctx) => {
      // A payload the transaction's type promises must be there, or transfers and calls would go unseen.
      const payload = { token_transfer: tx.token_transfer, contract_call: tx.contract_call, smart_contract: tx.smart_contract };
      if (tx.tx_type in payload && !payload[tx.tx_type as keyof typeof payload]) {
        ctx.addIssue({ code: 'custom', path: [tx.tx_type], message: `missing for a ${tx.tx_type} transaction` });
      }
    }),
  );
export type RawBlockTransaction = z.infer<typeof blockTransactionSchema>;

export const blockTransactionsPageSchema = z.object({
  total: count,
  results: z.array(blockTransactionSchema),
});
export type RawBlockTransactionsPage = z.infer<typeof blockTransactionsPageSchema>;

// ---- GET /extended/v1/tx/multiple ----

/** An asset event's payload: mints have sender "", burns recipient "" (the notes' "Asset events"). */
const assetSchema = z.object({
  asset_event_type: z.enum(['transfer', 'mint', 'burn']),
  sender: z.optional(z.string()),
  recipient: z.optional(z.string()),
  // stx_asset and fungible_token_asset: base units as a decimal string.
  amount: z.optional(z.string().check(z.regex(/^\d+$/, 'expected a decimal string of base units'))),
  // stx_asset: present only when the transfer carried one.
  memo: z.optional(hex),
  // fungible_token_asset and non_fungible_token_asset.
  asset_id: z.optional(z.string()),
  value: z.optional(z.object({ hex, repr: z.string() })),
});

/** What each asset event type must carry, or a movement would go unseen. */
const ASSET_FIELDS: Readonly<Record<string, readonly ('amount' | 'asset_id' | 'value')[]>> = {
  stx_asset: ['amount'],
  fungible_token_asset: ['amount', 'asset_id'],
  non_fungible_token_asset: ['asset_id', 'value'],
};

const txEventSchema = z
  .object({
    event_index: count,
    event_type: z.string(),
    contract_log: z.nullish(
      z.object({
        contract_id: z.string(),
        topic: z.string(),
        value: z.object({ hex, repr: z.string() }),
      }),
    ),
    asset: z.nullish(assetSchema),
    // stx_lock: the total now locked and the Bitcoin height it unlocks at.
    stx_lock_event: z.nullish(z.object({ locked_amount: microStx, unlock_height: height, locked_address: z.string() })),
  })
  .check(
    z.superRefine((event, ctx) => {
      if (event.event_type === 'smart_contract_log' && !event.contract_log) {
        ctx.addIssue({ code: 'custom', path: ['contract_log'], message: 'missing for a smart_contract_log event' });
      }
      if (event.event_type === 'stx_lock' && !event.stx_lock_event) {
        ctx.addIssue({ code: 'custom', path: ['stx_lock_event'], message: 'missing for an stx_lock event' });
      }
      const needed = ASSET_FIELDS[event.event_type];
      if (!needed) return;
      if (!event.asset) {
        ctx.addIssue({ code: 'custom', path: ['asset'], message: `missing for a ${event.event_type} event` });
        return;
      }
      for (const field of needed) {
        if (event.asset[field] === undefined) {
          ctx.addIssue({ code: 'custom', path: ['asset', field], message: `missing for a ${event.event_type} event` });
        }
      }
    }),
  );
export type RawTxEvent = z.infer<typeof txEventSchema>;

const txWithEventsEntrySchema = z.discriminatedUnion('found', [
  z.object({
    found: z.literal(true),
    result: z.object({
      tx_id: hex,
      event_count: z.nullish(count),
      events: z.array(txEventSchema),
    }),
  }),
  z.object({ found: z.literal(false) }),
]);

export const txMultipleSchema = z.record(z.string(), txWithEventsEntrySchema);
export type RawTxMultiple = z.infer<typeof txMultipleSchema>;

// ---- GET /extended/v1/address/{principal}/balances?until_block=H ----

/** `balance` counts the locked STX too; `locked` is the part a stacking lock holds until `burnchain_unlock_height`. */
export const principalBalancesSchema = z.object({
  stx: z.object({
    balance: microStx,
    locked: microStx,
    burnchain_unlock_height: z.nullish(height),
  }),
  fungible_tokens: z.record(z.string(), z.object({ balance: z.string().check(z.regex(/^\d+$/, 'expected a decimal string of base units')) })),
});
