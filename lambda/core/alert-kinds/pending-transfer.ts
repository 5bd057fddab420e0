// `pending_transfer`: a native STX transfer that a `transfers` rule with `"pending": true` matches, seen waiting
// in the mempool: a treasury outflow before it is final. Once per transaction; when mined, the usual
// `token_transfer` follows with `pending_key` naming this alert.
import type { AlertBase } from './alert-base';
import type { WatcherKind } from './kind';
import { amount, fields, id, memo, networkName } from '../render/email-parts';
import { decodeMemo, explorerTxUrl, isoTime, shortPrincipal } from '../render/chain-text';
import { stxOrAsReceived } from '../render/stx-amount';
import type { RuleMeta } from '../stages/rule-meta';
import { SAMPLE_ALEX, SAMPLE_ARKADIKO, SAMPLE_TX_ID } from './samples';

export interface PendingTransferAlert extends AlertBase {
  type: 'pending_transfer';
  tx_id: string;
  sender: string;
  recipient: string;
  /** micro-STX, decimal string. */
  amount: string;
  /** 0x hex as the transaction carries it, null when none. */
  memo: string | null;
  /** The memo as text when it is printable (padding stripped), else null. */
  memo_text: string | null;
  /** The watched side: `sent` for an outflow from a watched sender, `received` for an inflow. */
  direction: 'sent' | 'received';
  /** The watched address. */
  address: string;
  /** micro-STX offered as fee, decimal string. */
  fee: string;
  nonce: number;
  /** Unix seconds when the API's node received the transaction. */
  received_at: number;
}

const key = (txId: string) => `pending_transfer:${txId}`;
const MARKER = '...';

/** What the watcher found waiting: the transfer, the watched side, the rule. */
export interface PendingTransferFound {
  txId: string;
  sender: string;
  recipient: string;
  amount: string;
  memo: string | null;
  memoText: string | null;
  direction: 'sent' | 'received';
  address: string;
  fee: string;
  nonce: number;
  receivedAt: number;
  meta: RuleMeta;
}

export const pendingTransferKind = {
  type: 'pending_transfer',
  key,

  build: (found, network) => ({
    type: 'pending_transfer',
    key: key(found.txId),
    network,
    tx_id: found.txId,
    sender: found.sender,
    recipient: found.recipient,
    amount: found.amount,
    memo: found.memo,
    memo_text: found.memoText,
    direction: found.direction,
    address: found.address,
    fee: found.fee,
    nonce: found.nonce,
    received_at: found.receivedAt,
    ...found.meta,
  }),

  subject: (a) =>
    `${stxOrAsReceived(a.amount, 'short')} ${a.direction === 'sent' ? `from ${shortPrincipal(a.sender, MARKER)}` : `to ${shortPrincipal(a.recipient, MARKER)}`} waiting in the mempool`,

  email: (a) =>
    [
      `An STX transfer ${a.direction === 'sent' ? 'from' : 'to'} a watched address is waiting in the ${networkName(a.network)} mempool: ` +
        'no block holds it yet, so it may still be mined, replaced or dropped. Another alert follows either way.',
      '',
      fields([
        ['Amount', amount(a.amount)],
        ['From', id(a.sender)],
        ['To', id(a.recipient)],
        ['Memo', a.memo === null ? 'none' : memo(a.memo)],
        ['Fee', stxOrAsReceived(a.fee, 'exact')],
        ['Nonce', String(a.nonce)],
        ['Received', isoTime(a.received_at)],
        ['Transaction', id(a.tx_id)],
        ['Explorer', explorerTxUrl(a.tx_id, a.network)],
      ]),
    ].join('\n'),

  sms(a) {
    const decoded = a.memo === null ? null : decodeMemo(a.memo);
    const memoText = decoded?.kind === 'text' ? ` memo: ${decoded.text}` : '';
    return `PENDING ${stxOrAsReceived(a.amount, 'plain')}${memoText} from ${shortPrincipal(a.sender, MARKER)} to ${shortPrincipal(a.recipient, MARKER)}, not mined yet`;
  },

  terminal: (a) => [
    ['Waiting', `${stxOrAsReceived(a.amount, 'short')}, not mined yet`],
    ['From', id(a.sender)],
    ['To', id(a.recipient)],
    ...(a.memo === null || decodeMemo(a.memo).kind === 'none' ? [] : [['Memo', memo(a.memo)] as const]),
    ['Fee', `${stxOrAsReceived(a.fee, 'short')}, nonce ${a.nonce}, received ${isoTime(a.received_at)}`],
  ],
  link: (a) => explorerTxUrl(a.tx_id, a.network),

  attributes: (a) => ({ address: a.address, asset_id: 'stx' }),

  sample: {
    type: 'pending_transfer',
    key: key(SAMPLE_TX_ID),
    network: 'mainnet',
    tx_id: SAMPLE_TX_ID,
    sender: SAMPLE_ALEX,
    recipient: SAMPLE_ARKADIKO,
    amount: '250000000000',
    memo: null,
    memo_text: null,
    direction: 'sent',
    address: SAMPLE_ALEX,
    fee: '3000',
    nonce: 12,
    received_at: 1714564790,
    rule: 'Treasury outflow',
    severity: 'critical',
  },
} satisfies WatcherKind<PendingTransferAlert, PendingTransferFound>;
