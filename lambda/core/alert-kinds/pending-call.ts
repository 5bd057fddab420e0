// `pending_call`: a call that a `calls` rule with `"pending": true` matches, seen waiting in the mempool
// before any block holds it: the earliest warning (a `set-owner` or `upgrade` about to happen). Once per
// transaction; when mined, the usual `contract_call` follows with `pending_key` naming this alert.
import type { AlertBase } from './alert-base';
import type { WatcherKind } from './kind';
import { fields, id, networkName } from '../render/email-parts';
import { contractName, explorerTxUrl, isoTime, LIMITS, shortPrincipal } from '../render/chain-text';
import { stxOrAsReceived } from '../render/stx-amount';
import { sanitizeUntrusted } from '../render/untrusted-text';
import type { RuleMeta } from '../stages/rule-meta';
import { SAMPLE_ALEX, SAMPLE_ARKADIKO, SAMPLE_TX_ID } from './samples';

export interface PendingCallAlert extends AlertBase {
  type: 'pending_call';
  tx_id: string;
  contract_id: string;
  function_name: string;
  sender: string;
  /** Each argument's Clarity text, in order; null when the API did not give them. */
  args: string[] | null;
  /** micro-STX offered as fee, decimal string. */
  fee: string;
  nonce: number;
  /** Unix seconds when the API's node received the transaction. */
  received_at: number;
}

/** The transaction alone: one pending alert per waiting call, whatever rule it meets. */
const key = (txId: string) => `pending_call:${txId}`;

/** What the watcher found waiting: the transaction, its arguments, the rule. */
export interface PendingCallFound {
  txId: string;
  contractId: string;
  functionName: string;
  sender: string;
  args: string[] | null;
  fee: string;
  nonce: number;
  receivedAt: number;
  meta: RuleMeta;
}

function argsText(args: string[] | null, max: number, separator: string): string {
  if (args === null) return 'not given by the API';
  if (args.length === 0) return 'none';
  return args.map((arg, index) => `${index + 1}. ${sanitizeUntrusted(arg, max)}`).join(separator);
}

export const pendingCallKind = {
  type: 'pending_call',
  key,

  build: (found, network) => ({
    type: 'pending_call',
    key: key(found.txId),
    network,
    tx_id: found.txId,
    contract_id: found.contractId,
    function_name: found.functionName,
    sender: found.sender,
    args: found.args,
    fee: found.fee,
    nonce: found.nonce,
    received_at: found.receivedAt,
    ...found.meta,
  }),

  subject: (a) => `${sanitizeUntrusted(a.function_name, 40)} on ${contractName(a.contract_id)} waiting in the mempool`,

  email: (a) =>
    [
      `A call to a watched contract is waiting in the ${networkName(a.network)} mempool: no block holds it yet, so it may ` +
        'still be mined, replaced or dropped. Another alert follows either way.',
      '',
      fields([
        ['Contract', id(a.contract_id)],
        ['Function', sanitizeUntrusted(a.function_name, LIMITS.topic)],
        ['Caller', id(a.sender)],
        ['Fee', stxOrAsReceived(a.fee, 'exact')],
        ['Nonce', String(a.nonce)],
        ['Received', isoTime(a.received_at)],
        ['Transaction', id(a.tx_id)],
        ['Explorer', explorerTxUrl(a.tx_id, a.network)],
      ]),
      '',
      'Arguments (Clarity):',
      `  ${argsText(a.args, LIMITS.reprEmail, '\n  ')}`,
    ].join('\n'),

  sms: (a) =>
    `PENDING ${sanitizeUntrusted(a.function_name, 40)} on ${contractName(a.contract_id)} by ${shortPrincipal(a.sender, '...')}, not mined yet` +
    (a.args && a.args.length > 0 ? `: ${sanitizeUntrusted(a.args.join(' '), 60)}` : ''),

  terminal: (a) => [
    ['Waiting', `${sanitizeUntrusted(a.function_name, LIMITS.topic)} on ${id(a.contract_id)}, not mined yet`],
    ['Caller', id(a.sender)],
    ['Args', argsText(a.args, 80, ', ')],
    ['Fee', `${stxOrAsReceived(a.fee, 'short')}, nonce ${a.nonce}, received ${isoTime(a.received_at)}`],
  ],
  link: (a) => explorerTxUrl(a.tx_id, a.network),

  attributes: (a) => ({ contract_id: a.contract_id }),

  sample: {
    type: 'pending_call',
    key: key(SAMPLE_TX_ID),
    network: 'mainnet',
    tx_id: SAMPLE_TX_ID,
    contract_id: `${SAMPLE_ARKADIKO}.arkadiko-vault`,
    function_name: 'set-owner',
    sender: SAMPLE_ALEX,
    args: [`'${SAMPLE_ALEX}`],
    fee: '3000',
    nonce: 41,
    received_at: 1714564790,
    rule: 'Owner change',
    severity: 'critical',
  },
} satisfies WatcherKind<PendingCallAlert, PendingCallFound>;
