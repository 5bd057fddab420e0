// Pieces the kinds' email bodies are built from, so that every kind lays out its fields, ids, amounts and
// blocks alike.
import type { Network } from '../domain';
import { decodeMemo, explorerTxUrl, isoTime, LIMITS, shortTxId } from './chain-text';
import { formatCount, formatStx } from './stx-amount';
import { sanitizeUntrusted, truncate } from './untrusted-text';

export type Row = readonly [label: string, value: string];

/** Labelled rows with the values aligned. */
export function fields(rows: readonly Row[]): string {
  const width = Math.max(...rows.map(([label]) => label.length)) + 2;
  return rows.map(([label, value]) => `${`${label}:`.padEnd(width)}${value}`).join('\n');
}

export const id = (value: string) => sanitizeUntrusted(value, LIMITS.id);
export const networkName = (network: Network) => `Stacks ${network}`;
export const block = (height: number, hash: string) => `${formatCount(height)} (hash ${id(hash)})`;

/** Where an alert found in a block happened: the block, its time, the transaction, the event, the explorer link. */
export function chainRows(a: { network: Network; block_height: number; block_hash: string; block_time: number; tx_id: string; event_index?: number }): Row[] {
  return [
    ['Block', block(a.block_height, a.block_hash)],
    ['Block time', isoTime(a.block_time)],
    ['Transaction', id(a.tx_id)],
    ...(a.event_index === undefined ? [] : [['Event index', String(a.event_index)] as const]),
    ['Explorer', explorerTxUrl(a.tx_id, a.network)],
  ];
}

/** An STX amount in STX and exact micro-STX, or as received when it is no whole number. */
export function amount(microStx: string): string {
  try {
    return `${formatStx(microStx, 'exact')} (${microStx} micro-STX)`;
  } catch {
    return `${sanitizeUntrusted(microStx, 60)} micro-STX (not a whole number; shown as received)`;
  }
}

export function memo(hex: string): string {
  const decoded = decodeMemo(hex);
  if (decoded.kind === 'none') return 'none';
  if (decoded.kind === 'text') return `"${decoded.text}"`;
  return `${decoded.hex} (not printable text, shown as hex)`;
}

/** A log value, capped, with a note saying how much was cut. */
export function logValue(repr: string): string {
  const whole = sanitizeUntrusted(repr, Number.MAX_SAFE_INTEGER);
  const shown = truncate(whole, LIMITS.reprEmail);
  if (shown === whole) return shown;
  const total = Array.from(whole).length;
  return (
    `${shown}\n[cut: the first ${formatCount(LIMITS.reprEmail)} of ${formatCount(total)} characters are shown; ` +
    'the whole value is in the transaction on the explorer]'
  );
}

const SMS_MARKER = '...';

/**
 * `blk 182345`, or `tx 0x20de...f0eb` when there is no block: where a chain event is, in the few characters an
 * SMS can spare. The transaction itself is in the explorer link that ends the SMS (render/sms.ts).
 */
export function smsWhere(blockHeight: number | null, txId: string | null): string {
  if (blockHeight !== null) return `blk ${blockHeight}`;
  return txId === null ? '' : `tx ${shortTxId(txId, SMS_MARKER)}`;
}
