// Emily's checked bodies into the watcher's sBTC records: principals as `SP…` (a deposit's `recipient` is the
// hex of a serialized Clarity principal), Stacks txids 0x-prefixed, satoshis as bigint, a deposit's lock time
// read from its reclaim script (the list routes do not carry `parameters`). A record that does not read is
// a problem naming its field, never a record.
import { decodeClarityOrNull } from '../core/clarity/decode';
import type { MalformedRecord, SbtcDeposit, SbtcFulfillment, SbtcLimits, SbtcWithdrawal } from '../core/sbtc/records';
import { checkBody } from '../hiro/validate';
import type * as z from '../zod-mini';
import { depositSchema, withdrawalSchema, type DepositBody, type FulfillmentBody, type limitsSchema, type WithdrawalBody } from './schemas';

type Read<T> = { ok: true; value: T } | { ok: false; problem: string };

const PRINCIPAL = /^S[PMTN][0-9A-HJKMNP-TV-Z]{38,40}(\.[a-zA-Z][a-zA-Z0-9_-]{0,127})?$/;

/** A principal given as `SP…` or as the hex of its Clarity serialization; null when it is neither. */
export function readPrincipal(text: string): string | null {
  if (PRINCIPAL.test(text)) return text;
  const tree = decodeClarityOrNull(text);
  return tree?.type === 'principal' ? tree.value : null;
}

/**
 * The lock of a reclaim script `<n> OP_CHECKSEQUENCEVERIFY …` as sBTC builds it: a minimal script number
 * (OP_1..OP_16, or a 1-4 byte push, little-endian), null for any other script.
 */
export function reclaimLockTime(scriptHex: string): number | null {
  const hex = scriptHex.replace(/^0x/, '').toLowerCase();
  const op = Number.parseInt(hex.slice(0, 2), 16);
  if (op >= 0x51 && op <= 0x60) return hex.slice(2, 4) === 'b2' ? op - 0x50 : null;
  if (!(op >= 1 && op <= 4) || hex.slice(2 + op * 2, 4 + op * 2) !== 'b2') return null;
  const bytes = hex
    .slice(2, 2 + op * 2)
    .match(/../g)!
    .map((b) => Number.parseInt(b, 16));
  if ((bytes.at(-1)! & 0x80) !== 0) return null;
  return bytes.reduceRight((n, b) => n * 256 + b, 0);
}

/** The x-only key a deposit script `<deposit data> OP_DROP <32-byte key> OP_CHECKSIG` locks to. */
export function depositScriptKey(scriptHex: string): string | null {
  return /75(?:20)([0-9a-f]{64})ac$/.exec(scriptHex.replace(/^0x/, '').toLowerCase())?.[1] ?? null;
}

const txid0x = (txid: string): string => (txid.startsWith('0x') ? txid : `0x${txid}`).toLowerCase();

function fulfillmentOf(body: FulfillmentBody | null | undefined): SbtcFulfillment | null {
  if (!body) return null;
  return {
    bitcoinTxid: body.BitcoinTxid.toLowerCase(),
    bitcoinTxIndex: body.BitcoinTxIndex,
    stacksTxid: txid0x(body.StacksTxid),
    bitcoinBlockHash: body.BitcoinBlockHash,
    bitcoinBlockHeight: body.BitcoinBlockHeight,
    btcFeeSats: BigInt(body.BtcFee),
  };
}

export function readDeposit(raw: unknown, at: string): Read<SbtcDeposit> {
  const checked = check(depositSchema, raw, at);
  if (!checked.ok) return checked;
  const body: DepositBody = checked.value;
  const recipient = readPrincipal(body.recipient);
  if (recipient === null) return { ok: false, problem: `${at}.recipient: expected a Stacks principal` };
  return {
    ok: true,
    value: {
      bitcoinTxid: body.bitcoinTxid.toLowerCase(),
      outputIndex: body.bitcoinTxOutputIndex,
      recipient,
      amountSats: BigInt(body.amount),
      status: body.status,
      statusMessage: body.statusMessage ?? null,
      lockTime: body.parameters?.lockTime ?? reclaimLockTime(body.reclaimScript),
      maxFeeSats: body.parameters ? BigInt(body.parameters.maxFee) : null,
      signersKey: depositScriptKey(body.depositScript),
      fulfillment: fulfillmentOf(body.fulfillment),
      replacedByTx: body.replacedByTx?.toLowerCase() ?? null,
      lastUpdateHeight: body.lastUpdateHeight,
    },
  };
}

export function readWithdrawal(raw: unknown, at: string): Read<SbtcWithdrawal> {
  const checked = check(withdrawalSchema, raw, at);
  if (!checked.ok) return checked;
  const body: WithdrawalBody = checked.value;
  const sender = readPrincipal(body.sender);
  if (sender === null) return { ok: false, problem: `${at}.sender: expected a Stacks principal` };
  return {
    ok: true,
    value: {
      requestId: body.requestId,
      stacksTxid: txid0x(body.txid),
      stacksBlockHeight: body.stacksBlockHeight,
      sender,
      recipientScript: body.recipient.replace(/^0x/, '').toLowerCase(),
      amountSats: BigInt(body.amount),
      status: body.status,
      statusMessage: body.statusMessage ?? null,
      maxFeeSats: body.parameters ? BigInt(body.parameters.maxFee) : null,
      fulfillment: fulfillmentOf(body.fulfillment),
      lastUpdateHeight: body.lastUpdateHeight,
    },
  };
}

export function readLimits(body: z.infer<typeof limitsSchema>): SbtcLimits {
  const satsOrNull = (n: number | null | undefined): bigint | null => (n === null || n === undefined ? null : BigInt(n));
  return {
    pegCapSats: satsOrNull(body.pegCap),
    perDepositMinimumSats: satsOrNull(body.perDepositMinimum),
    perDepositCapSats: satsOrNull(body.perDepositCap),
    perWithdrawalCapSats: satsOrNull(body.perWithdrawalCap),
    rollingWithdrawalBlocks: body.rollingWithdrawalBlocks ?? null,
    rollingWithdrawalCapSats: satsOrNull(body.rollingWithdrawalCap),
    availableToWithdrawSats: satsOrNull(body.availableToWithdraw),
    throttleModeInitiator: body.throttleModeInitiator ?? null,
  };
}

/** Each record of a list read on its own: the good ones, and the others set aside with their problem. */
export function readRecords<T>(raws: readonly unknown[], key: string, read: (raw: unknown, at: string) => Read<T>, idOf: (raw: unknown) => string | null) {
  const items: T[] = [];
  const malformed: MalformedRecord[] = [];
  raws.forEach((raw, index) => {
    const result = read(raw, `${key}[${index}]`);
    if (result.ok) items.push(result.value);
    else malformed.push({ index, id: idOf(raw), problem: result.problem });
  });
  return { items, malformed };
}

function check<T>(schema: z.ZodMiniType<T>, raw: unknown, at: string): Read<T> {
  const checked = checkBody(schema, raw);
  if (checked.ok) return checked;
  // checkBody names paths from the record's root; prefix them with where the record sat in the answer.
  const prefixed = checked.problem
    .split('; ')
    .map((part) => (part.startsWith('body:') ? `${at}${part.slice(4)}` : `${at}${/^[[]/.test(part) ? '' : '.'}${part}`))
    .join('; ');
  return { ok: false, problem: prefixed };
}
