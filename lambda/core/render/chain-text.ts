// How chain values read in an alert: shortened ids, memos as text, times in UTC, explorer links.
import type { Network } from '../domain';
import { sanitizeUntrusted } from './untrusted-text';

/** Caps on chain values in an alert; generous for real values, tight enough to stop a flood. */
export const LIMITS = { id: 200, topic: 100, status: 60, memo: 100, summary: 600, reprEmail: 2_000 } as const;

/** `SP2C2YFP…YZR`-style shortening of a long id, keeping its head and tail. */
export function abbreviate(id: string, head: number, tail: number, marker: string): string {
  const clean = sanitizeUntrusted(id, LIMITS.id);
  const chars = Array.from(clean);
  if (chars.length <= head + tail + marker.length) return clean;
  return `${chars.slice(0, head).join('')}${marker}${chars.slice(chars.length - tail).join('')}`;
}

/** A principal for a short line: the address part shortened, a contract name kept (`SP2C…YZR.arkadiko-token`). */
export function shortPrincipal(principal: string, marker: string): string {
  const dot = principal.indexOf('.');
  if (dot < 0) return abbreviate(principal, 4, 3, marker);
  return `${abbreviate(principal.slice(0, dot), 4, 3, marker)}.${contractName(principal)}`;
}

export function shortTxId(txId: string, marker: string): string {
  return abbreviate(txId, 6, 4, marker);
}

/** The name part of a contract id, or the whole id when it has none. */
export function contractName(contractId: string): string {
  const dot = contractId.indexOf('.');
  return sanitizeUntrusted(dot < 0 ? contractId : contractId.slice(dot + 1), 40);
}

export function explorerTxUrl(txId: string, network: Network): string {
  return `https://explorer.hiro.so/txid/${encodeURIComponent(txId)}?chain=${network}`;
}

export function explorerBlockUrl(blockHash: string, network: Network): string {
  return `https://explorer.hiro.so/block/${encodeURIComponent(blockHash)}?chain=${network}`;
}

/** Unix seconds as ISO 8601 UTC without milliseconds, or "unknown" when it is no time. */
export function isoTime(unixSeconds: number): string {
  const date = new Date(unixSeconds * 1000);
  return Number.isFinite(date.getTime()) ? date.toISOString().replace(/\.\d{3}Z$/, 'Z') : 'unknown';
}

export type Memo = { kind: 'none' } | { kind: 'text'; text: string } | { kind: 'hex'; hex: string };

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });
const UNPRINTABLE = /[\p{Cc}\p{Cf}]/u;

/**
 * A transfer memo (34 bytes, zero-padded on the right) as text when it is printable UTF-8, else as the
 * hex of its meaningful bytes.
 */
export function decodeMemo(memoHex: string): Memo {
  const digits = memoHex.replace(/^0x/i, '');
  if (!/^([0-9a-fA-F]{2})*$/.test(digits)) return { kind: 'hex', hex: sanitizeUntrusted(memoHex, LIMITS.memo) };
  const bytes = Uint8Array.from(digits.match(/../g) ?? [], (pair) => Number.parseInt(pair, 16));
  let end = bytes.length;
  while (end > 0 && bytes[end - 1] === 0) end -= 1;
  if (end === 0) return { kind: 'none' };
  const meaningful = bytes.subarray(0, end);
  const hex = `0x${digits.slice(0, end * 2).toLowerCase()}`;
  let text: string;
  try {
    text = STRICT_UTF8.decode(meaningful);
  } catch {
    return { kind: 'hex', hex };
  }
  return UNPRINTABLE.test(text) || text.trim() === '' ? { kind: 'hex', hex } : { kind: 'text', text: sanitizeUntrusted(text, LIMITS.memo) };
}
