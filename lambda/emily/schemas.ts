// Emily's answers as its public OpenAPI spec gives them (stacks-network/sbtc, emily/openapi-gen/generated-specs/
// public-emily-openapi-spec.json: `Deposit`, `DepositInfo`, `Withdrawal`, `WithdrawalInfo`, `Fulfillment`,
// `Limits`, `GetDepositsResponse`, `GetWithdrawalsResponse`). Only the fields the watcher reads are checked;
// others pass. A list's envelope is checked here and each record on its own (records.ts), so one malformed
// record is set aside without losing the page.
import { SBTC_STATUSES } from '../core/sbtc/records';
import * as z from '../zod-mini';

/** 21 million BTC in satoshis: no amount or fee can be more. */
const MAX_SATS = 2_100_000_000_000_000;

export const sats = z.int().check(z.nonnegative(), z.maximum(MAX_SATS, 'expected at most 21 million BTC in satoshis'));
const height = z.int().check(z.nonnegative());
export const bitcoinTxid = z.string().check(z.regex(/^[0-9a-fA-F]{64}$/, 'expected a Bitcoin txid (64 hex digits)'));
const stacksTxid = z.string().check(z.regex(/^(0x)?[0-9a-fA-F]{64}$/, 'expected a Stacks txid (64 hex digits)'));
const hexText = z.string().check(z.regex(/^(0x)?([0-9a-fA-F]{2})*$/, 'expected hex bytes'));
const status = z.enum(SBTC_STATUSES);

const fulfillment = z.object({
  BitcoinTxid: bitcoinTxid,
  BitcoinTxIndex: height,
  StacksTxid: stacksTxid,
  BitcoinBlockHash: z.string(),
  BitcoinBlockHeight: height,
  BtcFee: sats,
});

/** `Deposit` and `DepositInfo` (which lacks `statusMessage`, `parameters` and `fulfillment`). */
export const depositSchema = z.object({
  bitcoinTxid,
  bitcoinTxOutputIndex: height,
  recipient: z.string(),
  amount: sats,
  status,
  statusMessage: z.optional(z.string()),
  parameters: z.optional(z.object({ maxFee: sats, lockTime: height })),
  reclaimScript: hexText,
  depositScript: hexText,
  fulfillment: z.nullish(fulfillment),
  replacedByTx: z.nullish(bitcoinTxid),
  lastUpdateHeight: height,
});
export type DepositBody = z.infer<typeof depositSchema>;

/** `Withdrawal` and `WithdrawalInfo` (which lacks `statusMessage`, `parameters` and `fulfillment`). */
export const withdrawalSchema = z.object({
  requestId: height,
  txid: stacksTxid,
  stacksBlockHeight: height,
  sender: z.string(),
  recipient: hexText,
  amount: sats,
  status,
  statusMessage: z.optional(z.string()),
  parameters: z.optional(z.object({ maxFee: sats })),
  fulfillment: z.nullish(fulfillment),
  lastUpdateHeight: height,
});
export type WithdrawalBody = z.infer<typeof withdrawalSchema>;

export type FulfillmentBody = z.infer<typeof fulfillment>;

export const depositPageSchema = z.object({ deposits: z.array(z.unknown()), nextToken: z.nullish(z.string()) });
export const withdrawalPageSchema = z.object({ withdrawals: z.array(z.unknown()), nextToken: z.nullish(z.string()) });

const cap = z.nullish(sats);
export const limitsSchema = z.object({
  pegCap: cap,
  perDepositMinimum: cap,
  perDepositCap: cap,
  perWithdrawalCap: cap,
  rollingWithdrawalBlocks: z.nullish(height),
  rollingWithdrawalCap: cap,
  availableToWithdraw: cap,
  throttleModeInitiator: z.nullish(z.string()),
});
