// `retraction`: an alert already sent for an event that a reorg took off the canonical chain is followed by
// a retraction, so that nobody acts on an event that did not happen. Any chain kind can be retracted: its
// module says how it is named and summed up (chain-kinds.ts).
import type { AlertBase } from './alert-base';
import type { Network } from '../domain';
import { block, fields, id, networkName, smsWhere } from '../render/email-parts';
import { explorerTxUrl, LIMITS, shortTxId } from '../render/chain-text';
import { formatCount } from '../render/stx-amount';
import { sanitizeUntrusted } from '../render/untrusted-text';
import { chainKindOf, chainKinds, type ChainAlert, type ChainAlertType } from './chain-kinds';
import { carriedAttributes, type CarriedFields, type WatcherKind } from './kind';
import { SAMPLE_ALEX, SAMPLE_ARKADIKO, SAMPLE_BLOCK_HASH, SAMPLE_TX_ID } from './samples';

export interface RetractionAlert extends AlertBase, CarriedFields {
  type: 'retraction';
  retracts: string;
  retracted_type: ChainAlertType;
  /** null when the retracted alert named no transaction (a balance read found it). */
  tx_id: string | null;
  block_height: number;
  block_hash: string;
  /** The essentials of the retracted alert, enough to read the retraction on its own. */
  summary: string;
}

const MARKER = '...';

/** One retraction per retracted alert and orphaned block. */
const key = (retractedKey: string, orphanedBlockHash: string) => `retraction:${retractedKey}:${orphanedBlockHash}`;

const label = (a: RetractionAlert) => chainKinds[a.retracted_type].chain.retraction.label;

export function retractionOf(original: ChainAlert, network: Network): RetractionAlert {
  const part = chainKindOf(original).chain.retraction;
  return {
    type: 'retraction',
    key: key(original.key, original.block_hash),
    network,
    retracts: original.key,
    retracted_type: original.type,
    tx_id: original.tx_id,
    block_height: original.block_height,
    block_hash: original.block_hash,
    summary: part.summary(original),
    ...part.carried(original),
    // Routed like the alert it voids: whoever was paged for it hears it is void.
    ...(original.rule !== undefined ? { rule: original.rule } : {}),
    ...(original.severity !== undefined ? { severity: original.severity } : {}),
  };
}

export const retractionKind = {
  type: 'retraction',
  key,

  build: retractionOf,

  subject: (a) => `RETRACTED: ${label(a)}${a.tx_id === null ? '' : ` tx ${shortTxId(a.tx_id, MARKER)}`} in block ${formatCount(a.block_height)} (reorg)`,

  email(a) {
    const what = label(a);
    return [
      'RETRACTED: an earlier stacks-watch alert is void.',
      '',
      `The block that held it (height ${formatCount(a.block_height)}) was replaced by a chain reorganization on ` +
        `${networkName(a.network)}, so the ${what} it reported is no longer on the canonical chain. Disregard the earlier ` +
        'alert. If the transaction is mined again in a new block, a new alert will follow.',
      '',
      fields([
        ['Earlier alert', id(a.retracts)],
        ['It said', sanitizeUntrusted(a.summary, LIMITS.summary)],
        ['Type', what],
        ['Transaction', a.tx_id === null ? 'none' : id(a.tx_id)],
        ['Replaced block', block(a.block_height, a.block_hash)],
        ...(a.tx_id === null ? [] : [['Explorer', `${explorerTxUrl(a.tx_id, a.network)} (shows whether it is pending, dropped or mined again)`] as const]),
      ]),
    ].join('\n');
  },

  sms: (a) => `RETRACTED (reorg): ${label(a)} ${smsWhere(a.block_height, a.tx_id)} is void. ` + `Was: ${sanitizeUntrusted(a.summary, LIMITS.summary)}`,

  terminal: (a) => [
    ['Voids', id(a.retracts)],
    ['It said', sanitizeUntrusted(a.summary, LIMITS.summary)],
    ['Replaced block', block(a.block_height, a.block_hash)],
  ],
  link: (a) => (a.tx_id === null ? null : explorerTxUrl(a.tx_id, a.network)),

  // What the retracted alert was filtered on, so that a filtered subscriber gets both.
  attributes: carriedAttributes,

  sample: {
    type: 'retraction',
    key: key(`token_transfer:${SAMPLE_TX_ID}`, SAMPLE_BLOCK_HASH),
    network: 'mainnet',
    retracts: `token_transfer:${SAMPLE_TX_ID}`,
    retracted_type: 'token_transfer',
    tx_id: SAMPLE_TX_ID,
    block_height: 182345,
    block_hash: SAMPLE_BLOCK_HASH,
    summary: `1,250.5 STX from ${SAMPLE_ALEX} to ${SAMPLE_ARKADIKO}`,
    recipient: SAMPLE_ARKADIKO,
    rule: 'addresses',
    severity: 'warning',
  },
} satisfies WatcherKind<RetractionAlert, ChainAlert>;
