// Generated sBTC histories for the lifecycle tracker: deposits and withdrawals that move through Emily's
// statuses and the registry's prints block by block, and a runner that applies each Bitcoin block in turn and
// records every event with the height it came at.
import type { SbtcObservation } from '../../../lambda/core/sbtc/observations';
import type { SbtcDeposit, SbtcStatus, SbtcWithdrawal } from '../../../lambda/core/sbtc/records';
import type { SbtcTracker } from '../../../lambda/core/sbtc/tracker';
import type { SbtcLifecycleEvent } from '../../../lambda/core/sbtc/lifecycle-events';
import type { SbtcTrackerState } from '../../../lambda/core/sbtc/tracker-state';

export const RECIPIENT = 'SP3FBR2AGK5H9QBDH3EEN6DF8EK8JY7RX8QJ5SVTE';
export const SENDER = 'SP2J6ZY48GV1EZ5V2V5RB9MP66SW86PYKKNRV9EJ7';
export const OLD_KEY = 'ab'.repeat(32);
export const NEW_KEY = 'cd'.repeat(32);

export function txid(seed: string | number): string {
  let state = 2166136261;
  for (const ch of String(seed)) state = Math.imul(state ^ ch.charCodeAt(0), 16777619) >>> 0;
  let out = '';
  while (out.length < 64) {
    state = Math.imul(state ^ (state >>> 13), 1274126177) >>> 0;
    out += state.toString(16).padStart(8, '0');
  }
  return out.slice(0, 64);
}

export function deposit(seed: string | number, status: SbtcStatus, fields: Partial<SbtcDeposit> = {}): { source: 'emily'; deposit: SbtcDeposit } {
  return {
    source: 'emily',
    deposit: {
      bitcoinTxid: txid(`d${seed}`),
      outputIndex: 0,
      recipient: RECIPIENT,
      amountSats: 50_000_000n,
      status,
      statusMessage: null,
      lockTime: 144,
      maxFeeSats: 80_000n,
      signersKey: OLD_KEY,
      fulfillment: null,
      replacedByTx: null,
      lastUpdateHeight: 1,
      ...fields,
    },
  };
}

export function withdrawal(requestId: number, status: SbtcStatus, fields: Partial<SbtcWithdrawal> = {}): { source: 'emily'; withdrawal: SbtcWithdrawal } {
  return {
    source: 'emily',
    withdrawal: {
      requestId,
      stacksTxid: `0x${txid(`w${requestId}`)}`,
      stacksBlockHeight: 1,
      sender: SENDER,
      recipientScript: `0014${'cd'.repeat(20)}`,
      amountSats: 25_000_000n,
      status,
      statusMessage: null,
      maxFeeSats: 40_000n,
      fulfillment: null,
      lastUpdateHeight: 1,
      ...fields,
    },
  };
}

let stacksHeight = 10_000;
const chain = (print: Extract<SbtcObservation, { source: 'chain' }>['print'], height?: number): SbtcObservation => ({
  source: 'chain',
  print,
  stacksHeight: height ?? ++stacksHeight,
  stacksTxid: `0x${txid(`s${stacksHeight}`)}`,
});

export const prints = {
  minted: (seed: string | number, stacksAt?: number) =>
    chain(
      { topic: 'completed-deposit', bitcoinTxid: txid(`d${seed}`), outputIndex: 0, amountSats: 50_000_000n, sweepTxid: txid(`sweep${seed}`), burnHeight: 0 },
      stacksAt,
    ),
  created: (requestId: number, bitcoinHeight: number, stacksAt?: number) =>
    chain(
      {
        topic: 'withdrawal-create',
        requestId,
        amountSats: 25_000_000n,
        sender: SENDER,
        recipient: `00${'cd'.repeat(20)}`,
        blockHeight: bitcoinHeight,
        maxFeeSats: 40_000n,
      },
      stacksAt,
    ),
  accepted: (requestId: number, stacksAt?: number) =>
    chain(
      {
        topic: 'withdrawal-accept',
        requestId,
        bitcoinTxid: txid(`wsweep${requestId}`),
        outputIndex: 1,
        feeSats: 3_000n,
        burnHeight: 0,
        sweepTxid: txid(`wsweep${requestId}`),
      },
      stacksAt,
    ),
  rejected: (requestId: number, stacksAt?: number) => chain({ topic: 'withdrawal-reject', requestId }, stacksAt),
  rotated: (stacksAt?: number) =>
    chain({ topic: 'key-rotation', newAddress: 'SM3VDXK3WZZSA84XXFKAFAF15NNZX32CTSG82JFQ4', newAggregatePubkey: `02${NEW_KEY}` }, stacksAt),
};

export interface Told {
  height: number;
  /** `situation/severity`, e.g. `deposit_late/warning`. */
  what: string;
  event: SbtcLifecycleEvent;
}

/** Applies every height from `from` to `to` with that height's observations; returns what was told, by height. */
export function runBlocks(
  tracker: SbtcTracker,
  from: number,
  to: number,
  at: (height: number) => readonly SbtcObservation[],
  start: SbtcTrackerState = tracker.initial(),
): { told: Told[]; state: SbtcTrackerState } {
  let state = start;
  const told: Told[] = [];
  for (let height = from; height <= to; height += 1) {
    const result = tracker.apply(state, at(height), height);
    state = result.state;
    for (const event of result.events) told.push({ height, what: `${event.situation}/${event.severity}`, event });
  }
  return { told, state };
}

/** A small seeded generator, so a generated history is the same on every run. */
export function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}
