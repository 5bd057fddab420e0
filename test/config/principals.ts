// Real principals for the config tests. The mainnet ones are live contracts and deployers; each is
// checked with validateStacksAddress in stacks-principals.test.ts, so a typo here fails a test.
export const MAINNET = {
  /** ALEX deployer (of swap-helper-bridged-v1-1). */
  alex: 'SP3K8BC0PPEVCV7NZ6QSRWPQ2JE9E5B6N3PA0KBR9',
  /** Arkadiko deployer. */
  arkadiko: 'SP2C2YFP12AJZB4MABJBAJ55XECVS7E4PMMZ89YZR',
  /** Boot contracts (pox-4, bns). */
  boot: 'SP000000000000000000002Q6VF78',
  stackingDao: 'SP4SZE494VC2YC5JYG7AYFQ44F5Q4PYV7DVMDPBG',
  nameRegistrar: 'SP1JTCR202ECC6333N7ZXD7MK7E3ZTEEE1MJ73C60',
  alexV2: 'SP102V8P0F7JX67ARQ77WEA3D3CFB5XW39REDT0AM',
  /** A multi-sig (SM) mainnet address: the sBTC deployer. */
  sbtcMultisig: 'SM3VDXK3WZZSA84XXFKAFAF15NNZX32CTSG82JFQ4',
} as const;

export const MAINNET_CONTRACTS = [
  'SP3K8BC0PPEVCV7NZ6QSRWPQ2JE9E5B6N3PA0KBR9.swap-helper-bridged-v1-1',
  'SP1JTCR202ECC6333N7ZXD7MK7E3ZTEEE1MJ73C60.name-registrar',
  'SP4SZE494VC2YC5JYG7AYFQ44F5Q4PYV7DVMDPBG.stacking-dao-core-v1',
  'SP000000000000000000002Q6VF78.pox-4',
  'SP000000000000000000002Q6VF78.bns',
  'SP2C2YFP12AJZB4MABJBAJ55XECVS7E4PMMZ89YZR.arkadiko-token',
  'SP102V8P0F7JX67ARQ77WEA3D3CFB5XW39REDT0AM.amm-pool-v2-01',
  'SM3VDXK3WZZSA84XXFKAFAF15NNZX32CTSG82JFQ4.sbtc-token',
] as const;

export const TESTNET = {
  boot: 'ST000000000000000000002AMW42H',
  /** From the Hiro API's documentation examples. */
  docsSender: 'STJTXEJPJPPVDNA9B052NSRRBGQCFNKVS178VGH1',
  /** The Arkadiko hash under the testnet multi-sig version (SN): valid c32check, built for the test. */
  multisig: 'SN2C2YFP12AJZB4MABJBAJ55XECVS7E4PMP74D1E2',
} as const;

/** The Arkadiko hash under address version 0: valid c32check, but no Stacks network's address. */
export const VERSION_ZERO = 'S02C2YFP12AJZB4MABJBAJ55XECVS7E4PMQKFRWTZ';
/** A c32check string with the mainnet version and a 2-byte payload: passes validateStacksAddress, is no address. */
export const TWO_BYTE_PAYLOAD = 'SP5BSP4JXKPF';
