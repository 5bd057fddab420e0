import { describe, expect, it } from 'vitest';
import type { Block, Transaction } from '../../../lambda/core/domain';
import type { TokenTransferAlert } from '../../../lambda/core/alert-kinds/alert';
import type { ChainKind } from '../../../lambda/core/alert-kinds/kind';
import { tokenTransferKind } from '../../../lambda/core/alert-kinds/token-transfer';
import { filterAttributes } from '../../../lambda/core/alert-kinds/registry';
import { renderTerminal } from '../../../lambda/core/render';
import { compileWatchRules } from '../../../lambda/core/rules/rule-lists';
import { config, OTHER, WATCHED } from '../harness';

const TX = `0x${'ab'.repeat(32)}`;
const header = { height: 182345, hash: `0x${'cd'.repeat(32)}`, parentHash: `0x${'ef'.repeat(32)}`, time: 1714564800, txCount: 1 };

function transferTx(over: Partial<Transaction> = {}): Transaction {
  return {
    txId: TX,
    txIndex: 7,
    txType: 'token_transfer',
    txStatus: 'success',
    sender: OTHER,
    eventCount: 1,
    tokenTransfer: { recipient: WATCHED, amount: '1250500000', memo: '0x' },
    ...over,
  };
}

const match = (transactions: Transaction[], cfg = config()) =>
  tokenTransferKind.chain.match({ block: { header, transactions } satisfies Block, events: new Map(), rules: compileWatchRules(cfg), network: 'mainnet' });

describe('token_transfer kind', () => {
  it("matches a successful transfer to a watched address as the alert JSON it always had, placed before the tx's events", () => {
    expect(match([transferTx()])).toEqual([
      {
        at: { txIndex: 7, eventIndex: -1 },
        alert: {
          type: 'token_transfer',
          key: `token_transfer:${TX}`,
          network: 'mainnet',
          tx_id: TX,
          block_height: 182345,
          block_hash: header.hash,
          block_time: 1714564800,
          sender: OTHER,
          recipient: WATCHED,
          amount: '1250500000',
          memo: '0x',
          memo_text: null,
          rule: 'addresses',
          severity: 'warning',
        },
      },
    ]);
  });

  it('ignores failed transfers, other recipients, other transaction types, and a config without addresses', () => {
    expect(match([transferTx({ txStatus: 'abort_by_post_condition' })])).toEqual([]);
    expect(match([transferTx({ tokenTransfer: { recipient: OTHER, amount: '1', memo: '0x' } })])).toEqual([]);
    expect(match([transferTx({ txType: 'contract_call' })])).toEqual([]);
    expect(match([transferTx()], config({ addresses: [] }))).toEqual([]);
  });

  it('needs no events: the transaction says it all', () => {
    const kind: ChainKind<TokenTransferAlert> = tokenTransferKind;
    expect(kind.chain.needsEvents!(transferTx(), compileWatchRules(config()))).toBe(false);
  });

  it('is filtered on the recipient as `address`', () => {
    const { sample } = tokenTransferKind;
    expect(filterAttributes(sample)).toEqual({
      type: 'token_transfer',
      network: 'mainnet',
      rule: 'addresses',
      severity: 'warning',
      address: sample.recipient,
    });
  });

  it('reads at a terminal as the amount, both parties, the memo and the block, then the link', () => {
    expect(renderTerminal(tokenTransferKind.sample)).toBe(
      [
        'WARNING  1,250.5 STX to SP2C...YZR (block 182,345)',
        '  Amount: 1,250.5 STX',
        '  From:   SP3K8BC0PPEVCV7NZ6QSRWPQ2JE9E5B6N3PA0KBR9',
        '  To:     SP2C2YFP12AJZB4MABJBAJ55XECVS7E4PMMZ89YZR',
        '  Memo:   "gm"',
        '  Block:  182,345 at 2024-05-01T12:00:00Z',
        `  https://explorer.hiro.so/txid/${tokenTransferKind.sample.tx_id}?chain=mainnet`,
        '',
      ].join('\n'),
    );
  });

  it('leaves the memo out at a terminal when there is none', () => {
    expect(renderTerminal({ ...tokenTransferKind.sample, memo: `0x${'00'.repeat(34)}` })).not.toContain('Memo');
  });

  it('alerts a native transfer a `transfers` rule on STX watches: at or above minAmount, and an outflow as sent', () => {
    const stxRule = (rule: object) =>
      config({ addresses: [], transfers: [{ asset: 'stx', to: [], from: [], actions: ['transfer', 'mint', 'burn'], ...rule }] });
    expect(match([transferTx()], stxRule({ to: [WATCHED], minAmount: '1250500001' }))).toEqual([]);
    expect(match([transferTx()], stxRule({ to: [WATCHED], minAmount: '1250500000' }))[0]?.alert).not.toHaveProperty('direction');
    const [outflow] = match([transferTx()], stxRule({ asset: '*', from: [OTHER] }));
    expect(outflow?.alert).toMatchObject({ sender: OTHER, recipient: WATCHED, direction: 'sent' });
    expect(filterAttributes(outflow!.alert)).toEqual({
      type: 'token_transfer',
      network: 'mainnet',
      rule: `transfers:* from ${OTHER}`,
      severity: 'warning',
      address: OTHER,
    });
    expect(renderTerminal(outflow!.alert).split('\n')[0]).toBe('WARNING  SP3K...BR9 sent 1,250.5 STX to SP2C...YZR (block 182,345)');
    expect(match([transferTx()], stxRule({ asset: 'SM3VDXK3WZZSA84XXFKAFAF15NNZX32CTSG82JFQ4.sbtc-token::sbtc-token', to: [WATCHED] }))).toEqual([]);
    expect(match([transferTx()], stxRule({ to: [WATCHED], actions: ['mint'] }))).toEqual([]);
  });
});
