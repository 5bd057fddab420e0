// `pending_dropped`: a transaction that raised a pending alert left the mempool without being mined
// (replaced by a higher fee, too expensive, garbage-collected…), with the reason the API gives. Once per
// transaction: what was feared did not happen, or happens under another transaction id.
import type { AlertBase } from './alert-base';
import type { WatcherKind } from './kind';
import { fields, id, networkName } from '../render/email-parts';
import { explorerTxUrl, LIMITS } from '../render/chain-text';
import { sanitizeUntrusted } from '../render/untrusted-text';
import type { RuleMeta } from '../stages/rule-meta';
import { SAMPLE_ALEX, SAMPLE_TX_ID } from './samples';

export interface PendingDroppedAlert extends AlertBase {
  type: 'pending_dropped';
  tx_id: string;
  /** The pending alert this closes (`pending_call:…` or `pending_transfer:…`). */
  pending_key: string;
  sender: string;
  /** The contract a dropped call was to (null for a transfer), for subscribers filtering on `contract_id`. */
  contract_id: string | null;
  /** The watched address of a dropped transfer (null for a call), for subscribers filtering on `address`. */
  address: string | null;
  /** What the transaction would have done, in words. */
  what: string;
  /** The API's status (`dropped_replace_by_fee`, …), or null when the route read does not say. */
  reason: string | null;
  /** The transaction that replaced it, when the API names one. */
  replaced_by: string | null;
}

const key = (txId: string) => `pending_dropped:${txId}`;

export interface PendingDroppedFound {
  txId: string;
  pendingKey: string;
  sender: string;
  contractId: string | null;
  address: string | null;
  what: string;
  reason: string | null;
  replacedBy: string | null;
  meta: RuleMeta;
}

const REASON_WORDS: Record<string, string> = {
  dropped_replace_by_fee: 'replaced by another transaction with a higher fee (same sender and nonce)',
  dropped_replace_across_fork: 'replaced by another transaction on a fork',
  dropped_too_expensive: 'dropped as too expensive to mine',
  dropped_stale_garbage_collect: 'dropped after waiting too long (garbage-collected)',
  dropped_problematic: 'dropped as problematic by the node',
};

function reasonText(a: PendingDroppedAlert): string {
  if (a.reason === null) return 'left the mempool unmined (the API did not say why)';
  return REASON_WORDS[a.reason] ?? sanitizeUntrusted(a.reason, LIMITS.status);
}

export const pendingDroppedKind = {
  type: 'pending_dropped',
  key,

  build: (found, network) => ({
    type: 'pending_dropped',
    key: key(found.txId),
    network,
    tx_id: found.txId,
    pending_key: found.pendingKey,
    sender: found.sender,
    contract_id: found.contractId,
    address: found.address,
    what: found.what,
    reason: found.reason,
    replaced_by: found.replacedBy,
    ...found.meta,
  }),

  subject: (a) => `no longer waiting: ${sanitizeUntrusted(a.what, 60)} (${a.reason ?? 'dropped'})`,

  email: (a) =>
    [
      `A transaction that was waiting in the ${networkName(a.network)} mempool left it without being mined: ${reasonText(a)}.`,
      a.replaced_by === null ? '' : `Its replacement ${id(a.replaced_by)} is watched like any other transaction.`,
      '',
      fields([
        ['Was', sanitizeUntrusted(a.what, LIMITS.summary)],
        ['Sender', id(a.sender)],
        ['Reason', a.reason === null ? 'not given' : sanitizeUntrusted(a.reason, LIMITS.status)],
        ['Replaced by', a.replaced_by === null ? 'none named' : id(a.replaced_by)],
        ['Transaction', id(a.tx_id)],
        ['Pending alert', id(a.pending_key)],
      ]),
    ].join('\n'),

  sms: (a) => `DROPPED before mining: ${sanitizeUntrusted(a.what, 60)} (${a.reason ?? 'no reason given'})`,

  terminal: (a) => [
    ['Dropped', `${sanitizeUntrusted(a.what, 120)}: ${reasonText(a)}`],
    ['Sender', id(a.sender)],
    ...(a.replaced_by === null ? [] : [['Replaced by', id(a.replaced_by)] as const]),
  ],
  link: (a) => explorerTxUrl(a.tx_id, a.network),

  attributes: (a) => ({
    ...(a.contract_id === null ? {} : { contract_id: a.contract_id }),
    ...(a.address === null ? {} : { address: a.address, asset_id: 'stx' }),
  }),

  sample: {
    type: 'pending_dropped',
    key: key(SAMPLE_TX_ID),
    network: 'mainnet',
    tx_id: SAMPLE_TX_ID,
    pending_key: `pending_call:${SAMPLE_TX_ID}`,
    sender: SAMPLE_ALEX,
    contract_id: 'SP2C2YFP12AJZB4MABJBAJ55XECVS7E4PMMZ89YZR.arkadiko-vault',
    address: null,
    what: 'set-owner on SP2C2YFP12AJZB4MABJBAJ55XECVS7E4PMMZ89YZR.arkadiko-vault',
    reason: 'dropped_replace_by_fee',
    replaced_by: '0x5b1c0f0e9a4c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f708192a3b4c5d6e7f80910',
    rule: 'Owner change',
    severity: 'critical',
  },
} satisfies WatcherKind<PendingDroppedAlert, PendingDroppedFound>;
