// Long generated histories: a month at mainnet rates where everything completes as the signers complete it
// (zero alerts), and a mix of fates (on time, late, never, failed, replaced, rejected) where every deadline
// is told exactly once at the block it falls on.
import { describe, expect, it } from 'vitest';
import type { SbtcObservation } from '../../../lambda/core/sbtc/observations';
import { createSbtcTracker } from '../../../lambda/core/sbtc/tracker';
import { deposit, prints, runBlocks, seeded, txid, withdrawal } from './sbtc-history';

const BLOCKS_PER_DAY = 144;

/** Observations per height, built by scheduling each record's steps. */
class History {
  private readonly at = new Map<number, SbtcObservation[]>();
  add(height: number, ...observations: SbtcObservation[]): void {
    this.at.set(height, [...(this.at.get(height) ?? []), ...observations]);
  }
  /** Emily lists the record with `status` at every height in [from, to). */
  listed(from: number, to: number, observation: () => SbtcObservation): void {
    for (let h = from; h < to; h += 1) this.add(h, observation());
  }
  readonly blocks = (height: number): readonly SbtcObservation[] => this.at.get(height) ?? [];
}

/**
 * A deposit as wallets and signers make it: registered with Emily while pending (the block before it confirms,
 * or the block it confirms in), swept the block after confirmation, minted 1 to 3 blocks after confirmation.
 */
function onTimeDeposit(h: History, seed: number, registered: number, random: () => number): void {
  const confirmed = registered + (random() < 0.5 ? 1 : 0);
  const minted = confirmed + 1 + Math.floor(random() * 3);
  h.listed(registered, confirmed + 1, () => deposit(seed, 'pending', { lockTime: 144 + Math.floor(random() * 5_856) }));
  h.listed(confirmed + 1, minted + 1, () => deposit(seed, 'accepted'));
  h.add(minted, prints.minted(seed));
  h.listed(minted + 1, minted + 4, () => deposit(seed, 'confirmed'));
}

/** A withdrawal accepted as the signers accept them: at request + 7 to 9. */
function onTimeWithdrawal(h: History, id: number, requested: number, random: () => number): void {
  const accepted = requested + 7 + Math.floor(random() * 3);
  h.add(requested, prints.created(id, requested));
  h.listed(requested, accepted, () => withdrawal(id, 'pending'));
  h.add(accepted, prints.accepted(id), withdrawal(id, 'accepted'));
}

describe('sBTC lifecycle over generated histories', () => {
  it('raises no alert over 30 days at mainnet rates when every deposit and withdrawal completes as the signers complete them', () => {
    const random = seeded(7);
    const h = new History();
    const start = 870_000;
    const end = start + 30 * BLOCKS_PER_DAY;
    let deposits = 0;
    let withdrawals = 0;
    for (let height = start; height < end - 20; height += 1) {
      // About 40 deposits and 15 withdrawals a day.
      if (random() < 40 / BLOCKS_PER_DAY) onTimeDeposit(h, deposits++, height, random);
      if (random() < 15 / BLOCKS_PER_DAY) onTimeWithdrawal(h, withdrawals++, height, random);
    }
    const { told, state } = runBlocks(createSbtcTracker(), start, end, h.blocks);
    expect(deposits).toBeGreaterThan(900);
    expect(withdrawals).toBeGreaterThan(300);
    expect(told).toEqual([]);
    // Finished records are let go after a day: the state stays bounded.
    expect(Object.keys(state.deposits).length).toBeLessThan(100);
  });

  it('tells every deadline of a mix of fates exactly once, at the block it falls on', () => {
    const h = new History();
    const expected: string[] = [];
    const fates = ['on-time', 'late', 'never', 'failed', 'replaced'] as const;
    for (let i = 0; i < 50; i += 1) {
      const fate = fates[i % fates.length]!;
      const seen = 1_000 + i * 3;
      // Seen pending at `seen`: its clock starts at seen + 1; warning at seen + 4, critical at seen + 7.
      const end = fate === 'on-time' ? seen + 3 : fate === 'late' ? seen + 5 : fate === 'never' ? Infinity : seen + 9;
      h.listed(seen, Math.min(end, seen + 200), () => deposit(`m${i}`, 'pending', { lockTime: 30 }));
      if (fate === 'on-time' || fate === 'late') h.add(end, prints.minted(`m${i}`));
      if (fate === 'failed') h.add(end, deposit(`m${i}`, 'failed'));
      if (fate === 'replaced') h.add(end, deposit(`m${i}`, 'rbf', { replacedByTx: txid(`r${i}`) }));
      const id = txid(`dm${i}`);
      if (fate !== 'on-time') expected.push(`${seen + 4} deposit_late/warning ${id}`);
      if (fate === 'never' || fate === 'failed' || fate === 'replaced') expected.push(`${seen + 7} deposit_late/critical ${id}`);
      if (fate === 'failed') expected.push(`${seen + 9} deposit_failed/critical ${id}`);
      if (fate === 'replaced') expected.push(`${seen + 9} deposit_replaced/warning ${id}`);
      if (fate === 'never') expected.push(`${seen + 1 + 30 - 3} deposit_reclaimable/critical ${id}`);
    }
    for (let i = 0; i < 30; i += 1) {
      const requested = 1_000 + i * 4;
      const fate = i % 3;
      h.add(requested, prints.created(i, requested));
      if (fate === 0) h.add(requested + 8, prints.accepted(i));
      if (fate === 1) h.add(requested + 14, prints.accepted(i));
      if (fate === 2) h.add(requested + 26, prints.rejected(i));
      if (fate !== 0) expected.push(`${requested + 12} withdrawal_late/warning #${i}`);
      if (fate === 2) expected.push(`${requested + 18} withdrawal_late/critical #${i}`, `${requested + 24} withdrawal_expired/critical #${i}`);
    }
    const { told } = runBlocks(createSbtcTracker({ maxEvents: 1_000 }), 1_000, 1_400, h.blocks);
    const what = told.map((t) => `${t.height} ${t.what} ${t.event.requestId !== null ? `#${t.event.requestId}` : t.event.bitcoinTxid}`);
    expect(what.sort()).toEqual(expected.sort());
  });
});
