// `token_transfer`: a successful native STX transfer transaction to a watched address, or one a `transfers`
// rule on STX watches (its recipient, or its sender for an outflow). Its own `stx_asset` event never alerts
// a second time: the asset kinds skip native transfers.
import type { AlertBase } from './alert-base';
import { fields, id, amount, memo, networkName, smsWhere, chainRows } from '../render/email-parts';
import { decodeMemo, explorerTxUrl, isoTime, shortPrincipal } from '../render/chain-text';
import { formatCount, stxOrAsReceived } from '../render/stx-amount';
import type { ChainKind, Matched } from './kind';
import { stxReads, type AssetRules } from './asset-moves';
import { stxTransferMove, trackedSide } from '../rules/transfer-predicate';
import { SAMPLE_ALEX, SAMPLE_ARKADIKO, SAMPLE_BLOCK_HASH, SAMPLE_BLOCK_TIME, SAMPLE_TX_ID } from './samples';

export interface TokenTransferAlert extends AlertBase {
  type: 'token_transfer';
  tx_id: string;
  block_height: number;
  block_hash: string;
  /** Unix seconds of the block. */
  block_time: number;
  sender: string;
  recipient: string;
  amount: string;
  /** 0x hex, as the transaction carries it (34 bytes, zero-padded). */
  memo: string;
  /** The memo as text when it is printable (padding stripped), else null. */
  memo_text: string | null;
  /** `sent` when the alert is about the sender (a watched outflow); absent when about the recipient. */
  direction?: 'sent';
  /** The `pending_transfer` alert this transfer raised while it waited in the mempool, when one did. */
  pending_key?: string;
}

const MARKER = '...';

/** Keyed by the transaction alone: a transfer re-mined at another height after a reorg is the same transfer. */
const key = (txId: string) => `token_transfer:${txId}`;

export const tokenTransferKind = {
  type: 'token_transfer',
  key,

  chain: {
    // The transaction itself says everything: no events needed.
    reads: stxReads,
    needsEvents: () => false,
    match({ block, rules, network }) {
      if (rules.addresses.principals.size === 0 && rules.transfers.size === 0) return [];
      const found: Matched<TokenTransferAlert>[] = [];
      for (const tx of block.transactions) {
        if (tx.txType !== 'token_transfer' || tx.txStatus !== 'success' || !tx.tokenTransfer) continue;
        const move = stxTransferMove(tx.sender, tx.tokenTransfer);
        const tracked = trackedSide(rules, move);
        if (!tracked) continue;
        found.push({
          at: { txIndex: tx.txIndex, eventIndex: -1 },
          alert: {
            type: 'token_transfer',
            key: key(tx.txId),
            network,
            tx_id: tx.txId,
            block_height: block.header.height,
            block_hash: block.header.hash,
            block_time: block.header.time,
            sender: tx.sender,
            recipient: tx.tokenTransfer.recipient,
            amount: tx.tokenTransfer.amount,
            memo: tx.tokenTransfer.memo,
            memo_text: move.memo().text,
            ...(tracked.direction === 'sent' ? { direction: 'sent' as const } : {}),
            ...tracked.meta,
          },
        });
      }
      return found;
    },
    summed: (a, field) => (field === 'amount' ? a.amount : undefined),
    retraction: {
      label: 'STX transfer',
      summary: (a) => `${stxOrAsReceived(a.amount, 'short')} from ${a.sender} to ${a.recipient}`,
      carried: (a) => (a.direction === 'sent' ? { address: a.sender } : { recipient: a.recipient }),
    },
  },

  subject: (a) =>
    a.direction === 'sent'
      ? `${shortPrincipal(a.sender, MARKER)} sent ${stxOrAsReceived(a.amount, 'short')} to ${shortPrincipal(a.recipient, MARKER)} (block ${formatCount(a.block_height)})`
      : `${stxOrAsReceived(a.amount, 'short')} to ${shortPrincipal(a.recipient, MARKER)} (block ${formatCount(a.block_height)})`,

  email: (a) =>
    [
      `A watched address ${a.direction === 'sent' ? 'sent' : 'received'} an STX transfer on ${networkName(a.network)}.`,
      '',
      fields([['Amount', amount(a.amount)], ['To', id(a.recipient)], ['From', id(a.sender)], ['Memo', memo(a.memo)], ...chainRows(a)]),
    ].join('\n'),

  sms(a) {
    const decoded = decodeMemo(a.memo);
    const memoText = decoded.kind === 'text' ? ` memo: ${decoded.text}` : '';
    if (a.direction === 'sent') {
      return `${shortPrincipal(a.sender, MARKER)} sent ${stxOrAsReceived(a.amount, 'plain')}${memoText} ${smsWhere(a.block_height, a.tx_id)} to ${shortPrincipal(a.recipient, MARKER)}`;
    }
    // The memo right after the amount: an exchange credits a deposit by it, and a cut SMS loses its tail.
    return `${stxOrAsReceived(a.amount, 'plain')} to ${shortPrincipal(a.recipient, MARKER)}${memoText} ${smsWhere(a.block_height, a.tx_id)} from ${shortPrincipal(a.sender, MARKER)}`;
  },

  terminal: (a) => {
    const decoded = decodeMemo(a.memo);
    return [
      ['Amount', stxOrAsReceived(a.amount, 'short')],
      ['From', id(a.sender)],
      ['To', id(a.recipient)],
      ...(decoded.kind === 'none' ? [] : [['Memo', memo(a.memo)] as const]),
      ['Block', `${formatCount(a.block_height)} at ${isoTime(a.block_time)}`],
    ];
  },
  link: (a) => explorerTxUrl(a.tx_id, a.network),

  attributes: (a) => ({ address: a.direction === 'sent' ? a.sender : a.recipient }),

  sample: {
    type: 'token_transfer',
    key: key(SAMPLE_TX_ID),
    network: 'mainnet',
    tx_id: SAMPLE_TX_ID,
    block_height: 182345,
    block_hash: SAMPLE_BLOCK_HASH,
    block_time: SAMPLE_BLOCK_TIME,
    sender: SAMPLE_ALEX,
    recipient: SAMPLE_ARKADIKO,
    amount: '1250500000',
    memo: `0x676d${'00'.repeat(32)}`,
    memo_text: 'gm',
    rule: 'addresses',
    severity: 'warning',
  },
} satisfies ChainKind<TokenTransferAlert, Required<AssetRules>>;
