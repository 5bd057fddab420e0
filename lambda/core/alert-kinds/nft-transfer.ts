// `nft_transfer`: a non-fungible token (a BNS name, a collectible) minted to, sent to, sent from or burned
// by a watched principal. A rule with `minAmount` never matches one: an NFT has no amount.
import type { AlertBase } from './alert-base';
import type { NftAssetEvent } from '../domain';
import { fields, id, logValue, networkName, smsWhere, chainRows } from '../render/email-parts';
import { explorerTxUrl, isoTime } from '../render/chain-text';
import { formatCount } from '../render/stx-amount';
import { assetName } from '../render/token-amount';
import { sanitizeUntrusted } from '../render/untrusted-text';
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
  type AssetRules,
} from './asset-moves';
import type { ChainKind, Matched } from './kind';
import { SAMPLE_ALEX, SAMPLE_ARKADIKO, SAMPLE_BLOCK_HASH, SAMPLE_BLOCK_TIME, SAMPLE_TX_ID } from './samples';

export interface NftTransferAlert extends AlertBase, AssetAlertBase {
  type: 'nft_transfer';
  asset_id: string;
  /** The token's identifier as a Clarity value. */
  value_repr: string;
  value_hex: string;
}

const key = (txId: string, eventIndex: number) => `nft_transfer:${txId}:${eventIndex}`;

export const nftTransferKind = {
  type: 'nft_transfer',
  key,

  chain: {
    reads: tokenReads,
    needsEvents: needsAssetEvents,
    match({ block, events, rules, network }) {
      return watchedMoves<NftAssetEvent>(block, events, rules, 'nft').map(
        ({ tx, event, base }): Matched<NftTransferAlert> => ({
          at: { txIndex: tx.txIndex, eventIndex: event.eventIndex },
          alert: {
            type: 'nft_transfer',
            key: key(tx.txId, event.eventIndex),
            network,
            ...base,
            asset_id: event.assetId,
            value_repr: event.valueRepr,
            value_hex: event.valueHex,
          },
        }),
      );
    },
    retraction: {
      label: 'NFT movement',
      summary: (a) => `${a.direction} ${a.asset_id} ${a.value_repr} (${a.action} from ${orNone(a.sender, 'none')} to ${orNone(a.recipient, 'none')})`,
      carried: (a) => ({ address: a.address, asset_id: a.asset_id }),
    },
  },

  subject: (a) => `${whoMoved(a)} NFT ${assetName(a.asset_id)} ${sanitizeUntrusted(a.value_repr, 24)} (block ${formatCount(a.block_height)})`,

  email: (a) =>
    [
      `${headline(a, 'an NFT')} on ${networkName(a.network)}.`,
      '',
      fields([['Watched', id(a.address)], ['Collection', id(a.asset_id)], ['Action', actionText(a)], ...sideRows(a), ...chainRows(a)]),
      '',
      'Token (Clarity):',
      logValue(a.value_repr),
    ].join('\n'),

  sms: (a) =>
    `${whoMoved(a)} NFT ${assetName(a.asset_id)} ${sanitizeUntrusted(a.value_repr, 40)} ${smsWhere(a.block_height, a.tx_id)} ${counterparty(a)}`
      .replace(/ +/g, ' ')
      .trim(),

  terminal: (a) => [
    ['Collection', id(a.asset_id)],
    ['Token', sanitizeUntrusted(a.value_repr, 200)],
    ...sideRows(a),
    ['Event', `#${a.event_index} in block ${formatCount(a.block_height)} at ${isoTime(a.block_time)}`],
  ],
  link: (a) => explorerTxUrl(a.tx_id, a.network),

  attributes: (a) => ({ address: a.address, asset_id: a.asset_id }),

  sample: {
    type: 'nft_transfer',
    key: key(SAMPLE_TX_ID, 2),
    network: 'mainnet',
    tx_id: SAMPLE_TX_ID,
    block_height: 182345,
    block_hash: SAMPLE_BLOCK_HASH,
    block_time: SAMPLE_BLOCK_TIME,
    event_index: 2,
    action: 'transfer',
    sender: SAMPLE_ALEX,
    recipient: SAMPLE_ARKADIKO,
    address: SAMPLE_ARKADIKO,
    direction: 'received',
    asset_id: 'SP000000000000000000002Q6VF78.bns::names',
    value_repr: '(tuple (name 0x616c6578) (namespace 0x627463))',
    value_hex: '0x0c00000002046e616d650200000004616c6578096e616d6573706163650200000003627463',
    rule: 'BNS names in',
    severity: 'info',
  },
} satisfies ChainKind<NftTransferAlert, Pick<AssetRules, 'transfers'>>;
