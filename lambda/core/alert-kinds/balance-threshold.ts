// `balance_threshold`: a `balances` rule's balance (spendable STX, or a fungible token) crossed its `below` or
// `above` threshold, in this block, at this transaction (null when a balance read found it: a first check,
// a reread after a gap, a correction, or a stacking lock's end). Once per crossing: not again until it has
// gone back across. The balances are kept by balance-tracker.ts; this module words what it finds.
import type { AlertBase } from './alert-base';
import type { BlockHeader, Network } from '../domain';
import type { BalanceCrossing } from '../stages/balance-tracker';
import { block as blockText, fields, id, networkName } from '../render/email-parts';
import { explorerTxUrl, isoTime, shortPrincipal } from '../render/chain-text';
import { formatCount, formatStx } from '../render/stx-amount';
import { assetName, formatTokenAmount } from '../render/token-amount';
import { sanitizeUntrusted } from '../render/untrusted-text';
import type { ChainKind } from './kind';
import { SAMPLE_ARKADIKO, SAMPLE_BLOCK_HASH, SAMPLE_BLOCK_TIME, SAMPLE_TX_ID } from './samples';

export interface BalanceThresholdAlert extends AlertBase {
  type: 'balance_threshold';
  address: string;
  /** `stx` (the spendable, unlocked balance) or the token's asset id. */
  asset_id: string;
  /** Base units after the crossing, decimal string. */
  balance: string;
  /** The threshold crossed, base units. */
  threshold: string;
  crossed: 'below' | 'above';
  /** Before the crossing; null at a first check. */
  previous_balance: string | null;
  /** The transaction that crossed it; null when a balance read (a first check) or a lock's end found it. */
  tx_id: string | null;
  block_height: number;
  block_hash: string;
  /** Unix seconds of the block. */
  block_time: number;
  /** From the rule, for the wording (tokens). */
  decimals: number | null;
  symbol: string | null;
}

/** One crossing per rule, side and cause (the transaction, or the read's block): a re-mined crossing is the same one. */
const key = (ruleKey: string, crossed: string, cause: string) => `balance_threshold:${ruleKey}:${crossed}:${cause}`;

const MARKER = '...';

/** `49.9 STX` or `0.5 sBTC`: a balance in the asset's units. */
function amountText(a: Pick<BalanceThresholdAlert, 'asset_id' | 'decimals' | 'symbol'>, value: string): string {
  if (!/^-?\d+$/.test(value)) return `${sanitizeUntrusted(value, 40)} (as received)`;
  const negative = value.startsWith('-');
  const digits = negative ? value.slice(1) : value;
  const text = a.asset_id === 'stx' ? formatStx(digits, 'short') : formatTokenAmount(digits, a.decimals, a.symbol, a.asset_id);
  return negative ? `-${text}` : text;
}

const what = (a: BalanceThresholdAlert) =>
  a.asset_id === 'stx' ? 'spendable STX' : a.symbol === null ? assetName(a.asset_id) : sanitizeUntrusted(a.symbol, 20);
/** The side as stored, read back from state: only the two words it can be. */
const side = (a: Pick<BalanceThresholdAlert, 'crossed'>) => (a.crossed === 'above' ? 'above' : 'below');

/** The alert of a crossing the balance stage found in `header`'s block. */
export function balanceThresholdOf(c: BalanceCrossing, header: BlockHeader, network: Network): BalanceThresholdAlert {
  return {
    type: 'balance_threshold',
    key: key(c.rule.key, c.crossed, c.cause),
    network,
    ...c.rule.meta,
    address: c.rule.address,
    asset_id: c.rule.asset,
    balance: String(c.balance),
    threshold: String(c.threshold),
    crossed: c.crossed,
    previous_balance: c.previous === null ? null : String(c.previous),
    tx_id: c.txId,
    block_height: header.height,
    block_hash: header.hash,
    block_time: header.time,
    decimals: c.rule.decimals,
    symbol: c.rule.symbol,
  };
}

export const balanceThresholdKind = {
  type: 'balance_threshold',
  key,

  chain: {
    // The balance stage (stages/balances.ts) follows the balances across blocks, reads the events it needs and
    // raises these (balanceThresholdOf): no matcher, no rule list read here.
    reads: {},
    retraction: {
      label: 'balance crossing',
      summary: (a) => `${shortPrincipal(a.address, MARKER)} ${what(a)} went ${side(a)} ${amountText(a, a.threshold)} (to ${amountText(a, a.balance)})`,
      carried: (a) => ({ address: a.address, asset_id: a.asset_id }),
    },
  },

  subject: (a) =>
    `${shortPrincipal(a.address, MARKER)} ${what(a)} ${side(a)} ${amountText(a, a.threshold)}: ${amountText(a, a.balance)} (block ${formatCount(a.block_height)})`,

  email: (a) =>
    [
      `A watched balance went ${side(a)} its threshold on ${networkName(a.network)}.`,
      '',
      fields([
        ['Address', id(a.address)],
        ['Asset', a.asset_id === 'stx' ? 'STX (spendable: locked STX not counted)' : id(a.asset_id)],
        ['Balance', `${amountText(a, a.balance)} (${sanitizeUntrusted(a.balance, 60)} base units)`],
        ['Threshold', `${side(a)} ${amountText(a, a.threshold)} (${sanitizeUntrusted(a.threshold, 60)} base units)`],
        ['Before', a.previous_balance === null ? 'unknown (first check of this rule)' : amountText(a, a.previous_balance)],
        ['Block', blockText(a.block_height, a.block_hash)],
        ['Block time', isoTime(a.block_time)],
        ['Transaction', a.tx_id === null ? 'none (found by reading the balance)' : id(a.tx_id)],
        ...(a.tx_id === null ? [] : [['Explorer', explorerTxUrl(a.tx_id, a.network)] as const]),
      ]),
      '',
      `No further alert until the balance has gone back ${side(a) === 'below' ? 'above' : 'below'} the threshold.`,
    ].join('\n'),

  // The balance first: a cut SMS loses its tail.
  sms: (a) => `${shortPrincipal(a.address, MARKER)} ${side(a)} ${amountText(a, a.threshold)}: ${amountText(a, a.balance)} blk ${a.block_height}`,

  terminal: (a) => [
    ['Balance', `${amountText(a, a.balance)} (${side(a)} ${amountText(a, a.threshold)})`],
    ['Before', a.previous_balance === null ? 'first check' : amountText(a, a.previous_balance)],
    ['Where', `block ${formatCount(a.block_height)}${a.tx_id === null ? ' (balance read)' : ''}`],
  ],
  link: (a) => (a.tx_id === null ? null : explorerTxUrl(a.tx_id, a.network)),

  attributes: (a) => ({ address: a.address, asset_id: a.asset_id }),

  sample: {
    type: 'balance_threshold',
    key: key(`relayer gas|${SAMPLE_ARKADIKO}|stx|50000000|`, 'below', SAMPLE_TX_ID),
    network: 'mainnet',
    rule: 'relayer gas',
    severity: 'critical',
    address: SAMPLE_ARKADIKO,
    asset_id: 'stx',
    balance: '49997000',
    threshold: '50000000',
    crossed: 'below',
    previous_balance: '50000000',
    tx_id: SAMPLE_TX_ID,
    block_height: 182345,
    block_hash: SAMPLE_BLOCK_HASH,
    block_time: SAMPLE_BLOCK_TIME,
    decimals: null,
    symbol: null,
  },
} satisfies ChainKind<BalanceThresholdAlert, Record<string, never>>;
