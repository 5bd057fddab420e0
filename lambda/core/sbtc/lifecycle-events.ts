// What the tracker tells: one event per situation per deposit or withdrawal, keyed so it goes out once.
import type { Severity } from '../stages/rule-meta';
import type { DepositTrack, WithdrawalTrack } from './tracker-state';

export const SBTC_SITUATIONS = {
  deposit_late: 'deposit not minted in time',
  deposit_reclaimable: 'deposit will no longer be swept',
  deposit_failed: 'deposit failed',
  deposit_replaced: 'deposit replaced',
  deposit_old_key: 'deposit sent to the old signers key',
  withdrawal_late: 'withdrawal not accepted in time',
  withdrawal_expired: 'withdrawal expired',
  withdrawal_rejected: 'withdrawal rejected',
  key_rotation: 'signers key rotated',
  throttle_on: 'sBTC throttle mode on',
  throttle_off: 'sBTC throttle mode off',
  summary: 'more sBTC alerts',
} as const;
export type SbtcSituation = keyof typeof SBTC_SITUATIONS;

export interface SbtcLifecycleEvent {
  situation: SbtcSituation;
  severity: Severity;
  /** The de-duplication key: the situation, the level and the record. */
  key: string;
  /** The Bitcoin height it was raised at. */
  bitcoinHeight: number;
  /** The Bitcoin height the deadline fell at, and how far past it this is; null for events that are not deadlines. */
  dueHeight: number | null;
  blocksLate: number | null;
  /** Blocks since the deposit was seen confirmed or the withdrawal requested. */
  blocksWaited: number | null;
  bitcoinTxid: string | null;
  outputIndex: number | null;
  requestId: number | null;
  stacksTxid: string | null;
  amountSats: string | null;
  /** A deposit's Stacks recipient; a withdrawal's Bitcoin scriptPubKey (hex). */
  recipient: string | null;
  sender: string | null;
  /** The replacing txid, the new signers address, the throttle's initiator, the number summarised. */
  detail: string | null;
}

const blank = {
  dueHeight: null,
  blocksLate: null,
  blocksWaited: null,
  bitcoinTxid: null,
  outputIndex: null,
  requestId: null,
  stacksTxid: null,
  amountSats: null,
  recipient: null,
  sender: null,
  detail: null,
};

export function depositEvent(
  d: DepositTrack,
  situation: SbtcSituation,
  severity: Severity,
  height: number,
  due: { at: number; level: string } | null,
  detail: string | null = null,
): SbtcLifecycleEvent {
  return {
    ...blank,
    situation,
    severity,
    key: `sbtc:${situation}${due ? `:${due.level}` : ''}:${d.bitcoinTxid}:${d.outputIndex}`,
    bitcoinHeight: height,
    dueHeight: due?.at ?? null,
    blocksLate: due ? height - due.at : null,
    blocksWaited: height - d.clockFrom,
    bitcoinTxid: d.bitcoinTxid,
    outputIndex: d.outputIndex,
    stacksTxid: d.minted?.stacksTxid ?? null,
    amountSats: d.amountSats,
    recipient: d.recipient,
    detail,
  };
}

export function withdrawalEvent(
  w: WithdrawalTrack,
  situation: SbtcSituation,
  severity: Severity,
  height: number,
  due: { at: number; level: string } | null,
): SbtcLifecycleEvent {
  return {
    ...blank,
    situation,
    severity,
    key: `sbtc:${situation}${due ? `:${due.level}` : ''}:${w.requestId}`,
    bitcoinHeight: height,
    dueHeight: due?.at ?? null,
    blocksLate: due ? height - due.at : null,
    blocksWaited: height - w.requestedAt,
    bitcoinTxid: w.accepted?.sweepTxid ?? null,
    requestId: w.requestId,
    stacksTxid: w.rejected?.stacksTxid ?? w.stacksTxid,
    amountSats: w.amountSats,
    recipient: w.recipient,
    sender: w.sender,
  };
}

export function chainEvent(situation: SbtcSituation, severity: Severity, key: string, height: number, fields: Partial<SbtcLifecycleEvent>): SbtcLifecycleEvent {
  return { ...blank, situation, severity, key, bitcoinHeight: height, ...fields };
}
