// `sbtc_lifecycle`: an sBTC deposit or withdrawal that missed a deadline the signers keep, failed, was replaced
// or rejected; a key rotation; the throttle switched. Raised by the sBTC lifecycle tracker (core/sbtc).
import type { Network } from '../domain';
import { SBTC_SITUATIONS, type SbtcLifecycleEvent, type SbtcSituation } from '../sbtc/lifecycle-events';
import { explorerTxUrl, shortTxId } from '../render/chain-text';
import { fields, id, networkName, type Row } from '../render/email-parts';
import { formatCount } from '../render/stx-amount';
import { formatTokenAmount } from '../render/token-amount';
import { sanitizeUntrusted } from '../render/untrusted-text';
import { defaultRuleName, WATCHER_RULE } from '../stages/rule-meta';
import type { AlertBase } from './alert-base';
import type { WatcherKind } from './kind';
import { SAMPLE_TX_ID } from './samples';

export interface SbtcLifecycleAlert extends AlertBase {
  type: 'sbtc_lifecycle';
  situation: SbtcSituation;
  bitcoin_height: number;
  due_height: number | null;
  blocks_late: number | null;
  blocks_waited: number | null;
  bitcoin_txid: string | null;
  output_index: number | null;
  request_id: number | null;
  stacks_txid: string | null;
  amount_sats: string | null;
  recipient: string | null;
  sender: string | null;
  detail: string | null;
}

/** Bitcoin amounts as people say them: `0.5 BTC`, exactly. */
export const btc = (sats: string | null): string => (sats === null ? 'an unknown amount' : formatTokenAmount(sats, 8, 'BTC', 'BTC'));

/** A Bitcoin transaction on mempool.space, a public Bitcoin explorer (its testnet explorer for testnet). */
export function bitcoinTxUrl(txid: string, network: Network): string {
  return `https://mempool.space/${network === 'testnet' ? 'testnet/' : ''}tx/${encodeURIComponent(id(txid))}`;
}

const what = (a: SbtcLifecycleAlert): string =>
  a.request_id !== null ? `sBTC withdrawal #${a.request_id} of ${btc(a.amount_sats)}` : `sBTC deposit of ${btc(a.amount_sats)}`;

function headline(a: SbtcLifecycleAlert): string {
  const waited = formatCount(a.blocks_waited ?? 0);
  switch (a.situation) {
    case 'deposit_late':
      return `${what(a)} not minted ${waited} Bitcoin blocks after confirmation`;
    case 'deposit_reclaimable':
      return `${what(a)} will no longer be swept: its reclaim lock is near`;
    case 'deposit_failed':
      return `${what(a)} failed`;
    case 'deposit_replaced':
      return `${what(a)} replaced by another transaction`;
    case 'deposit_old_key':
      return `${what(a)} sent to the signers' old key`;
    case 'withdrawal_late':
      return `${what(a)} not accepted ${waited} Bitcoin blocks after the request`;
    case 'withdrawal_expired':
      return `${what(a)} expired unaccepted after ${waited} Bitcoin blocks`;
    case 'withdrawal_rejected':
      return `${what(a)} rejected by the signers`;
    case 'summary':
      return `${id(a.detail ?? 'more')} more sBTC alerts this run`;
    default:
      // A situation read back from a newer or damaged store: shown, never trusted.
      return (SBTC_SITUATIONS as Record<string, string>)[a.situation] ?? `sBTC ${sanitizeUntrusted(String(a.situation), 40)}`;
  }
}

function rows(a: SbtcLifecycleAlert): Row[] {
  const out: Row[] = [];
  if (a.amount_sats !== null) out.push(['Amount', `${btc(a.amount_sats)} (${id(a.amount_sats)} sats)`]);
  if (a.recipient !== null) out.push(['Recipient', id(a.recipient)]);
  if (a.sender !== null) out.push(['Sender', id(a.sender)]);
  if (a.bitcoin_txid !== null)
    out.push(
      ['Bitcoin tx', `${id(a.bitcoin_txid)}${a.output_index !== null ? ` output ${a.output_index}` : ''}`],
      ['Bitcoin link', bitcoinTxUrl(a.bitcoin_txid, a.network)],
    );
  if (a.stacks_txid !== null) out.push(['Stacks tx', id(a.stacks_txid)], ['Explorer', explorerTxUrl(a.stacks_txid, a.network)]);
  out.push(['Bitcoin block', formatCount(a.bitcoin_height)]);
  if (a.due_height !== null) out.push(['Due at block', `${formatCount(a.due_height)} (${formatCount(a.blocks_late ?? 0)} blocks late)`]);
  if (a.detail !== null && a.situation !== 'summary') out.push(['Detail', id(a.detail)]);
  return out;
}

const key = (event: Pick<SbtcLifecycleEvent, 'key'>) => event.key;

export const sbtcLifecycleKind = {
  type: 'sbtc_lifecycle',
  key,
  build: (e, network) => ({
    type: 'sbtc_lifecycle',
    key: key(e),
    network,
    situation: e.situation,
    bitcoin_height: e.bitcoinHeight,
    due_height: e.dueHeight,
    blocks_late: e.blocksLate,
    blocks_waited: e.blocksWaited,
    bitcoin_txid: e.bitcoinTxid,
    output_index: e.outputIndex,
    request_id: e.requestId,
    stacks_txid: e.stacksTxid,
    amount_sats: e.amountSats,
    recipient: e.recipient,
    sender: e.sender,
    detail: e.detail,
    rule: defaultRuleName(WATCHER_RULE, 'sbtc_lifecycle'),
    severity: e.severity,
  }),
  subject: headline,
  email: (a) =>
    [
      `${headline(a)} on ${networkName(a.network)}.`,
      '',
      fields(rows(a)),
      '',
      "The deadlines are the sBTC signers' own: a deposit is minted 1 to 3 Bitcoin blocks after it confirms, a withdrawal accepted about 8 blocks after the request, and neither is swept past its lock or expiry. See docs/sbtc.md.",
    ].join('\n'),
  sms: (a) => `${headline(a)}${a.due_height !== null && a.blocks_late ? `, ${formatCount(a.blocks_late)} blocks late` : ''}`,
  terminal: (a) => rows(a).filter(([label]) => label !== 'Explorer'),
  link: (a) => (a.stacks_txid ? explorerTxUrl(a.stacks_txid, a.network) : a.bitcoin_txid ? bitcoinTxUrl(a.bitcoin_txid, a.network) : null),
  attributes: (a) => {
    const principal = a.request_id !== null ? a.sender : a.recipient;
    return principal && /^S[PMTN]/.test(principal) ? { address: principal } : {};
  },
  sample: {
    type: 'sbtc_lifecycle',
    key: 'sbtc:withdrawal_late:critical:412',
    network: 'mainnet',
    situation: 'withdrawal_late',
    bitcoin_height: 871_018,
    due_height: 871_018,
    blocks_late: 0,
    blocks_waited: 18,
    bitcoin_txid: null,
    output_index: null,
    request_id: 412,
    stacks_txid: SAMPLE_TX_ID,
    amount_sats: '25000000',
    recipient: '0014c9d4a6b8f5e3c2a1b0d9e8f7a6b5c4d3e2f1a0b9',
    sender: 'SP3FBR2AGK5H9QBDH3EEN6DF8EK8JY7RX8QJ5SVTE',
    detail: null,
    rule: 'watcher:sbtc_lifecycle',
    severity: 'critical',
  },
} satisfies WatcherKind<SbtcLifecycleAlert, SbtcLifecycleEvent>;
