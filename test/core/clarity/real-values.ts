// Clarity values as Hiro's API returned them (its documentation examples, stacks-blockchain-api v7.14.1):
// a BNS name-transfer print, a transaction result, a log printed as a buffer, and contract-call arguments.
export const REAL_VALUES = [
  {
    what: 'a BNS name-transfer print (tuple in tuple, a hyphenated key, a principal, uint, buffers, string-ascii)',
    hex: '0x0c000000010a6174746163686d656e740c00000003106174746163686d656e742d696e646578010000000000000000000000000000028304686173680200000014b472a266d0bd89c13706a4132ccfb16f7c3b9fcb086d657461646174610c00000004046e616d65020000000a62696c616c7465737435096e616d6573706163650200000003627463026f700d0000000d6e616d652d7472616e736665720974782d73656e646572051a27b6e19aaa1880e842bc709b4130b347b1f2d7f2',
    json: {
      attachment: {
        'attachment-index': '643',
        hash: '0xb472a266d0bd89c13706a4132ccfb16f7c3b9fcb',
        metadata: {
          name: '0x62696c616c7465737435',
          namespace: '0x627463',
          op: 'name-transfer',
          'tx-sender': 'STKVDRCTN8C81T22QHR9PG9GPD3V3WPQYBYFHPT4',
        },
      },
    },
  },
  {
    what: 'a print of a name and namespace (buffers in a tuple)',
    hex: '0x0c00000002046e616d65020000000a62696c616c7465737435096e616d6573706163650200000003627463',
    json: { name: '0x62696c616c7465737435', namespace: '0x627463' },
  },
  { what: 'a transaction result (ok true)', hex: '0x0703', json: { ok: true } },
  { what: 'a coinbase result u1', hex: '0x0100000000000000000000000000000001', json: '1' },
  { what: 'a log printed as a buffer', hex: '0x02000000124576656e74212048656c6c6f20776f726c64', json: '0x4576656e74212048656c6c6f20776f726c64' },
  { what: 'a contract-call argument (buff 32)', hex: '0x0200000003666f6f', json: '0x666f6f' },
] as const;
