// Builders for realistic transactions to mine on a FakeChain. A builder gives the transaction's type,
// payload and events as the Hiro API shows them; ids, nonces and the block are assigned when it is mined.
import { createHash } from 'node:crypto';
import { addressFromVersionHash, AddressVersion, addressToString, Cl, cvToString, serializeCV, type ClarityValue } from '@stacks/transactions';

/** An event as the API shows it, minus `event_index` and `tx_id` (filled in when served). */
export type FakeEvent = { event_type: string } & Record<string, unknown>;

export interface FakeTxSpec {
  /** 0x-prefixed; assigned deterministically at mining when absent. Reuse one to re-mine a tx after a reorg. */
  txId?: string;
  txType: string;
  /** Default `success`. */
  txStatus?: string;
  sender: string;
  /** Assigned per sender at mining when absent. */
  nonce?: number;
  feeRate?: string;
  /** A sponsored transaction's sponsor, who pays its fee. */
  sponsor?: string;
  /** The type's payload fields exactly as the API names them, e.g. `{ token_transfer: {...} }`. */
  payload: Record<string, unknown>;
  events: FakeEvent[];
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

// c32check encoding is slow enough to show when a benchmark builds thousands of transactions.
const addresses = new Map<string, string>();

/** A valid c32check address derived from `label`: the same label always gives the same address. */
export function fakeAddress(label: string, network: 'mainnet' | 'testnet' = 'mainnet'): string {
  const key = `${network}:${label}`;
  let address = addresses.get(key);
  if (address === undefined) {
    const version = network === 'mainnet' ? AddressVersion.MainnetSingleSig : AddressVersion.TestnetSingleSig;
    address = addressToString(addressFromVersionHash(version, sha256Hex(`address:${label}`).slice(0, 40)));
    addresses.set(key, address);
  }
  return address;
}

/** `ADDRESS.name` with the address derived from `label`. */
export function fakeContractId(name: string, label = name, network: 'mainnet' | 'testnet' = 'mainnet'): string {
  return `${fakeAddress(label, network)}.${name}`;
}

/** A Clarity value as the API shows it: consensus hex and repr. Strings become string-ascii. */
export function clarityValue(value: ClarityValue | string): { hex: string; repr: string } {
  const cv = typeof value === 'string' ? Cl.stringAscii(value) : value;
  return { hex: `0x${serializeCV(cv)}`, repr: cvToString(cv) };
}

/** A `smart_contract_log` event printed by `printer` (any contract, not necessarily the one called). */
export function print(printer: string, value: ClarityValue | string, topic = 'print'): FakeEvent {
  return { event_type: 'smart_contract_log', contract_log: { contract_id: printer, topic, value: clarityValue(value) } };
}

/** An `stx_asset` transfer; `memo` (0x hex) only when the transfer carried its own (`stx-transfer-memo?`). */
export function stxTransferEvent(sender: string, recipient: string, amount: bigint | number | string, memo?: string): FakeEvent {
  return {
    event_type: 'stx_asset',
    asset: { asset_event_type: 'transfer', sender, recipient, amount: String(amount), ...(memo === undefined ? {} : { memo }) },
  };
}

/** How an asset moved, as the API shows it: a mint's sender and a burn's recipient are "". */
export type AssetMove = { action: 'transfer'; from: string; to: string } | { action: 'mint'; to: string } | { action: 'burn'; from: string };

function sides(move: AssetMove): { asset_event_type: string; sender: string; recipient: string } {
  if (move.action === 'mint') return { asset_event_type: 'mint', sender: '', recipient: move.to };
  if (move.action === 'burn') return { asset_event_type: 'burn', sender: move.from, recipient: '' };
  return { asset_event_type: 'transfer', sender: move.from, recipient: move.to };
}

/** An `stx_asset` mint or burn (transfers: stxTransferEvent). */
export function stxAssetEvent(move: AssetMove, amount: bigint | number | string): FakeEvent {
  return { event_type: 'stx_asset', asset: { ...sides(move), amount: String(amount) } };
}

export function ftTransferEvent(assetId: string, sender: string, recipient: string, amount: bigint | number | string): FakeEvent {
  return ftAssetEvent(assetId, { action: 'transfer', from: sender, to: recipient }, amount);
}

/** A `fungible_token_asset` transfer, mint or burn of `assetId` (`ADDRESS.contract::token`). */
export function ftAssetEvent(assetId: string, move: AssetMove, amount: bigint | number | string): FakeEvent {
  return { event_type: 'fungible_token_asset', asset: { ...sides(move), asset_id: assetId, amount: String(amount) } };
}

/** A `non_fungible_token_asset` transfer, mint or burn of the token `value` of `assetId`. */
export function nftAssetEvent(assetId: string, move: AssetMove, value: ClarityValue): FakeEvent {
  return { event_type: 'non_fungible_token_asset', asset: { ...sides(move), asset_id: assetId, value: clarityValue(value) } };
}

/** Aborted transactions keep no events on chain (their effects are rolled back). */
function eventsFor(status: string, events: FakeEvent[]): FakeEvent[] {
  return status === 'success' ? events : [];
}

/** An STX transfer, with its `stx_asset` event. `memo` is text, encoded as the 34-byte memo field. */
export function transfer(args: { to: string; amount: bigint | number | string; from?: string; memo?: string; status?: string }): FakeTxSpec {
  const from = args.from ?? fakeAddress('sender');
  const status = args.status ?? 'success';
  const memo = Buffer.alloc(34);
  memo.write(args.memo ?? '', 'utf8');
  return {
    txType: 'token_transfer',
    txStatus: status,
    sender: from,
    payload: {
      token_transfer: { recipient_address: args.to, amount: String(args.amount), memo: `0x${memo.toString('hex')}` },
    },
    events: eventsFor(status, [stxTransferEvent(from, args.to, args.amount)]),
  };
}

/** A log to print: a value printed by the called contract, or `{ printer, value }` for another one. */
export type LogSpec = ClarityValue | string | { printer?: string; value: ClarityValue | string; topic?: string };

/**
 * A contract call; `logs` become `smart_contract_log` events, `events` are added after them as given.
 * `args` become `function_args` and `result` the `tx_result` (by default `(ok true)`, or `(err true)` when failed).
 */
export function contractCall(args: {
  contractId: string;
  functionName?: string;
  sender?: string;
  logs?: LogSpec[];
  events?: FakeEvent[];
  status?: string;
  args?: ClarityValue[];
  result?: ClarityValue;
}): FakeTxSpec {
  const status = args.status ?? 'success';
  const logs = (args.logs ?? []).map((log) => {
    if (typeof log === 'object' && log !== null && 'value' in log && !('type' in log)) {
      return print(log.printer ?? args.contractId, log.value, log.topic);
    }
    return print(args.contractId, log as ClarityValue | string);
  });
  return {
    txType: 'contract_call',
    txStatus: status,
    sender: args.sender ?? fakeAddress('caller'),
    payload: {
      contract_call: {
        contract_id: args.contractId,
        function_name: args.functionName ?? 'call',
        function_signature: '',
        function_args: (args.args ?? []).map((arg, index) => ({ ...clarityValue(arg), name: `arg-${index}`, type: '' })),
      },
      ...(args.result === undefined ? {} : { tx_result: clarityValue(args.result) }),
    },
    events: eventsFor(status, [...logs, ...(args.events ?? [])]),
  };
}

/** A contract deployment by the contract's own address; a mined one shows in the status route. */
export function deploy(args: { contractId: string; status?: string; logs?: (ClarityValue | string)[] }): FakeTxSpec {
  const status = args.status ?? 'success';
  const [address] = args.contractId.split('.');
  return {
    txType: 'smart_contract',
    txStatus: status,
    sender: address ?? fakeAddress('deployer'),
    payload: {
      smart_contract: { clarity_version: 3, contract_id: args.contractId, source_code: '(define-read-only (ping) (ok true))' },
    },
    events: eventsFor(
      status,
      (args.logs ?? []).map((value) => print(args.contractId, value)),
    ),
  };
}

export function coinbase(args: { miner?: string } = {}): FakeTxSpec {
  return {
    txType: 'coinbase',
    sender: args.miner ?? fakeAddress('miner'),
    feeRate: '0',
    payload: { coinbase_payload: { data: `0x${'00'.repeat(32)}`, alt_recipient: null, vrf_proof: `0x${'00'.repeat(80)}` } },
    events: [],
  };
}

export function tenureChange(args: { miner?: string } = {}): FakeTxSpec {
  return {
    txType: 'tenure_change',
    sender: args.miner ?? fakeAddress('miner'),
    feeRate: '0',
    payload: {
      tenure_change_payload: {
        tenure_consensus_hash: `0x${'11'.repeat(20)}`,
        prev_tenure_consensus_hash: `0x${'22'.repeat(20)}`,
        burn_view_consensus_hash: `0x${'33'.repeat(20)}`,
        previous_tenure_end: `0x${'44'.repeat(32)}`,
        previous_tenure_blocks: 1,
        cause: 'block_found',
        pubkey_hash: `0x${'55'.repeat(20)}`,
      },
    },
    events: [],
  };
}
