// `ft_transfer`: a fungible token (sBTC, SIP-010 tokens) minted to, sent to, sent from or burned by a watched
// principal, as a `transfers` rule on its asset (or `*`) says.
import type { AlertBase } from './alert-base';
import type { FtAssetEvent } from '../domain';
import { fields, id, memo, networkName, smsWhere, chainRows } from '../render/email-parts';
import { decodeMemo, explorerTxUrl, isoTime } from '../render/chain-text';
import { formatCount } from '../render/stx-amount';
import { formatTokenAmount } from '../render/token-amount';
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
  tokenReads,
  tokenDisplay,
  type AssetRules,
} from './asset-moves';
import type { ChainKind, Matched } from './kind';
import { readMemo } from '../rules/memo-filter';
import { SAMPLE_ARKADIKO, SAMPLE_BLOCK_HASH, SAMPLE_BLOCK_TIME, SAMPLE_SBTC, SAMPLE_TX_ID } from './samples';

export interface FtTransferAlert extends AlertBase, AssetAlertBase {
  type: 'ft_transfer';
  /** `ADDRESS.contract::token` */
  asset_id: string;
  /** Base units, decimal string. */
  amount: string;
  /** 0x hex of the buffer the token contract printed right after the movement (SIP-010 `transfer`'s memo), else null. */
  memo: string | null;
  /** The memo as text when it is printable (padding stripped), else null. */
  memo_text: string | null;
  /** From the matching rule, for the wording; null when no rule on this asset gives them. */
  decimals: number | null;
  symbol: string | null;
}

const key = (txId: string, eventIndex: number) => `ft_transfer:${txId}:${eventIndex}`;

/** With decimals, the exact base units beside the scaled amount (when the amount is a whole number). */
const exact = (a: FtTransferAlert) =>
  a.decimals === null || !/^\d+$/.test(a.amount)
    ? formatTokenAmount(a.amount, null, a.symbol, a.asset_id)
    : `${formatTokenAmount(a.amount, a.decimals, a.symbol, a.asset_id)} (${a.amount} base units)`;

/** A memo row only when the token contract printed one: most token movements carry none. Older records lack the field. */
const memoRow = (a: FtTransferAlert) =>
  a.memo === null || a.memo === undefined || decodeMemo(a.memo).kind === 'none' ? [] : [['Memo', memo(a.memo)] as const];

export const ftTransferKind = {
  type: 'ft_transfer',
  key,

  chain: {
    reads: tokenReads,
    needsEvents: needsAssetEvents,
    match({ block, events, rules, network }) {
      return watchedMoves<FtAssetEvent>(block, events, rules, 'ft').map(
        ({ tx, event, base, memoHex }): Matched<FtTransferAlert> => ({
          at: { txIndex: tx.txIndex, eventIndex: event.eventIndex },
          alert: {
            type: 'ft_transfer',
            key: key(tx.txId, event.eventIndex),
            network,
            ...base,
            asset_id: event.assetId,
            amount: event.amount,
            memo: memoHex,
            memo_text: readMemo(memoHex).text,
            ...tokenDisplay(rules, event.assetId),
          },
        }),
      );
    },
    summed: (a, field) => (field === 'amount' ? a.amount : undefined),
    retraction: {
      label: 'token movement',
      summary: (a) =>
        `${a.direction} ${formatTokenAmount(a.amount, a.decimals, a.symbol, a.asset_id)} (${a.action} from ${orNone(a.sender, 'none')} to ${orNone(a.recipient, 'none')})`,
      carried: (a) => ({ address: a.address, asset_id: a.asset_id }),
    },
  },

  subject: (a) => `${whoMoved(a)} ${formatTokenAmount(a.amount, a.decimals, a.symbol, a.asset_id)} (block ${formatCount(a.block_height)})`,

  email: (a) =>
    [
      `${headline(a, 'tokens')} on ${networkName(a.network)}.`,
      '',
      fields([
        ['Watched', id(a.address)],
        ['Amount', exact(a)],
        ['Token', id(a.asset_id)],
        ['Action', actionText(a)],
        ...sideRows(a),
        ...memoRow(a),
        ...chainRows(a),
      ]),
    ].join('\n'),

  sms: (a) =>
    `${whoMoved(a)} ${formatTokenAmount(a.amount, a.decimals, a.symbol, a.asset_id)} ${smsWhere(a.block_height, a.tx_id)} ${counterparty(a)}`
      .replace(/ +/g, ' ')
      .trim(),

  terminal: (a) => [
    ['Amount', formatTokenAmount(a.amount, a.decimals, a.symbol, a.asset_id)],
    ['Token', id(a.asset_id)],
    ...sideRows(a),
    ...memoRow(a),
    ['Event', `#${a.event_index} in block ${formatCount(a.block_height)} at ${isoTime(a.block_time)}`],
  ],
  link: (a) => explorerTxUrl(a.tx_id, a.network),

  attributes: (a) => ({ address: a.address, asset_id: a.asset_id }),

  sample: {
    type: 'ft_transfer',
    key: key(SAMPLE_TX_ID, 1),
    network: 'mainnet',
    tx_id: SAMPLE_TX_ID,
    block_height: 182345,
    block_hash: SAMPLE_BLOCK_HASH,
    block_time: SAMPLE_BLOCK_TIME,
    event_index: 1,
    action: 'mint',
    sender: null,
    recipient: SAMPLE_ARKADIKO,
    address: SAMPLE_ARKADIKO,
    direction: 'minted',
    asset_id: SAMPLE_SBTC,
    amount: '50000000',
    memo: null,
    memo_text: null,
    decimals: 8,
    symbol: 'sBTC',
    rule: `transfers:${SAMPLE_SBTC} to ${SAMPLE_ARKADIKO}`,
    severity: 'warning',
  },
} satisfies ChainKind<FtTransferAlert, Pick<AssetRules, 'transfers'>>;
