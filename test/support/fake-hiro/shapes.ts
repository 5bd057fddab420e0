// The FakeChain rendered in the Hiro API's own shapes (v9 field sets, as in the API's tests and docs), so a
// client that works against the fake reads the same fields it would read from the real service.
import type { FakeBlock, FakeTx } from './chain';

const MICROBLOCK_SEQUENCE_NONE = 2147483647;

function iso(unixSeconds: number): string {
  return new Date(unixSeconds * 1000).toISOString().replace(/\.\d{3}Z$/, '.000Z');
}

/** A transaction as `/extended/v2/blocks/{h}/transactions` lists it (events `[]`) or `/tx/multiple` returns it. */
export function renderTx(tx: FakeTx, block: FakeBlock, options: { canonical: boolean; events?: { limit: number; offset: number } }): Record<string, unknown> {
  const events = options.events
    ? tx.events
        .map((event, index) => ({ event_index: index, tx_id: tx.txId, ...event }))
        .slice(options.events.offset, options.events.offset + options.events.limit)
    : [];
  return {
    tx_id: tx.txId,
    nonce: tx.nonce,
    fee_rate: tx.feeRate,
    sender_address: tx.sender,
    sponsored: tx.sponsor !== undefined,
    ...(tx.sponsor === undefined ? {} : { sponsor_address: tx.sponsor }),
    post_condition_mode: 'deny',
    post_conditions: [],
    anchor_mode: 'any',
    is_unanchored: false,
    block_hash: block.hash,
    parent_block_hash: block.parentHash,
    block_height: block.height,
    block_time: block.time,
    block_time_iso: iso(block.time),
    burn_block_height: block.burnBlockHeight,
    burn_block_time: block.burnBlockTime,
    burn_block_time_iso: iso(block.burnBlockTime),
    parent_burn_block_time: block.burnBlockTime,
    parent_burn_block_time_iso: iso(block.burnBlockTime),
    canonical: options.canonical,
    tx_index: tx.txIndex,
    tx_status: tx.txStatus,
    tx_result: tx.txStatus === 'success' ? { hex: '0x0703', repr: '(ok true)' } : { hex: '0x0803', repr: '(err true)' },
    microblock_hash: '0x',
    microblock_sequence: MICROBLOCK_SEQUENCE_NONE,
    microblock_canonical: true,
    event_count: tx.events.length,
    events,
    execution_cost_read_count: 0,
    execution_cost_read_length: 0,
    execution_cost_runtime: 0,
    execution_cost_write_count: 0,
    execution_cost_write_length: 0,
    vm_error: null,
    tx_type: tx.txType,
    ...tx.payload,
  };
}

/** A block as `/extended/v2/blocks/{height_or_hash}` returns it. */
export function renderBlock(block: FakeBlock, canonical: boolean): Record<string, unknown> {
  return {
    canonical,
    height: block.height,
    hash: block.hash,
    block_time: block.time,
    block_time_iso: iso(block.time),
    tenure_height: block.tenureHeight,
    index_block_hash: block.indexBlockHash,
    parent_block_hash: block.parentHash,
    parent_index_block_hash: block.parentIndexBlockHash,
    burn_block_time: block.burnBlockTime,
    burn_block_time_iso: iso(block.burnBlockTime),
    burn_block_hash: block.burnBlockHash,
    burn_block_height: block.burnBlockHeight,
    miner_txid: `0x${'00'.repeat(32)}`,
    tx_count: block.txs.length,
    execution_cost_read_count: 0,
    execution_cost_read_length: 0,
    execution_cost_runtime: 0,
    execution_cost_write_count: 0,
    execution_cost_write_length: 0,
  };
}

/** `GET /extended`; `chain_tip` only once synced. */
export function renderStatus(tip: FakeBlock | undefined): Record<string, unknown> {
  const body: Record<string, unknown> = {
    server_version: 'stacks-blockchain-api v9.0.2 (fake)',
    status: 'ready',
    pox_v1_unlock_height: 1,
    pox_v2_unlock_height: 2,
    pox_v3_unlock_height: 3,
  };
  if (tip) {
    body.chain_tip = {
      block_height: tip.height,
      block_hash: tip.hash,
      index_block_hash: tip.indexBlockHash,
      burn_block_height: tip.burnBlockHeight,
    };
  }
  return body;
}

/**
 * `GET /v2/info`, the Stacks node's RPC that Hiro proxies: the fields a real node answers that say which chain
 * it is on. `network_id` is the chain id (1 mainnet, 0x80000000 testnet), `parent_network_id` Bitcoin's magic.
 */
export function renderNodeInfo(chain: { network: 'mainnet' | 'testnet'; tip: FakeBlock | undefined; bitcoinHeight: number }): Record<string, unknown> {
  const mainnet = chain.network === 'mainnet';
  return {
    peer_version: mainnet ? 402653196 : 4207599116,
    burn_block_height: chain.tip ? chain.bitcoinHeight : 0,
    server_version: 'stacks-node 3.1.0.0.7 (fake)',
    network_id: mainnet ? 1 : 2147483648,
    parent_network_id: mainnet ? 3652501241 : 118034699,
    stacks_tip_height: chain.tip?.height ?? 0,
    stacks_tip: chain.tip?.hash.replace(/^0x/, '') ?? '0'.repeat(64),
    is_fully_synced: true,
  };
}

/** Fastify's error body. */
export function errorBody(statusCode: number, error: string, message: string, code?: string): Record<string, unknown> {
  return code ? { statusCode, code, error, message } : { statusCode, error, message };
}
