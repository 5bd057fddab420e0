// Sample alerts built from real mainnet ids; each test overrides only what it is about.
import type { ContractLogAlert, ContractStatusAlert, DeepReorgAlert, RetractionAlert, TokenTransferAlert } from '../../lambda/core/alert-kinds/alert';

export const TX_ID = '0x20dedbef812e44d712569224411b27324b68ab4667321a4badd5e81ba76bf0eb';
export const BLOCK_HASH = '0x28a9e2749b82bdc058776781a5abd5c9a6efed38f05545a8a51152655b8e1f4b';
export const ARKADIKO = 'SP2C2YFP12AJZB4MABJBAJ55XECVS7E4PMMZ89YZR';
export const ALEX = 'SP3K8BC0PPEVCV7NZ6QSRWPQ2JE9E5B6N3PA0KBR9';
/** 2024-05-01T12:00:00Z */
export const BLOCK_TIME = 1714564800;

/** "gm" followed by the zero padding of a 34-byte memo. */
export const MEMO_GM = `0x676d${'00'.repeat(32)}`;

export function transfer(over: Partial<TokenTransferAlert> = {}): TokenTransferAlert {
  return {
    type: 'token_transfer',
    key: `token_transfer:${TX_ID}:0`,
    network: 'mainnet',
    tx_id: TX_ID,
    block_height: 182345,
    block_hash: BLOCK_HASH,
    block_time: BLOCK_TIME,
    sender: ALEX,
    recipient: ARKADIKO,
    amount: '1250500000',
    memo: `0x${'00'.repeat(34)}`,
    memo_text: null,
    ...over,
  };
}

export function contractLog(over: Partial<ContractLogAlert> = {}): ContractLogAlert {
  return {
    type: 'contract_log',
    key: `contract_log:${TX_ID}:3`,
    network: 'mainnet',
    tx_id: TX_ID,
    block_height: 182345,
    block_hash: BLOCK_HASH,
    block_time: BLOCK_TIME,
    event_index: 3,
    contract_id: `${ARKADIKO}.arkadiko-token`,
    topic: 'print',
    value_repr: '(tuple (action "mint") (amount u1000000))',
    value_hex: '0x0c',
    ...over,
  };
}

export function contractStatus(over: Partial<ContractStatusAlert> = {}): ContractStatusAlert {
  return {
    type: 'contract_status',
    key: 'contract_status:SP4SZE494VC2YC5JYG7AYFQ44F5Q4PYV7DVMDPBG.stacking-dao-core-v1:2',
    network: 'mainnet',
    contract_id: 'SP4SZE494VC2YC5JYG7AYFQ44F5Q4PYV7DVMDPBG.stacking-dao-core-v1',
    found: true,
    status: 'success',
    tx_id: '0x10bdcf10ffee72994f493ac36760f4e95a76c8471370182fd4705c2153dc173d',
    block_height: 111021,
    previous: { found: true, status: 'pending' },
    ...over,
  };
}

export function retraction(over: Partial<RetractionAlert> = {}): RetractionAlert {
  return {
    type: 'retraction',
    key: `retraction:token_transfer:${TX_ID}:0:${BLOCK_HASH}`,
    network: 'mainnet',
    retracts: `token_transfer:${TX_ID}:0`,
    retracted_type: 'token_transfer',
    tx_id: TX_ID,
    block_height: 182345,
    block_hash: BLOCK_HASH,
    summary: `1250500000 micro-STX from ${ALEX} to ${ARKADIKO}`,
    ...over,
  };
}

export function deepReorg(over: Partial<DeepReorgAlert> = {}): DeepReorgAlert {
  return {
    type: 'deep_reorg',
    key: `deep_reorg:${BLOCK_HASH}:0xfeed`,
    network: 'mainnet',
    cursor_height: 182345,
    cursor_hash: BLOCK_HASH,
    window: 128,
    ...over,
  };
}

export const everyAlert = () => [transfer(), contractLog(), contractStatus(), retraction(), deepReorg()];
