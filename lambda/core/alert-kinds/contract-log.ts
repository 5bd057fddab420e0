// `contract_log`: a smart_contract_log event printed by a watched contract, whatever contract the transaction
// called (a watched contract reached through another contract still counts).
import type { AlertBase } from './alert-base';
import type { ContractLogEvent } from '../domain';
import { clarityToJson, decodeClarityOrNull, type ClarityJson, type ClarityTree } from '../clarity/decode';
import { fields, id, logValue, networkName, smsWhere, chainRows } from '../render/email-parts';
import { contractName, explorerTxUrl, isoTime, LIMITS } from '../render/chain-text';
import { formatCount } from '../render/stx-amount';
import { sanitizeUntrusted } from '../render/untrusted-text';
import { tupleFields } from '../render/clarity-text';
import { contractLogsList, type CompiledLogRule, type CompiledLogRules } from '../rules/contract-log-rules';
import { strongestRule } from '../stages/rule-meta';
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
  /** The value decoded into plain JSON (integers as decimal strings); absent when the hex is not a Clarity value. */
  value?: ClarityJson;
}

/** A rule holds when its `contains` and its `where` both do (each only when given). */
function holds(rule: CompiledLogRule, log: ContractLogEvent, value: ClarityTree | null): boolean {
  if (rule.contains !== undefined && !log.valueRepr.includes(rule.contains)) return false;
  if (rule.condition !== undefined && (value === null || !rule.condition(value))) return false;
  return true;
}

/** A tuple as one `key: value` line per field, each readable (digits grouped); null for any other value. */
function tupleLines(a: ContractLogAlert): string | null {
  const fields = tupleFields(decodeClarityOrNull(a.value_hex));
  if (fields === null) return null;
  const shown = fields.slice(0, TUPLE_LINES_MAX);
  const width = Math.max(...shown.map(([key]) => key.length)) + 2;
  const more = fields.length - shown.length;
  return shown
    .map(([key, value]) => `  ${`${sanitizeUntrusted(key, 128)}:`.padEnd(width)}${sanitizeUntrusted(value, 400)}`)
    .concat(more > 0 ? [`  [${more} more fields: see the Clarity value below]`] : [])
    .join('\n');
}

/** A tuple's fields on one line (`action: mint, amount: 1,000,000`) for the terminal and chat; else the Clarity text. */
function valueInline(a: ContractLogAlert): string {
  const fields = tupleFields(decodeClarityOrNull(a.value_hex));
  return sanitizeUntrusted(fields === null ? a.value_repr : fields.map(([key, value]) => `${key}: ${value}`).join(', '), TERMINAL_VALUE_MAX);
}

// Only these transaction types run contract code, so only they can print.
const LOG_CARRYING_TYPES = new Set(['contract_call', 'smart_contract']);
/** How much of a log value the terminal shows: a line or two. */
const TERMINAL_VALUE_MAX = 200;
/** An email lists at most this many of a tuple's fields, one a line (the whole value follows, capped). */
const TUPLE_LINES_MAX = 40;

/** A tuple reads best one field per line; anything else as its Clarity text. */
function valueSection(a: ContractLogAlert): string[] {
  const lines = tupleLines(a);
  if (lines === null) return ['Value (Clarity):', logValue(a.value_repr)];
  return ['Value:', lines, '', 'Value (Clarity):', logValue(a.value_repr)];
}

const key = (txId: string, eventIndex: number) => `contract_log:${txId}:${eventIndex}`;

export const contractLogKind = {
  type: 'contract_log',
  key,

  chain: {
    // A failed transaction's events were rolled back, so they never alert and are not fetched.
    reads: { contractLogs: contractLogsList },
    needsEvents: (tx, rules) => rules.contractLogs.size > 0 && tx.txStatus === 'success' && tx.eventCount !== 0 && LOG_CARRYING_TYPES.has(tx.txType),
    match({ block, events, rules, network }) {
      if (rules.contractLogs.size === 0) return [];
      const found: Matched<ContractLogAlert>[] = [];
      for (const tx of block.transactions) {
        if (tx.txStatus !== 'success') continue;
        const txEvents = events.get(tx.txId);
        if (!txEvents) continue;
        for (const log of txEvents.logs) {
          const logRules = rules.contractLogs.get(log.contractId);
          if (!logRules) continue;
          // Not a Clarity value: then no `where` can hold.
          const value = decodeClarityOrNull(log.valueHex);
          // One alert per event however many rules it meets; it carries the most severe rule (rule-meta.ts).
          const meta = strongestRule(logRules.filter((rule) => holds(rule, log, value)).map((rule) => rule.meta));
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
              ...(value === null ? {} : { value: clarityToJson(value) }),
              ...meta,
            },
          });
        }
      }
      return found;
    },
    // A path of tuple keys (and list indexes) into the decoded value: "amount", "details.amount".
    summed: (a, path) =>
      path.split('.').reduce<unknown>((at, key) => (typeof at === 'object' && at !== null ? (at as Record<string, unknown>)[key] : undefined), a.value),
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
      fields([['Contract', id(a.contract_id)], ['Topic', sanitizeUntrusted(a.topic, LIMITS.topic)], ...chainRows(a)]),
      '',
      ...valueSection(a),
    ].join('\n'),

  sms: (a) =>
    `${sanitizeUntrusted(a.topic, 30)} from ${contractName(a.contract_id)} ${smsWhere(a.block_height, a.tx_id)}: ` + sanitizeUntrusted(a.value_repr, 200),

  terminal: (a) => [
    ['Contract', id(a.contract_id)],
    ['Value', valueInline(a)],
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
    value_hex: '0x0c0000000206616374696f6e0d000000046d696e7406616d6f756e7401000000000000000000000000000f4240',
    value: { action: 'mint', amount: '1000000' },
    rule: `contractLogs:${SAMPLE_ARKADIKO}.arkadiko-token`,
    severity: 'warning',
  },
} satisfies ChainKind<ContractLogAlert, { contractLogs: CompiledLogRules }>;
