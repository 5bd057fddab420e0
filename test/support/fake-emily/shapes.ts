// Emily's JSON shapes as its public OpenAPI spec (stacks-network/sbtc, emily/openapi-gen/generated-specs/
// public-emily-openapi-spec.json) writes them: `Deposit` and its reduced `DepositInfo` (what the list routes
// return), `Withdrawal` and `WithdrawalInfo`, `Limits`, `ErrorResponse`. Builders fill every required field.
import { principalCV, serializeCV } from '@stacks/transactions';

export type EmilyStatus = 'pending' | 'reprocessing' | 'accepted' | 'confirmed' | 'failed' | 'rbf';

export interface FulfillmentJson {
  BitcoinTxid: string;
  BitcoinTxIndex: number;
  StacksTxid: string;
  BitcoinBlockHash: string;
  BitcoinBlockHeight: number;
  BtcFee: number;
}

export interface DepositJson {
  bitcoinTxid: string;
  bitcoinTxOutputIndex: number;
  recipient: string;
  amount: number;
  lastUpdateHeight: number;
  lastUpdateBlockHash: string;
  status: EmilyStatus;
  statusMessage: string;
  parameters: { maxFee: number; lockTime: number };
  reclaimScript: string;
  depositScript: string;
  fulfillment?: FulfillmentJson | null;
  replacedByTx?: string | null;
}

export interface WithdrawalJson {
  requestId: number;
  stacksBlockHash: string;
  stacksBlockHeight: number;
  recipient: string;
  sender: string;
  amount: number;
  lastUpdateHeight: number;
  lastUpdateBlockHash: string;
  status: EmilyStatus;
  statusMessage: string;
  parameters: { maxFee: number };
  txid: string;
  fulfillment?: FulfillmentJson | null;
}

/** A 32-byte hex id made from a seed (a txid, a block hash): distinct seeds give distinct ids. */
export function hexId(seed: string | number): string {
  let out = '';
  let state = 2166136261;
  for (const ch of String(seed)) state = Math.imul(state ^ ch.charCodeAt(0), 16777619) >>> 0;
  while (out.length < 64) {
    state = Math.imul(state ^ (state >>> 13), 1274126177) >>> 0;
    out += state.toString(16).padStart(8, '0');
  }
  return out.slice(0, 64);
}

/** The hex of a principal's consensus serialization, as Emily's `recipient` carries it. */
export function principalHex(principal: string): string {
  return serializeCV(principalCV(principal));
}

/** A reclaim script as sBTC builds it: `<lockTime> OP_CHECKSEQUENCEVERIFY` then the reclaim spend (here a stub). */
export function reclaimScriptHex(lockTime: number): string {
  if (lockTime >= 1 && lockTime <= 16) return `${(0x50 + lockTime).toString(16)}b275ac`;
  const bytes: number[] = [];
  for (let n = lockTime; n > 0; n = Math.floor(n / 256)) bytes.push(n % 256);
  if ((bytes.at(-1) ?? 0) & 0x80) bytes.push(0);
  const push = bytes.map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${bytes.length.toString(16).padStart(2, '0')}${push}b275ac`;
}

export const SAMPLE_RECIPIENT = 'SP3FBR2AGK5H9QBDH3EEN6DF8EK8JY7RX8QJ5SVTE';
export const SAMPLE_SENDER = 'SP2J6ZY48GV1EZ5V2V5RB9MP66SW86PYKKNRV9EJ7';

export function depositJson(fields: Partial<DepositJson> & { seed?: string | number } = {}): DepositJson {
  const { seed = 1, ...rest } = fields;
  const lockTime = rest.parameters?.lockTime ?? 950;
  return {
    bitcoinTxid: hexId(`deposit-${seed}`),
    bitcoinTxOutputIndex: 0,
    recipient: principalHex(SAMPLE_RECIPIENT),
    amount: 50_000_000,
    lastUpdateHeight: 1_000_000,
    lastUpdateBlockHash: hexId(`stacks-block-${seed}`),
    status: 'pending',
    statusMessage: 'Just received deposit',
    parameters: { maxFee: 80_000, lockTime },
    reclaimScript: reclaimScriptHex(lockTime),
    depositScript: `1e0000000000013880${'00'.repeat(22)}7520${'ab'.repeat(32)}ac`,
    ...rest,
  };
}

export function withdrawalJson(fields: Partial<WithdrawalJson> = {}): WithdrawalJson {
  const requestId = fields.requestId ?? 1;
  return {
    requestId,
    stacksBlockHash: hexId(`withdrawal-block-${requestId}`),
    stacksBlockHeight: 1_000_000,
    recipient: `0014${'cd'.repeat(20)}`,
    sender: SAMPLE_SENDER,
    amount: 25_000_000,
    lastUpdateHeight: 1_000_000,
    lastUpdateBlockHash: hexId(`withdrawal-block-${requestId}`),
    status: 'pending',
    statusMessage: 'Just received withdrawal',
    parameters: { maxFee: 40_000 },
    txid: hexId(`withdrawal-tx-${requestId}`),
    ...fields,
  };
}

export function fulfillmentJson(seed: string | number, bitcoinBlockHeight: number): FulfillmentJson {
  return {
    BitcoinTxid: hexId(`sweep-${seed}`),
    BitcoinTxIndex: 0,
    StacksTxid: hexId(`stacks-${seed}`),
    BitcoinBlockHash: hexId(`btc-block-${bitcoinBlockHeight}`),
    BitcoinBlockHeight: bitcoinBlockHeight,
    BtcFee: 2_500,
  };
}

/** `DepositInfo`: a deposit without `statusMessage`, `parameters`, `fulfillment` and `replacedByTx`. */
export function depositInfo(deposit: DepositJson): Record<string, unknown> {
  const { statusMessage: _m, parameters: _p, fulfillment: _f, replacedByTx: _r, ...info } = deposit;
  return info;
}

/** `WithdrawalInfo`: a withdrawal without `statusMessage`, `parameters` and `fulfillment`. */
export function withdrawalInfo(withdrawal: WithdrawalJson): Record<string, unknown> {
  const { statusMessage: _m, parameters: _p, fulfillment: _f, ...info } = withdrawal;
  return info;
}

export const DEFAULT_LIMITS = {
  pegCap: 100_000_000_000,
  perDepositMinimum: 10_000,
  perDepositCap: 500_000_000,
  perWithdrawalCap: 200_000_000,
  rollingWithdrawalBlocks: 144,
  rollingWithdrawalCap: 10_000_000_000,
  availableToWithdraw: 9_000_000_000,
  accountCaps: {},
};
