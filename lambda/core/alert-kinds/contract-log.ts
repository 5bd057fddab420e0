// `contract_log`: a smart_contract_log event printed by a watched contract, whatever contract the transaction
// called (a watched contract reached through another contract still counts).
import type { AlertBase } from '../domain';
import { block, fields, id, logValue, networkName, smsWhere } from '../render/email-parts';
import { contractName, explorerTxUrl, isoTime, LIMITS } from '../render/chain-text';
import { formatCount } from '../render/stx-amount';
import { sanitizeUntrusted } from '../render/untrusted-text';
import { watchesLogs } from '../watch-rules';
import { strongestRule } from '../rule-meta';
import type { ChainKind, Matched } from './kind';
import { SAMPLE_ARKADIKO, SAMPLE_BLOCK_HASH, SAMPLE_BLOCK_TIME, SAMPLE_TX_ID } from './samples';

export interface ContractLogAlert extends AlertBase {
  type: 'contract_log';
  tx_id: string;
  block_height: number;
  block_hash: string;
  block_time: number;
  event_index: number;
  contract_id: string;
  topic: string;
  value_repr: string;
  value_hex: string;
}

// Only these transaction types run contract code, so only they can print.
const LOG_CARRYING_TYPES = new Set(['contract_call', 'smart_contract']);
/** How much of a log value the terminal shows: a line or two. */
const TERMINAL_VALUE_MAX = 200;

const key = (txId: string, eventIndex: number) => `contract_log:${txId}:${eventIndex}`;

export const contractLogKind = {
  type: 'contract_log',
  key,

  chain: {
    // A failed transaction's events were rolled back, so they never alert and are not fetched.
    needsEvents: (tx, rules) =>
      watchesLogs(rules) && tx.txStatus === 'success' && tx.eventCount !== 0 && LOG_CARRYING_TYPES.has(tx.txType),
    match({ block, events, rules, network }) {
      if (!watchesLogs(rules)) return [];
      const found: Matched<ContractLogAlert>[] = [];
      for (const tx of block.transactions) {
        if (tx.txStatus !== 'success') continue;
        const txEvents = events.get(tx.txId);
        if (!txEvents) continue;
        for (const log of txEvents.logs) {
          const logRules = rules.logRules.get(log.contractId);
          if (!logRules) continue;
          const matched = logRules.filter((rule) => rule.contains === undefined || log.valueRepr.includes(rule.contains));
          // One alert per event however many rules match; it carries the most severe rule (rule-meta.ts).
          const meta = strongestRule(matched.map((rule) => rule.meta));
          if (!meta) continue;
          found.push({
            at: { txIndex: tx.txIndex, eventIndex: log.eventIndex },
            alert: {
              type: 'contract_log',
              key: key(tx.txId, log.eventIndex),
              network,
              tx_id: tx.txId,
              block_height: block.header.height,
              block_hash: block.header.hash,
              block_time: block.header.time,
              event_index: log.eventIndex,
              contract_id: log.contractId,
              topic: log.topic,
              value_repr: log.valueRepr,
              value_hex: log.valueHex,
              ...meta,
            },
          });
        }
      }
      return found;
    },
    retraction: {
      label: 'contract log',
      summary: (a) => `${a.topic} event #${a.event_index} from ${a.contract_id}`,
      carried: (a) => ({ contract_id: a.contract_id }),
    },
  },

  subject: (a) => `${sanitizeUntrusted(a.topic, 30)} from ${contractName(a.contract_id)} (block ${formatCount(a.block_height)})`,

  email: (a) =>
    [
      `A watched contract printed a log on ${networkName(a.network)}.`,
      '',
      fields([
        ['Contract', id(a.contract_id)],
        ['Topic', sanitizeUntrusted(a.topic, LIMITS.topic)],
        ['Block', block(a.block_height, a.block_hash)],
        ['Block time', isoTime(a.block_time)],
        ['Transaction', id(a.tx_id)],
        ['Event index', String(a.event_index)],
        ['Explorer', explorerTxUrl(a.tx_id, a.network)],
      ]),
      '',
      'Value (Clarity):',
      logValue(a.value_repr),
    ].join('\n'),

  sms: (a) =>
    `${sanitizeUntrusted(a.topic, 30)} from ${contractName(a.contract_id)} ${smsWhere(a.block_height, a.tx_id)}: ` +
    sanitizeUntrusted(a.value_repr, 200),

  terminal: (a) => [
    ['Contract', id(a.contract_id)],
    ['Value', sanitizeUntrusted(a.value_repr, TERMINAL_VALUE_MAX)],
    ['Event', `#${a.event_index} in block ${formatCount(a.block_height)} at ${isoTime(a.block_time)}`],
  ],
  link: (a) => explorerTxUrl(a.tx_id, a.network),

  attributes: (a) => ({ contract_id: a.contract_id }),

  sample: {
    type: 'contract_log',
    key: key(SAMPLE_TX_ID, 3),
    network: 'mainnet',
    tx_id: SAMPLE_TX_ID,
    block_height: 182345,
    block_hash: SAMPLE_BLOCK_HASH,
    block_time: SAMPLE_BLOCK_TIME,
    event_index: 3,
    contract_id: `${SAMPLE_ARKADIKO}.arkadiko-token`,
    topic: 'print',
    value_repr: '(tuple (action "mint") (amount u1000000))',
    value_hex: '0x0c',
    rule: `contractLogs:${SAMPLE_ARKADIKO}.arkadiko-token`,
    severity: 'warning',
  },
} satisfies ChainKind<ContractLogAlert>;
