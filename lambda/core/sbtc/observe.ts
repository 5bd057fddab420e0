// Folds what Emily and the registry's prints say into the tracker's records. Changes that are news in
// themselves (a failed or replaced deposit, a rejection, a key rotation, the throttle) are returned as events
// here; deadlines are the sweep's (due.ts). Only changes to records already followed alert: a record first
// seen finished (a fresh install, a pruned one listed again) is not news.
import { chainEvent, depositEvent, withdrawalEvent, type SbtcLifecycleEvent } from './lifecycle-events';
import type { RegistryPrint, SbtcObservation } from './observations';
import type { SbtcDeposit, SbtcLimits, SbtcWithdrawal } from './records';
import { depositSettlement, withdrawalSettlement, type SbtcSettlementEvent } from './settlement';
import { depositId, MAX_TRACKED, trackedCount, type DepositTrack, type SbtcTrackerState, type WithdrawalTrack } from './tracker-state';

/**
 * Emily has no confirmation height for a deposit, and a wallet may register one before it confirms: a deposit
 * first seen `pending` is taken as confirmed one block later; one first seen `accepted` (the signers act only on
 * confirmed deposits) as confirmed now. The clock is never early, so never a false alarm for a slow confirmation.
 */
const CONFIRMATION_ALLOWANCE = 1;

const OPEN = new Set(['pending', 'reprocessing', 'accepted']);

export interface ObserveContext {
  state: SbtcTrackerState;
  height: number;
  /** Whose deposits (by recipient) and withdrawals (by sender) are followed; null for everyone's. */
  scope: { recipients: ReadonlySet<string> | null; senders: ReadonlySet<string> | null };
  events: SbtcLifecycleEvent[];
  /** The settled follow-up's depth, null when it is off; its completions go to `settlements`. */
  settleBlocks: number | null;
  settlements: SbtcSettlementEvent[];
}

export function observe(ctx: ObserveContext, observation: SbtcObservation): void {
  if (observation.source === 'chain') return observePrint(ctx, observation);
  if ('deposit' in observation) return observeDeposit(ctx, observation.deposit);
  if ('withdrawal' in observation) return observeWithdrawal(ctx, observation.withdrawal);
  observeLimits(ctx, observation.limits);
}

const inScope = (among: ReadonlySet<string> | null, principal: string): boolean => among === null || among.has(principal);

function roomFor(ctx: ObserveContext): boolean {
  if (trackedCount(ctx.state) < MAX_TRACKED) return true;
  ctx.state.untracked += 1;
  return false;
}

function observeDeposit(ctx: ObserveContext, deposit: SbtcDeposit): void {
  const { state, height } = ctx;
  const id = depositId(deposit.bitcoinTxid, deposit.outputIndex);
  let track = state.deposits[id];
  if (!track) {
    if (!OPEN.has(deposit.status) || !inScope(ctx.scope.recipients, deposit.recipient) || !roomFor(ctx)) return;
    track = {
      bitcoinTxid: deposit.bitcoinTxid,
      outputIndex: deposit.outputIndex,
      recipient: deposit.recipient,
      amountSats: deposit.amountSats.toString(),
      clockFrom: deposit.status === 'pending' ? height + CONFIRMATION_ALLOWANCE : height,
      lockTime: deposit.lockTime,
      signersKey: deposit.signersKey,
      status: deposit.status,
      replacedBy: null,
      minted: null,
      sent: [],
      endedAt: null,
    };
    state.deposits[id] = track;
    checkSignersKey(ctx, id);
  }
  if (track.endedAt !== null && track.minted) return;
  // Accepted means confirmed on Bitcoin: a clock still waiting on its allowance starts now.
  if (deposit.status === 'accepted') track.clockFrom = Math.min(track.clockFrom, height);
  track.status = deposit.status;
  if (deposit.status === 'confirmed') {
    const f = deposit.fulfillment;
    track.minted ??= { stacksTxid: f?.stacksTxid ?? null, stacksHeight: null, sweepTxid: f?.bitcoinTxid ?? null };
    track.endedAt ??= height;
  } else if ((deposit.status === 'failed' || deposit.status === 'rbf') && track.endedAt === null && !track.minted) {
    track.endedAt = height;
    track.replacedBy = deposit.replacedByTx;
    const situation = deposit.status === 'failed' ? 'deposit_failed' : 'deposit_replaced';
    ctx.events.push(
      depositEvent(track, situation, deposit.status === 'failed' ? 'critical' : 'warning', height, null, deposit.replacedByTx ?? deposit.statusMessage),
    );
    track.sent.push(situation);
  }
}

/** A deposit first seen after a key rotation, locked to another key than the rotation's: the signers will not sweep it. */
function checkSignersKey(ctx: ObserveContext, id: string): void {
  const track = ctx.state.deposits[id]!;
  const rotation = ctx.state.rotations.at(-1);
  if (!rotation || !track.signersKey || track.signersKey === rotation.signersKey || ctx.height <= rotation.bitcoinHeight) return;
  ctx.events.push(depositEvent(track, 'deposit_old_key', 'critical', ctx.height, null, rotation.address));
  track.sent.push('deposit_old_key');
}

function observeWithdrawal(ctx: ObserveContext, w: SbtcWithdrawal): void {
  const key = String(w.requestId);
  let track = ctx.state.withdrawals[key];
  if (!track) {
    if (!OPEN.has(w.status) || !inScope(ctx.scope.senders, w.sender) || !roomFor(ctx)) return;
    track = newWithdrawal(w.requestId, w.sender, w.recipientScript, w.amountSats, w.stacksTxid, ctx.height, null);
    ctx.state.withdrawals[key] = track;
  }
  track.fromEmily = true;
  if ((w.status === 'accepted' || w.status === 'confirmed') && !track.accepted) {
    track.accepted = { stacksTxid: w.fulfillment?.stacksTxid ?? null, stacksHeight: null, sweepTxid: w.fulfillment?.bitcoinTxid ?? null };
    track.endedAt ??= ctx.height;
  }
  if (w.status === 'failed' && !track.rejected && !track.accepted) reject(ctx, track, { stacksTxid: null, stacksHeight: null, sweepTxid: null });
}

function newWithdrawal(
  requestId: number,
  sender: string,
  recipient: string,
  amount: bigint,
  stacksTxid: string | null,
  requestedAt: number,
  createdAtStacks: number | null,
): WithdrawalTrack {
  return {
    requestId,
    sender,
    recipient,
    amountSats: amount.toString(),
    stacksTxid,
    requestedAt,
    createdAtStacks,
    fromEmily: false,
    accepted: null,
    rejected: null,
    sent: [],
    endedAt: null,
  };
}

function reject(ctx: ObserveContext, track: WithdrawalTrack, how: NonNullable<WithdrawalTrack['rejected']>): void {
  track.rejected = how;
  track.endedAt ??= ctx.height;
  // An expiry already told is what the rejection carries out: not told twice.
  if (track.sent.some((s) => s.startsWith('withdrawal_expired') || s === 'withdrawal_rejected')) return;
  ctx.events.push(withdrawalEvent(track, 'withdrawal_rejected', 'critical', ctx.height, null));
  track.sent.push('withdrawal_rejected');
}

type ChainObservation = Extract<SbtcObservation, { source: 'chain' }>;

function observePrint(ctx: ObserveContext, observation: ChainObservation): void {
  const { state } = ctx;
  const { print, stacksHeight, stacksTxid } = observation;
  // With the settled follow-up on, the completion is where its depth counts from (settlement.ts).
  const completion = (sweepTxid: string) => ({ stacksTxid, stacksHeight, sweepTxid, ...(ctx.settleBlocks === null ? {} : { bitcoinHeight: ctx.height }) });
  switch (print.topic) {
    case 'completed-deposit': {
      const track = state.deposits[depositId(print.bitcoinTxid, print.outputIndex)] ?? depositFromPrint(ctx, observation);
      if (!track) return;
      track.minted = completion(print.sweepTxid);
      track.endedAt = ctx.height;
      settlementOf(ctx, depositSettlement(track, 'completed', ctx.height, ctx.settleBlocks ?? 0));
      return;
    }
    case 'withdrawal-create': {
      const key = String(print.requestId);
      const known = state.withdrawals[key];
      if (known) {
        known.requestedAt = Math.min(known.requestedAt, print.blockHeight);
        known.createdAtStacks = stacksHeight;
        known.stacksTxid = stacksTxid;
      } else if (inScope(ctx.scope.senders, print.sender) && roomFor(ctx)) {
        state.withdrawals[key] = newWithdrawal(print.requestId, print.sender, print.recipient, print.amountSats, stacksTxid, print.blockHeight, stacksHeight);
      }
      return;
    }
    case 'withdrawal-accept': {
      const track = state.withdrawals[String(print.requestId)];
      if (!track) return;
      track.accepted = completion(print.sweepTxid);
      track.endedAt = ctx.height;
      settlementOf(ctx, withdrawalSettlement(track, 'completed', ctx.height, ctx.settleBlocks ?? 0));
      return;
    }
    case 'withdrawal-reject': {
      const track = state.withdrawals[String(print.requestId)];
      if (track && !track.accepted) reject(ctx, track, { stacksTxid, stacksHeight, sweepTxid: null });
      return;
    }
    case 'key-rotation': {
      if (state.rotations.some((r) => r.stacksTxid === stacksTxid)) return;
      const signersKey = print.newAggregatePubkey.replace(/^0x/, '').slice(-64).toLowerCase();
      state.rotations = [...state.rotations, { stacksTxid, stacksHeight, address: print.newAddress, signersKey, bitcoinHeight: ctx.height }].slice(-8);
      ctx.events.push(chainEvent('key_rotation', 'warning', `sbtc:key_rotation:${stacksTxid}`, ctx.height, { stacksTxid, detail: print.newAddress }));
      return;
    }
  }
}

const settlementOf = (ctx: ObserveContext, event: SbtcSettlementEvent | null): void => void (ctx.settleBlocks !== null && event && ctx.settlements.push(event));

/**
 * A deposit Emily has not told of, minted now: followed from its print for the settled alert alone (its recipient
 * from the mint beside the print, '' when that was not read), with the follow-up on and the recipient in scope.
 * Nothing else is told of it.
 */
function depositFromPrint(ctx: ObserveContext, { print, mintedTo }: ChainObservation): DepositTrack | null {
  if (print.topic !== 'completed-deposit' || ctx.settleBlocks === null) return null;
  // Whose it is matters only to a scoped watch; read per subject without one, the mint beside the print is not read.
  if (ctx.scope.recipients !== null && (mintedTo === undefined || !ctx.scope.recipients.has(mintedTo))) return null;
  if (!roomFor(ctx)) return null;
  const track: DepositTrack = {
    bitcoinTxid: print.bitcoinTxid,
    outputIndex: print.outputIndex,
    recipient: mintedTo ?? '',
    amountSats: print.amountSats.toString(),
    clockFrom: ctx.height,
    lockTime: null,
    signersKey: null,
    status: 'confirmed',
    replacedBy: null,
    minted: null,
    sent: [],
    endedAt: ctx.height,
    fromPrint: true,
  };
  ctx.state.deposits[depositId(print.bitcoinTxid, print.outputIndex)] = track;
  return track;
}

function observeLimits(ctx: ObserveContext, limits: SbtcLimits): void {
  const before = ctx.state.throttle;
  const now = limits.throttleModeInitiator;
  if (before === now) return;
  ctx.state.throttle = now;
  if (before !== null && now !== null) return;
  const situation = now === null ? 'throttle_off' : 'throttle_on';
  ctx.events.push(chainEvent(situation, now === null ? 'info' : 'warning', `sbtc:${situation}:${ctx.height}`, ctx.height, { detail: now ?? before }));
}
