// Alerts as the cycle hands them to a publisher, with renderings written out by hand (the publisher must
// not depend on how the renderer words things).
import type { ContractLogAlert, ContractStatusAlert, RetractionAlert, TokenTransferAlert } from '../../../lambda/core/alert-kinds/alert';
import type { OutgoingAlert } from '../../../lambda/core/deliver/outgoing-alert';

const TX = '0x5b7c9a3f8e2d1c0b4a6f7e8d9c0b1a2f3e4d5c6b7a8f9e0d1c2b3a4f5e6d7c8b';
const BLOCK = '0x9e1f3c5a7b9d0f2e4c6a8b0d2f4e6c8a0b2d4f6e8c0a2b4d6f8e0c2a4b6d8f0e';

export const tokenTransfer: TokenTransferAlert = {
  type: 'token_transfer',
  key: `token_transfer:${TX}`,
  network: 'mainnet',
  tx_id: TX,
  block_height: 182_417,
  block_hash: BLOCK,
  block_time: 1_733_312_400,
  sender: 'SP2J6ZY48GV1EZ5V2V5RB9MP66SW86PYKKNRV9EJ7',
  recipient: 'SP3FBR2AGK5H9QBDH3EEN6DF8EK8JY7RX8QJ5SVTE',
  amount: '2500000000',
  memo: '0x696e766f6963652d3432',
  memo_text: 'invoice-42',
};

export const contractLog: ContractLogAlert = {
  type: 'contract_log',
  key: `contract_log:${TX}:3`,
  network: 'mainnet',
  tx_id: TX,
  block_height: 182_417,
  block_hash: BLOCK,
  block_time: 1_733_312_400,
  event_index: 3,
  contract_id: 'SP2C2YFP12AJZB4MABJBAJ55XECVS7E4PMMZ89YZR.arkadiko-dao',
  topic: 'print',
  value_repr: '(tuple (action "liquidate") (vault-id u1204))',
  value_hex: '0x0c0000000206616374696f6e0d000000096c6971756964617465087661756c742d69640100000000000000000000000000000004b4',
};

export const contractStatus: ContractStatusAlert = {
  type: 'contract_status',
  key: 'contract_status:SP3K8BC0PPEVCV7NZ6QSRWPQ2JE9E5B6N3PA0KBR9.amm-pool-v2-01:1',
  network: 'testnet',
  contract_id: 'SP3K8BC0PPEVCV7NZ6QSRWPQ2JE9E5B6N3PA0KBR9.amm-pool-v2-01',
  found: true,
  status: 'success',
  tx_id: '0x1a2b',
  block_height: 95_210,
  previous: { found: true, status: 'pending' },
};

export const retraction: RetractionAlert = {
  type: 'retraction',
  key: `retraction:token_transfer:${TX}:${BLOCK}`,
  network: 'mainnet',
  retracts: `token_transfer:${TX}`,
  retracted_type: 'token_transfer',
  tx_id: TX,
  block_height: 182_417,
  block_hash: BLOCK,
  summary: '2500000000 micro-STX from SP2J6ZY48GV1EZ5V2V5RB9MP66SW86PYKKNRV9EJ7 to SP3FBR2AGK5H9QBDH3EEN6DF8EK8JY7RX8QJ5SVTE',
};

export const rendered = {
  tokenTransfer: {
    alert: tokenTransfer,
    rendering: {
      subject: '[stacks-watch] 2,500 STX received by SP3FBR...SVTE',
      email: `2,500 STX were sent to SP3FBR2AGK5H9QBDH3EEN6DF8EK8JY7RX8QJ5SVTE\nfrom SP2J6ZY48GV1EZ5V2V5RB9MP66SW86PYKKNRV9EJ7\nin block 182417.\nTransaction: https://explorer.hiro.so/txid/${TX}?chain=mainnet`,
      sms: '2,500 STX to SP3FBR...SVTE, block 182417',
    },
  },
  contractLog: {
    alert: contractLog,
    rendering: {
      subject: '[stacks-watch] print from arkadiko-dao',
      email: `arkadiko-dao printed (tuple (action "liquidate") (vault-id u1204)) in block 182417.`,
      sms: 'arkadiko-dao print: (tuple (action "liquidate") (vault-id u1204))',
    },
  },
  contractStatus: {
    alert: contractStatus,
    rendering: {
      subject: '[stacks-watch] amm-pool-v2-01 deployed: success',
      email: 'SP3K8BC0PPEVCV7NZ6QSRWPQ2JE9E5B6N3PA0KBR9.amm-pool-v2-01 is now deployed (success) in block 95210.',
      sms: 'amm-pool-v2-01 deployed: success',
    },
  },
  retraction: {
    alert: retraction,
    rendering: {
      subject: '[stacks-watch] RETRACTED: 2,500 STX to SP3FBR...SVTE',
      email: 'The alert for 2,500 STX to SP3FBR2AGK5H9QBDH3EEN6DF8EK8JY7RX8QJ5SVTE is void: block 182417 left the chain.',
      sms: 'RETRACTED: 2,500 STX to SP3FBR...SVTE',
    },
  },
} satisfies Record<string, OutgoingAlert>;

/** `count` distinct token transfer alerts, each with an email body of `emailBytes` ASCII bytes. */
export function manyTransfers(count: number, emailBytes = 200): OutgoingAlert[] {
  return Array.from({ length: count }, (_, i) => {
    const txId = `0x${i.toString(16).padStart(64, '0')}`;
    return {
      alert: { ...tokenTransfer, key: `token_transfer:${txId}`, tx_id: txId },
      rendering: { ...rendered.tokenTransfer.rendering, email: 'x'.repeat(emailBytes) },
    };
  });
}
