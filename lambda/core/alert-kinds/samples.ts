// Real mainnet ids for the kinds' sample alerts (the registry test renders each sample in every form).
export const SAMPLE_TX_ID = '0x20dedbef812e44d712569224411b27324b68ab4667321a4badd5e81ba76bf0eb';
export const SAMPLE_BLOCK_HASH = '0x28a9e2749b82bdc058776781a5abd5c9a6efed38f05545a8a51152655b8e1f4b';
export const SAMPLE_ARKADIKO = 'SP2C2YFP12AJZB4MABJBAJ55XECVS7E4PMMZ89YZR';
export const SAMPLE_ALEX = 'SP3K8BC0PPEVCV7NZ6QSRWPQ2JE9E5B6N3PA0KBR9';
/** 2024-05-01T12:00:00Z */
export const SAMPLE_BLOCK_TIME = 1714564800;
/** The send-many-memo contract exchanges and custodians pay out through. */
export const SEND_MANY_MEMO = 'SP3FBR2AGK5H9QBDH3EEN6DF8EK8JY7RX8QJ5SVTE.send-many-memo';
/** sBTC, a fungible token with 8 decimals. */
export const SAMPLE_SBTC = 'SM3VDXK3WZZSA84XXFKAFAF15NNZX32CTSG82JFQ4.sbtc-token::sbtc-token';
