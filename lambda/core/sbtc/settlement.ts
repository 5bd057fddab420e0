// The settled follow-up (opt-in): a deposit minted or a withdrawal accepted, as its print lands, then "settled"
// once that print is N Bitcoin blocks deep. Both are chain alerts (alert-kinds/sbtc-settlement.ts): a reorg that
// takes the print back retracts the completion through the path every chain alert takes, and the clock starts
// again from the print on the new chain (rollbackSbtc in tracker.ts); the keys name the deposit or the request,
// not the block, so the same completion on the new chain confirms the alert already sent instead of doubling it.
import type { Completion, DepositTrack, SbtcTrackerState, WithdrawalTrack } from './tracker-state';

export type SettlementStep = 'completed' | 'settled';

export interface SbtcSettlementEvent {
  flow: 'deposit' | 'withdrawal';
  step: SettlementStep;
  key: string;
  /** The completing print's Stacks transaction. */
  stacksTxid: string;
  /** The Bitcoin height of the print's block, and the Bitcoin height now. */
  completedAtBitcoin: number;
  bitcoinHeight: number;
  /** The depth asked for (the section's `settled.blocks`). */
  settleBlocks: number;
  /** A deposit's Bitcoin transaction and output; null for a withdrawal. */
  bitcoinTxid: string | null;
  outputIndex: number | null;
  requestId: number | null;
  /** The signers' sweep (a withdrawal's is what paid its recipient). */
  sweepTxid: string | null;
  amountSats: string;
  /** A deposit's Stacks recipient; a withdrawal's Bitcoin scriptPubKey (hex). */
  recipient: string;
  /** A withdrawal's Stacks sender; null for a deposit. */
  sender: string | null;
}

/** A completion followed to settled: seen in a print while the follow-up was on. */
type Followed = Completion & { stacksTxid: string; stacksHeight: number; bitcoinHeight: number };

const followed = (c: Completion | null): c is Followed => c !== null && c.stacksHeight !== null && c.stacksTxid !== null && c.bitcoinHeight !== undefined;

function base(c: Followed, step: SettlementStep, height: number, settleBlocks: number) {
  return { step, stacksTxid: c.stacksTxid, completedAtBitcoin: c.bitcoinHeight, bitcoinHeight: height, settleBlocks, sweepTxid: c.sweepTxid };
}

export function depositSettlement(d: DepositTrack, step: SettlementStep, height: number, settleBlocks: number): SbtcSettlementEvent | null {
  if (!followed(d.minted)) return null;
  return {
    ...base(d.minted, step, height, settleBlocks),
    flow: 'deposit',
    key: `sbtc_settlement:${step}:deposit:${d.bitcoinTxid}:${d.outputIndex}`,
    bitcoinTxid: d.bitcoinTxid,
    outputIndex: d.outputIndex,
    requestId: null,
    amountSats: d.amountSats,
    recipient: d.recipient,
    sender: null,
  };
}

export function withdrawalSettlement(w: WithdrawalTrack, step: SettlementStep, height: number, settleBlocks: number): SbtcSettlementEvent | null {
  if (!followed(w.accepted)) return null;
  return {
    ...base(w.accepted, step, height, settleBlocks),
    flow: 'withdrawal',
    key: `sbtc_settlement:${step}:withdrawal:${w.requestId}`,
    bitcoinTxid: null,
    outputIndex: null,
    requestId: w.requestId,
    amountSats: w.amountSats,
    recipient: w.recipient,
    sender: w.sender,
  };
}

/** The completions `settleBlocks` deep at `height` and not yet told settled, each told once, in the Stacks block `stacksHeight`. */
export function sweepSettled(state: SbtcTrackerState, height: number, stacksHeight: number, settleBlocks: number): SbtcSettlementEvent[] {
  const out: SbtcSettlementEvent[] = [];
  const due = (c: Completion | null): c is Followed => followed(c) && c.settledAt === undefined && height - c.bitcoinHeight >= settleBlocks;
  for (const d of Object.values(state.deposits)) {
    if (!due(d.minted)) continue;
    out.push(depositSettlement(d, 'settled', height, settleBlocks)!);
    d.minted.settledAt = stacksHeight;
  }
  for (const w of Object.values(state.withdrawals)) {
    if (w.rejected || !due(w.accepted)) continue;
    out.push(withdrawalSettlement(w, 'settled', height, settleBlocks)!);
    w.accepted.settledAt = stacksHeight;
  }
  return out;
}

/** Takes back a settled alert raised in a Stacks block above `forkHeight`: the new chain raises it again, under the same key. */
export function unsettle(c: Completion | null, forkHeight: number): void {
  if (c?.settledAt !== undefined && c.settledAt > forkHeight) delete c.settledAt;
}
