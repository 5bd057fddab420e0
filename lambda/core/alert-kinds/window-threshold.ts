// `window_threshold`: a window (`windows`) crossed its threshold: at least `count` matches of another rule, or
// their `sum` at least `atLeast`, within `minutes` of block time. Raised by the window stage
// (core/stages/window-stage.ts) after the block's other alerts, not by a matcher of its own: it is a chain alert all
// the same (the block and transaction that crossed it), so that a reorg that undoes the crossing retracts it.
import type { AlertBase } from './alert-base';
import { fields, id, networkName, chainRows } from '../render/email-parts';
import { explorerTxUrl, isoTime } from '../render/chain-text';
import { formatCount, groupDigits } from '../render/stx-amount';
import { inUnit } from '../watch-config/amounts';
import { sanitizeUntrusted } from '../render/untrusted-text';
import type { ChainKind } from './kind';
import { windowsList, type CompiledWindows } from '../rules/window-rules';
import { SAMPLE_BLOCK_HASH, SAMPLE_BLOCK_TIME, SAMPLE_TX_ID } from './samples';

export interface WindowThresholdAlert extends AlertBase {
  type: 'window_threshold';
  /** The transaction whose match crossed the threshold, and its block. */
  tx_id: string;
  block_height: number;
  block_hash: string;
  block_time: number;
  /** The rule whose matches the window counts (its `name`). */
  of: string;
  minutes: number;
  /** Matches in the window when it crossed. */
  count: number;
  /** Their total (decimal string) for a sum window; null for a count window. */
  sum: string | null;
  /** `count` or `atLeast`, as a decimal string. */
  threshold: string;
  /**
   * The unit `sum` and `threshold` are shown in (`STX`, `sBTC`, the token's symbol, or the unit `atLeast` names)
   * and its decimals; both null for a count window or a sum with no unit (shown in base units). The JSON keeps
   * base units either way.
   */
  unit: string | null;
  decimals: number | null;
  first_block_height: number;
  last_block_height: number;
  /** The contributing transactions, the latest 20 at most, oldest first. */
  tx_ids: string[];
  /** How many transactions contributed, all of them. */
  tx_count: number;
}

/** The window and the match that crossed it: the same crossing on a chain that a reorg rebuilt keeps its key. */
const key = (window: string, crossingKey: string) => `window_threshold:${window}:${crossingKey}`;

const name = (a: WindowThresholdAlert) => sanitizeUntrusted(a.rule ?? 'window', 60);
const of = (a: WindowThresholdAlert) => sanitizeUntrusted(a.of, 60);

/** The alert's unit when it has a sound one; an alert stored before units has neither field. */
function unitOf(a: WindowThresholdAlert): { name: string; decimals: number } | null {
  const { unit, decimals } = a;
  if (typeof unit !== 'string' || typeof decimals !== 'number' || !Number.isInteger(decimals) || decimals < 0 || decimals > 38) return null;
  return { name: sanitizeUntrusted(unit, 20), decimals };
}

/** A count grouped (`5`); a sum in the alert's unit, exactly (`10,250 STX`), else its base units grouped. */
function amount(a: WindowThresholdAlert, value: string): string {
  if (!/^\d+$/.test(value)) return sanitizeUntrusted(value, 60);
  const unit = a.sum === null ? null : unitOf(a);
  return unit === null ? groupDigits(BigInt(value)) : inUnit(value, unit);
}

/** `5 matches (at least 5)` or `sum 1,200,000 STX over 3 matches (at least 1,000,000 STX)`. */
function reached(a: WindowThresholdAlert): string {
  if (a.sum === null) return `${formatCount(a.count)} matches (at least ${amount(a, a.threshold)})`;
  return `sum ${amount(a, a.sum)} over ${formatCount(a.count)} matches (at least ${amount(a, a.threshold)})`;
}

/** `5 matches` or `sum 1,200,000 STX`. */
const headline = (a: WindowThresholdAlert) => (a.sum === null ? `${formatCount(a.count)} matches` : `sum ${amount(a, a.sum)}`);

const span = (a: WindowThresholdAlert) =>
  a.first_block_height === a.last_block_height
    ? `block ${formatCount(a.last_block_height)}`
    : `blocks ${formatCount(a.first_block_height)}–${formatCount(a.last_block_height)}`;

function txList(a: WindowThresholdAlert): string {
  const shown = a.tx_ids.map((tx) => `  ${id(tx)}`);
  const more = a.tx_count - a.tx_ids.length;
  return [...shown, ...(more > 0 ? [`  … and ${formatCount(more)} earlier`] : [])].join('\n');
}

export const windowThresholdKind = {
  type: 'window_threshold',
  key,

  chain: {
    reads: { windows: windowsList },
    needsEvents: () => false,
    // Raised by the windows stage (core/stages/windows.ts) from the other kinds' alerts: no matcher of its own.
    retraction: {
      label: 'window crossing',
      summary: (a) => `"${name(a)}": ${reached(a)} of "${of(a)}" within ${a.minutes} min, ${span(a)}`,
      carried: () => ({}),
    },
  },

  subject: (a) => `${headline(a)} of ${of(a)} in ${a.minutes} min (block ${formatCount(a.block_height)})`,

  email: (a) =>
    [
      `The window "${name(a)}" crossed its threshold on ${networkName(a.network)}: ${reached(a)} of the rule "${of(a)}" within ${a.minutes} minutes of block time.`,
      '',
      fields([
        ['Window', name(a)],
        ['Of rule', of(a)],
        ['Reached', reached(a)],
        ['From', `${span(a)} (${a.minutes} minutes of block time)`],
        ['Transactions', formatCount(a.tx_count)],
        ...chainRows(a),
      ]),
      '',
      a.tx_ids.length === 1
        ? 'The contributing transaction:'
        : `The contributing transactions${a.tx_count > a.tx_ids.length ? ` (the latest ${a.tx_ids.length})` : ''}:`,
      txList(a),
      '',
      'It alerts again only after the window has fallen below the threshold.',
    ].join('\n'),

  // Short: the window's name leads it, the explorer link ends it.
  sms: (a) => `${headline(a)} of ${of(a)} in ${a.minutes} min, blk ${a.block_height}`,

  terminal: (a) => [
    ['Reached', reached(a)],
    ['Of rule', of(a)],
    ['Window', `${a.minutes} min, ${span(a)}, ${formatCount(a.tx_count)} transactions`],
    ['Crossed', `in block ${formatCount(a.block_height)} at ${isoTime(a.block_time)}`],
  ],
  link: (a) => explorerTxUrl(a.tx_id, a.network),

  attributes: () => ({}),

  sample: {
    type: 'window_threshold',
    key: key('treasury drain', `stx_transfer:${SAMPLE_TX_ID}:0`),
    network: 'mainnet',
    tx_id: SAMPLE_TX_ID,
    block_height: 182345,
    block_hash: SAMPLE_BLOCK_HASH,
    block_time: SAMPLE_BLOCK_TIME,
    of: 'treasury outflows',
    minutes: 60,
    count: 3,
    sum: '1200000000000',
    threshold: '1000000000000',
    unit: 'STX',
    decimals: 6,
    first_block_height: 182301,
    last_block_height: 182345,
    tx_ids: [
      '0x6a1e3f9c5b7d2e4a8c0f1b3d5e7a9c2b4d6f8a0c1e3b5d7f9a2c4e6b8d0f1a3c',
      '0x1f3b5d7e9a2c4f6b8d0e1a3c5f7b9d2e4a6c8f0b1d3e5a7c9f2b4d6e8a0c1f3b',
      SAMPLE_TX_ID,
    ],
    tx_count: 3,
    rule: 'treasury drain',
    severity: 'critical',
  },
} satisfies ChainKind<WindowThresholdAlert, { windows: CompiledWindows }>;
