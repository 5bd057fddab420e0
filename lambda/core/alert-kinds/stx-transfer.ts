// `stx_transfer`: STX moved by an event inside a successful contract call or deploy (send-many legs,
// marketplace payouts, DeFi withdrawals, `stx-transfer-memo?`), or by any other event a successful transaction
// carries (the genesis STX mints, events of block 1's token_transfer), to or from a watched principal. A native
// transfer's own event is never this kind: the transaction alerts once, as `token_transfer`.
import type { AlertBase } from './alert-base';
import type { StxAssetEvent } from '../domain';
import { amount, fields, id, memo, networkName, smsWhere, chainRows } from '../render/email-parts';
import { decodeMemo, explorerTxUrl, isoTime } from '../render/chain-text';
import { formatCount, stxOrAsReceived } from '../render/stx-amount';
import {
  actionText,
  counterparty,
  headline,
  needsAssetEvents,
  orNone,
  watchedMoves,
  whoMoved,
  type AssetAlertBase,
  sideRows,
  stxReads,
  type AssetRules,
} from './asset-moves';
import type { ChainKind, Matched } from './kind';
import { readMemo } from '../rules/memo-filter';
import { SAMPLE_ARKADIKO, SAMPLE_BLOCK_HASH, SAMPLE_BLOCK_TIME, SAMPLE_TX_ID, SEND_MANY_MEMO } from './samples';

export interface StxTransferAlert extends AlertBase, AssetAlertBase {
  type: 'stx_transfer';
  /** micro-STX, decimal string. */
  amount: string;
  /** 0x hex: the event's own memo, or the buffer the called contract printed right after it; else null. */
  memo: string | null;
  /** The memo as text when it is printable (padding stripped), else null. */
  memo_text: string | null;
  /** The contract the transaction called (or deployed), or null. */
  contract_id: string | null;
}

/** Keyed by transaction and event: a transfer re-mined at another height after a reorg is the same transfer. */
const key = (txId: string, eventIndex: number) => `stx_transfer:${txId}:${eventIndex}`;

function memoText(hex: string | null): string {
  if (hex === null) return '';
  const decoded = decodeMemo(hex);
  return decoded.kind === 'text' ? ` memo: ${decoded.text}` : '';
}

export const stxTransferKind = {
  type: 'stx_transfer',
  key,

  chain: {
    reads: stxReads,
    needsEvents: needsAssetEvents,
    match({ block, events, rules, network }) {
      return watchedMoves<StxAssetEvent>(block, events, rules, 'stx').map(
        ({ tx, event, base, memoHex }): Matched<StxTransferAlert> => ({
          at: { txIndex: tx.txIndex, eventIndex: event.eventIndex },
          alert: {
            type: 'stx_transfer',
            key: key(tx.txId, event.eventIndex),
            network,
            ...base,
            amount: event.amount,
            memo: memoHex,
            memo_text: readMemo(memoHex).text,
            contract_id: tx.contractId ?? null,
          },
        }),
      );
    },
    summed: (a, field) => (field === 'amount' ? a.amount : undefined),
    retraction: {
      label: 'STX movement',
      summary: (a) => `${a.direction} ${stxOrAsReceived(a.amount, 'short')} (${a.action} from ${orNone(a.sender, 'none')} to ${orNone(a.recipient, 'none')})`,
      carried: (a) => ({ address: a.address, asset_id: 'stx' }),
    },
  },

  subject: (a) => `${whoMoved(a)} ${stxOrAsReceived(a.amount, 'short')} (block ${formatCount(a.block_height)})`,

  email: (a) =>
    [
      `${headline(a, 'STX')} on ${networkName(a.network)}.`,
      '',
      fields([
        ['Watched', id(a.address)],
        ['Amount', amount(a.amount)],
        ['Action', actionText(a)],
        ...sideRows(a),
        ['Memo', a.memo === null ? 'none' : memo(a.memo)],
        ['Contract called', a.contract_id === null ? 'none' : id(a.contract_id)],
        ...chainRows(a),
      ]),
    ].join('\n'),

  sms: (a) =>
    // The memo right after the amount: an exchange credits a deposit by it, and a cut SMS loses its tail.
    `${whoMoved(a)} ${stxOrAsReceived(a.amount, 'plain')}${memoText(a.memo)} ${smsWhere(a.block_height, a.tx_id)} ${counterparty(a)}`
      .replace(/ +/g, ' ')
      .trim(),

  terminal: (a) => [
    ['Amount', stxOrAsReceived(a.amount, 'short')],
    ...sideRows(a),
    ...(a.memo === null || decodeMemo(a.memo).kind === 'none' ? [] : [['Memo', memo(a.memo)] as const]),
    ['Event', `#${a.event_index} in block ${formatCount(a.block_height)} at ${isoTime(a.block_time)}`],
  ],
  link: (a) => explorerTxUrl(a.tx_id, a.network),

  attributes: (a) => ({ address: a.address, asset_id: 'stx' }),

  sample: {
    type: 'stx_transfer',
    key: key(SAMPLE_TX_ID, 4),
    network: 'mainnet',
    tx_id: SAMPLE_TX_ID,
    block_height: 182345,
    block_hash: SAMPLE_BLOCK_HASH,
    block_time: SAMPLE_BLOCK_TIME,
    event_index: 4,
    action: 'transfer',
    sender: SEND_MANY_MEMO,
    recipient: SAMPLE_ARKADIKO,
    address: SAMPLE_ARKADIKO,
    direction: 'received',
    amount: '1250500000',
    memo: '0x3132333435',
    memo_text: '12345',
    contract_id: SEND_MANY_MEMO,
    rule: 'addresses',
    severity: 'warning',
  },
} satisfies ChainKind<StxTransferAlert, Required<AssetRules>>;
