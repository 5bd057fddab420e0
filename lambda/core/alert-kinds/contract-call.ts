// `contract_call`: a transaction that called a watched contract directly (as the API lists it), filtered by
// function, sender and outcome. The block's transaction list tells it all, except on the API's v3 routes,
// whose summaries leave out the arguments and the result: those are read for the calls that alert only.
import type { AlertBase } from './alert-base';
import { callsList, type CompiledCallRules } from '../rules/contract-call-rules';
import { minedCall, strongestCallRule } from '../rules/call-predicate';
import type { Transaction } from '../domain';
import { fields, id, logValue, networkName, smsWhere, chainRows } from '../render/email-parts';
import { contractName, explorerTxUrl, isoTime, LIMITS, shortPrincipal } from '../render/chain-text';
import { formatCount } from '../render/stx-amount';
import { sanitizeUntrusted } from '../render/untrusted-text';
import { outcomeWords, resultWords, shortOutcome } from '../render/tx-outcome';
import type { ChainKind, Matched } from './kind';
import { SAMPLE_ALEX, SAMPLE_ARKADIKO, SAMPLE_BLOCK_HASH, SAMPLE_BLOCK_TIME, SAMPLE_TX_ID } from './samples';

export interface ContractCallAlert extends AlertBase {
  type: 'contract_call';
  tx_id: string;
  block_height: number;
  block_hash: string;
  block_time: number;
  contract_id: string;
  function_name: string;
  sender: string;
  /** `success`, or how it failed (`abort_by_response`, `abort_by_post_condition`, …). */
  tx_status: string;
  /**
   * Each argument's Clarity text, in order (on the v3 routes, read from the transaction route for each
   * alerting call); null only where an API answer left them out.
   */
  args: string[] | null;
  /** The result's Clarity text, e.g. `(err u102)`; null when the API did not give it. */
  result_repr: string | null;
  /** The `pending_call` alert this call raised while it waited in the mempool, when one did. */
  pending_key?: string;
}

/** One alert per transaction, however many rules it meets. */
const key = (txId: string) => `contract_call:${txId}`;
const MARKER = '...';
/** How much of one argument the terminal shows. */
const TERMINAL_ARG_MAX = 80;

const outcome = (a: ContractCallAlert) => outcomeWords(a.tx_status, a.result_repr);

/** The arguments, numbered, joined by `separator` (a new line in the email, a comma at a terminal). */
function argsText(args: string[] | null, max: number, separator: string): string {
  if (args === null) return 'not listed by the API';
  if (args.length === 0) return 'none';
  return args.map((arg, index) => `${index + 1}. ${sanitizeUntrusted(arg, max)}`).join(separator);
}

/** The most severe rule `tx` meets, null when it is no call to a watched contract or meets none (call-predicate.ts). */
function matchedRule(tx: Transaction, rules: { calls: CompiledCallRules }) {
  const call = minedCall(tx);
  return call && strongestCallRule(rules.calls, call);
}

export const contractCallKind = {
  type: 'contract_call',
  key,

  chain: {
    reads: { calls: callsList },
    needsEvents: () => false,
    // A list without the arguments or the result (the API's v3 summaries): read them for the calls that alert.
    needsCallDetails: (tx, rules) =>
      tx.contractCall !== undefined && (tx.contractCall.args === null || tx.contractCall.resultRepr === null) && matchedRule(tx, rules) !== null,
    match({ block, events, rules, network }) {
      if (rules.calls.size === 0) return [];
      const found: Matched<ContractCallAlert>[] = [];
      for (const tx of block.transactions) {
        const meta = matchedRule(tx, rules);
        if (!meta || tx.contractId === undefined || !tx.contractCall) continue;
        const call = events.get(tx.txId)?.call ?? tx.contractCall;
        found.push({
          at: { txIndex: tx.txIndex, eventIndex: -1 },
          alert: {
            type: 'contract_call',
            key: key(tx.txId),
            network,
            tx_id: tx.txId,
            block_height: block.header.height,
            block_hash: block.header.hash,
            block_time: block.header.time,
            contract_id: tx.contractId,
            function_name: call.functionName,
            sender: tx.sender,
            tx_status: tx.txStatus,
            args: call.args,
            result_repr: call.resultRepr,
            ...meta,
          },
        });
      }
      return found;
    },
    retraction: {
      label: 'contract call',
      summary: (a) => `${a.function_name} on ${a.contract_id} by ${a.sender} (${outcome(a)})`,
      carried: (a) => ({ contract_id: a.contract_id }),
    },
  },

  subject: (a) =>
    `${sanitizeUntrusted(a.function_name, 40)} on ${contractName(a.contract_id)} ${a.tx_status === 'success' ? 'called' : 'failed'} (block ${formatCount(a.block_height)})`,

  email: (a) =>
    [
      `A watched contract was called on ${networkName(a.network)}; the call ${outcome(a)}.`,
      '',
      fields([
        ['Contract', id(a.contract_id)],
        ['Function', sanitizeUntrusted(a.function_name, LIMITS.topic)],
        ['Caller', id(a.sender)],
        // The chain's own word beside a failure's, for whoever looks the transaction up.
        ['Status', a.tx_status === 'success' ? 'succeeded' : `${outcome(a)} (${sanitizeUntrusted(a.tx_status, LIMITS.status)})`],
        ...chainRows(a),
      ]),
      '',
      'Arguments (Clarity):',
      `  ${argsText(a.args, LIMITS.reprEmail, '\n  ')}`,
      '',
      'Result (Clarity):',
      a.result_repr === null ? 'not given by the API' : logValue(a.result_repr),
    ].join('\n'),

  sms: (a) =>
    `${sanitizeUntrusted(a.function_name, 40)} on ${contractName(a.contract_id)} ${a.tx_status === 'success' ? 'ok' : 'FAILED'} ` +
    `${smsWhere(a.block_height, a.tx_id)} by ${shortPrincipal(a.sender, MARKER)}` +
    (shortOutcome(a.tx_status, a.result_repr) === null ? '' : `: ${shortOutcome(a.tx_status, a.result_repr)}`),

  terminal: (a) => [
    ['Call', `${sanitizeUntrusted(a.function_name, LIMITS.topic)} on ${id(a.contract_id)}, ${outcome(a)}`],
    ['Caller', id(a.sender)],
    ['Args', argsText(a.args, TERMINAL_ARG_MAX, ', ')],
    // A failed call's result is already in its outcome's words.
    ...(a.result_repr === null || a.tx_status !== 'success' ? [] : [['Result', resultWords(a.result_repr)] as const]),
    ['Block', `${formatCount(a.block_height)} at ${isoTime(a.block_time)}`],
  ],
  link: (a) => explorerTxUrl(a.tx_id, a.network),

  attributes: (a) => ({ contract_id: a.contract_id }),

  sample: {
    type: 'contract_call',
    key: key(SAMPLE_TX_ID),
    network: 'mainnet',
    tx_id: SAMPLE_TX_ID,
    block_height: 182345,
    block_hash: SAMPLE_BLOCK_HASH,
    block_time: SAMPLE_BLOCK_TIME,
    contract_id: `${SAMPLE_ARKADIKO}.arkadiko-vault`,
    function_name: 'withdraw',
    sender: SAMPLE_ALEX,
    tx_status: 'abort_by_response',
    args: ['u1000000000', `'${SAMPLE_ALEX}`],
    result_repr: '(err u102)',
    rule: 'Vault withdrawal failed',
    severity: 'critical',
  },
} satisfies ChainKind<ContractCallAlert, { calls: CompiledCallRules }>;
