// `sbtc_settlement`: the settled follow-up of the sBTC lifecycle (opt-in, the sbtcLifecycle section's `settled`):
// a deposit minted or a withdrawal accepted as its print lands (`completed`), then once that print is N Bitcoin
// blocks deep (`settled`). Raised by the sbtcLifecycle stage (core/sbtc/settlement.ts), not by a matcher of its
// own: it is a chain alert all the same (the completing transaction, the block it was raised in), so that a reorg
// that takes the print back retracts it, as every chain alert is retracted.
import { explorerTxUrl } from '../render/chain-text';
import { block, fields, id, networkName } from '../render/email-parts';
import { formatCount } from '../render/stx-amount';
import type { SbtcSettlementEvent } from '../sbtc/settlement';
import type { AlertBase } from './alert-base';
import type { ChainKind } from './kind';
import { SAMPLE_BLOCK_HASH, SAMPLE_TX_ID } from './samples';
import { defaultRuleName, WATCHER_RULE } from '../stages/rule-meta';
import { bitcoinTxUrl, btc } from './sbtc-lifecycle';

export interface SbtcSettlementAlert extends AlertBase {
  type: 'sbtc_settlement';
  flow: 'deposit' | 'withdrawal';
  step: 'completed' | 'settled';
  /** The completing print's Stacks transaction. */
  tx_id: string;
  /** The Stacks block the alert was raised in: the print's for `completed`, the one that made it deep enough for `settled`. */
  block_height: number;
  block_hash: string;
  bitcoin_height: number;
  /** The Bitcoin height of the print's block: the depth counts from it. */
  completed_at_bitcoin: number;
  settle_blocks: number;
  bitcoin_txid: string | null;
  output_index: number | null;
  request_id: number | null;
  sweep_txid: string | null;
  amount_sats: string;
  /** A deposit's Stacks recipient ('' when not read); a withdrawal's Bitcoin scriptPubKey (hex). */
  recipient: string;
  sender: string | null;
}

const what = (a: SbtcSettlementAlert): string =>
  a.flow === 'withdrawal' ? `sBTC withdrawal #${a.request_id ?? '?'} of ${btc(a.amount_sats)}` : `sBTC deposit of ${btc(a.amount_sats)}`;
const done = (a: SbtcSettlementAlert): string => (a.flow === 'withdrawal' ? 'accepted' : 'minted');

function headline(a: SbtcSettlementAlert): string {
  if (a.step === 'settled') return `${what(a)} settled: ${done(a)} ${formatCount(a.bitcoin_height - a.completed_at_bitcoin)} Bitcoin blocks deep`;
  return `${what(a)} ${done(a)}; settled after ${formatCount(a.settle_blocks)} Bitcoin blocks`;
}

/** The principal it is about: a deposit's recipient, a withdrawal's sender. */
const principalOf = (a: SbtcSettlementAlert): string | null => (a.flow === 'withdrawal' ? a.sender : a.recipient);

function rows(a: SbtcSettlementAlert) {
  return [
    ['Amount', `${btc(a.amount_sats)} (${id(a.amount_sats)} sats)`],
    // '': a deposit followed from its print alone, read without the mint that names its recipient.
    ['Recipient', a.recipient === '' ? 'not read (see the Stacks tx)' : id(a.recipient)],
    ...(a.sender !== null ? [['Sender', id(a.sender)] as const] : []),
    ...(a.bitcoin_txid !== null
      ? [
          ['Bitcoin tx', `${id(a.bitcoin_txid)}${a.output_index !== null ? ` output ${a.output_index}` : ''}`] as const,
          ['Bitcoin link', bitcoinTxUrl(a.bitcoin_txid, a.network)] as const,
        ]
      : []),
    ...(a.sweep_txid !== null ? [['Signers sweep', `${id(a.sweep_txid)} (${bitcoinTxUrl(a.sweep_txid, a.network)})`] as const] : []),
    ['Stacks tx', id(a.tx_id)],
    ['Explorer', explorerTxUrl(a.tx_id, a.network)],
    ['Completed at', `Bitcoin block ${formatCount(a.completed_at_bitcoin)}`],
    ['Bitcoin block', formatCount(a.bitcoin_height)],
    ['Stacks block', block(a.block_height, a.block_hash)],
  ] as const;
}

const key = (e: Pick<SbtcSettlementEvent, 'key'>) => e.key;

export function buildSbtcSettlement(
  e: SbtcSettlementEvent,
  at: { network: SbtcSettlementAlert['network']; height: number; hash: string },
): SbtcSettlementAlert {
  return {
    type: 'sbtc_settlement',
    key: key(e),
    network: at.network,
    flow: e.flow,
    step: e.step,
    tx_id: e.stacksTxid,
    block_height: at.height,
    block_hash: at.hash,
    bitcoin_height: e.bitcoinHeight,
    completed_at_bitcoin: e.completedAtBitcoin,
    settle_blocks: e.settleBlocks,
    bitcoin_txid: e.bitcoinTxid,
    output_index: e.outputIndex,
    request_id: e.requestId,
    sweep_txid: e.sweepTxid,
    amount_sats: e.amountSats,
    recipient: e.recipient,
    sender: e.sender,
    rule: defaultRuleName(WATCHER_RULE, 'sbtc_settlement'),
    severity: 'info',
  };
}

export const sbtcSettlementKind = {
  type: 'sbtc_settlement',
  key,
  chain: {
    // Raised by the sbtcLifecycle stage from the registry's prints, which the section makes the scan read
    // (rules/rule-lists.ts): no rule list, no matcher of its own.
    reads: {},
    needsEvents: () => false,
    retraction: {
      label: 'sBTC completion',
      summary: headline,
      carried: (a) => {
        const principal = principalOf(a);
        return principal && /^S[PMTN]/.test(principal) ? { address: principal } : {};
      },
    },
  },
  subject: headline,
  email: (a) =>
    [
      `${headline(a)} on ${networkName(a.network)}.`,
      '',
      fields(rows(a)),
      '',
      a.step === 'settled'
        ? `The print that completed it is ${formatCount(a.settle_blocks)} Bitcoin blocks deep: a reorg that takes it back is no longer expected.`
        : `Until it is ${formatCount(a.settle_blocks)} Bitcoin blocks deep a reorg can take it back: a retraction would follow, and a settled alert once it is that deep. See docs/sbtc.md.`,
    ].join('\n'),
  // Short: the explorer link ends it.
  sms: (a) =>
    a.step === 'settled' ? `${what(a)} settled, ${formatCount(a.bitcoin_height - a.completed_at_bitcoin)} BTC blocks deep` : `${what(a)} ${done(a)}`,
  terminal: (a) => rows(a).filter(([label]) => label !== 'Explorer'),
  link: (a) => explorerTxUrl(a.tx_id, a.network),
  attributes: (a) => {
    const principal = principalOf(a);
    return principal && /^S[PMTN]/.test(principal) ? { address: principal } : {};
  },
  sample: {
    type: 'sbtc_settlement',
    key: 'sbtc_settlement:settled:withdrawal:412',
    network: 'mainnet',
    flow: 'withdrawal',
    step: 'settled',
    tx_id: SAMPLE_TX_ID,
    block_height: 182_460,
    block_hash: SAMPLE_BLOCK_HASH,
    bitcoin_height: 871_014,
    completed_at_bitcoin: 871_008,
    settle_blocks: 6,
    bitcoin_txid: null,
    output_index: null,
    request_id: 412,
    sweep_txid: 'c2f3b0e1d4a5968778695a4b3c2d1e0f9a8b7c6d5e4f30211203f4e5d6c7b8a9',
    amount_sats: '25000000',
    recipient: '0014c9d4a6b8f5e3c2a1b0d9e8f7a6b5c4d3e2f1a0b9',
    sender: 'SP3FBR2AGK5H9QBDH3EEN6DF8EK8JY7RX8QJ5SVTE',
    rule: 'watcher:sbtc_settlement',
    severity: 'info',
  },
} satisfies ChainKind<SbtcSettlementAlert>;
