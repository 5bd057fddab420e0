// The sBTC lifecycle tracker over generated histories: each deadline told exactly once at the Bitcoin block it
// falls on, none for deposits and withdrawals on time, and what a reorg takes back.
import { describe, expect, it } from 'vitest';
import { DEFAULT_DEADLINES } from '../../../lambda/core/sbtc/deadlines';
import type { SbtcObservation } from '../../../lambda/core/sbtc/observations';
import { createSbtcTracker } from '../../../lambda/core/sbtc/tracker';
import { checkSbtcState, MAX_TRACKED } from '../../../lambda/core/sbtc/tracker-state';
import { deposit, NEW_KEY, OLD_KEY, prints, RECIPIENT, runBlocks, SENDER, txid, withdrawal } from './sbtc-history';

type Script = Record<number, SbtcObservation[]>;
const script = (s: Script) => (height: number) => s[height] ?? [];
const brief = (told: { height: number; what: string }[]) => told.map(({ height, what }) => `${height} ${what}`);

describe('sBTC deadlines: the defaults', () => {
  it('come from the signers constants: 3 and 6 for a mint, 12, 18 and 24 for a withdrawal, 3 before the reclaim lock', () => {
    expect(DEFAULT_DEADLINES).toEqual({
      depositWarning: 3,
      depositCritical: 6,
      reclaimBuffer: 3,
      withdrawalWarning: 12,
      withdrawalCritical: 18,
      withdrawalExpiry: 24,
    });
  });

  it('refuse deadlines out of order, naming them', () => {
    expect(() => createSbtcTracker({ deadlines: { depositCritical: 2 } })).toThrow(/depositCritical must be after depositWarning/);
  });
});

describe('sBTC lifecycle: deposits', () => {
  it('tells nothing for a deposit minted on time', () => {
    const { told } = runBlocks(createSbtcTracker(), 100, 300, script({ 100: [deposit(1, 'pending')], 101: [deposit(1, 'accepted')], 103: [prints.minted(1)] }));
    expect(told).toEqual([]);
  });

  it('tells a late deposit once at its warning block and once at its critical block, then nothing once minted', () => {
    // First seen pending at 100: taken as confirmed at 101, so 3 blocks late is 104 and 6 is 107.
    const pending = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [100 + i, [deposit(1, 'pending')]]));
    const { told } = runBlocks(createSbtcTracker(), 100, 400, script({ ...pending, 108: [prints.minted(1)] }));
    expect(brief(told)).toEqual(['104 deposit_late/warning', '107 deposit_late/critical']);
    expect(told[1]!.event).toMatchObject({
      dueHeight: 107,
      blocksLate: 0,
      blocksWaited: 6,
      bitcoinTxid: txid('d1'),
      recipient: RECIPIENT,
      amountSats: '50000000',
    });
  });

  it('counts from the block a deposit is first seen accepted, without the allowance for a confirmation', () => {
    const { told } = runBlocks(createSbtcTracker(), 100, 110, script({ 100: [deposit(1, 'accepted')] }));
    expect(brief(told)).toEqual(['103 deposit_late/warning', '106 deposit_late/critical']);
  });

  it('tells a deposit never minted that it will no longer be swept, 3 blocks before its reclaim lock', () => {
    const { told } = runBlocks(createSbtcTracker(), 100, 500, script({ 100: [deposit(1, 'pending', { lockTime: 20 })] }));
    expect(brief(told)).toEqual(['104 deposit_late/warning', '107 deposit_late/critical', '118 deposit_reclaimable/critical']);
  });

  it('tells a failed deposit once, when Emily first says so, and no deadline after', () => {
    const failed = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [102 + i, [deposit(1, 'failed')]]));
    const { told } = runBlocks(createSbtcTracker(), 100, 200, script({ 100: [deposit(1, 'pending')], ...failed }));
    expect(brief(told)).toEqual(['102 deposit_failed/critical']);
  });

  it('tells a replaced deposit with the transaction that replaced it, and follows the replacement on its own', () => {
    const replacement = txid('d2');
    const { told } = runBlocks(
      createSbtcTracker(),
      100,
      200,
      script({ 100: [deposit(1, 'pending')], 101: [deposit(1, 'rbf', { replacedByTx: replacement }), deposit(2, 'pending')], 103: [prints.minted(2)] }),
    );
    expect(brief(told)).toEqual(['101 deposit_replaced/warning']);
    expect(told[0]!.event.detail).toBe(replacement);
  });

  it('says nothing of a deposit first seen already finished', () => {
    const { told } = runBlocks(createSbtcTracker(), 100, 120, script({ 100: [deposit(1, 'failed'), deposit(2, 'confirmed'), deposit(3, 'rbf')] }));
    expect(told).toEqual([]);
  });

  it('follows only the principals it is given', () => {
    const other = deposit(9, 'pending', { recipient: 'SP2J6ZY48GV1EZ5V2V5RB9MP66SW86PYKKNRV9EJ7' });
    const { told } = runBlocks(createSbtcTracker({ principals: [RECIPIENT] }), 100, 120, script({ 100: [other, deposit(1, 'pending')] }));
    expect(told.map((t) => t.event.bitcoinTxid)).toEqual([txid('d1'), txid('d1')]);
  });

  it('follows the deposits of the recipients named and the withdrawals of the senders named, and no other', () => {
    const other = 'SP2C2YFP12AJZB4MABJBAJ55XECVS7E4PMMZ89YZR';
    const observations = [
      deposit(1, 'pending'),
      deposit(2, 'pending', { recipient: other }),
      prints.created(1, 100),
      withdrawal(2, 'pending', { sender: other }),
    ];
    const run = (config: Parameters<typeof createSbtcTracker>[0]) =>
      runBlocks(createSbtcTracker(config), 100, 113, script({ 100: observations })).told.map((t) => `${t.event.bitcoinTxid ?? t.event.requestId} ${t.what}`);
    const mine = [`${txid('d1')} deposit_late/warning`, `${txid('d1')} deposit_late/critical`, '1 withdrawal_late/warning'];
    expect(run({ recipients: [RECIPIENT], senders: [SENDER] })).toEqual(mine);
    // A wallet that names only recipients follows no withdrawal.
    expect(run({ recipients: [RECIPIENT] })).toEqual(mine.slice(0, 2));
    expect(run({})).toHaveLength(6);
  });
});

describe('sBTC lifecycle: withdrawals', () => {
  it('tells nothing for a withdrawal accepted at request + 8', () => {
    const { told } = runBlocks(createSbtcTracker(), 200, 400, script({ 200: [prints.created(1, 200)], 208: [prints.accepted(1)] }));
    expect(told).toEqual([]);
  });

  it('tells a withdrawal accepted at request + 15 once, at + 12', () => {
    const { told } = runBlocks(createSbtcTracker(), 200, 400, script({ 200: [prints.created(1, 200)], 215: [prints.accepted(1)] }));
    expect(brief(told)).toEqual(['212 withdrawal_late/warning']);
  });

  it('tells a withdrawal never accepted at + 12, + 18 and + 24, and not again when the rejection lands', () => {
    const { told } = runBlocks(createSbtcTracker(), 200, 400, script({ 200: [prints.created(1, 200)], 225: [prints.rejected(1)] }));
    expect(brief(told)).toEqual(['212 withdrawal_late/warning', '218 withdrawal_late/critical', '224 withdrawal_expired/critical']);
  });

  it('tells a rejection before expiry once, with the rejecting transaction, and no deadline after', () => {
    const reject = prints.rejected(1);
    const { told } = runBlocks(createSbtcTracker(), 200, 300, script({ 200: [prints.created(1, 200)], 205: [reject, withdrawal(1, 'failed')] }));
    expect(brief(told)).toEqual(['205 withdrawal_rejected/critical']);
    expect(told[0]!.event.stacksTxid).toBe((reject as { stacksTxid: string }).stacksTxid);
  });

  it('counts from the request height the print gives, not from when the tracker first saw it', () => {
    const { told } = runBlocks(createSbtcTracker(), 210, 230, script({ 210: [prints.created(1, 200)] }));
    expect(brief(told)).toEqual(['212 withdrawal_late/warning', '218 withdrawal_late/critical', '224 withdrawal_expired/critical']);
  });

  it('tells only the most severe deadline when a run jumps past several', () => {
    const tracker = createSbtcTracker();
    const first = tracker.apply(tracker.initial(), [prints.created(1, 200)], 200);
    const jumped = tracker.apply(first.state, [], 230);
    expect(jumped.events.map((e) => `${e.situation}/${e.severity}`)).toEqual(['withdrawal_expired/critical']);
    expect(tracker.apply(jumped.state, [], 231).events).toEqual([]);
  });

  it('treats Emily saying accepted as accepted', () => {
    const { told } = runBlocks(createSbtcTracker(), 200, 300, script({ 200: [withdrawal(1, 'pending')], 207: [withdrawal(1, 'accepted')] }));
    expect(told).toEqual([]);
  });
});

describe('sBTC lifecycle: reorgs, keys, throttle, state', () => {
  it('a reorg that takes back a mint reopens the deposit, and its deadline is then told once', () => {
    const tracker = createSbtcTracker();
    const minted = runBlocks(tracker, 100, 103, script({ 100: [deposit(1, 'pending')], 103: [prints.minted(1, 5_000)] }));
    const rolled = tracker.rollback(minted.state, 4_999);
    const after = runBlocks(tracker, 104, 120, script({ 109: [prints.minted(1, 5_003)] }), rolled);
    expect(brief(after.told)).toEqual(['104 deposit_late/warning', '107 deposit_late/critical']);
  });

  it('a reorg below the fork keeps the mint', () => {
    const tracker = createSbtcTracker();
    const minted = runBlocks(tracker, 100, 103, script({ 100: [deposit(1, 'pending')], 103: [prints.minted(1, 5_000)] }));
    const after = runBlocks(tracker, 104, 120, () => [], tracker.rollback(minted.state, 5_000));
    expect(after.told).toEqual([]);
  });

  it('a reorg that takes back a withdrawal request known only from its print forgets it', () => {
    const tracker = createSbtcTracker();
    const created = runBlocks(tracker, 200, 201, script({ 200: [prints.created(1, 200, 7_000)] }));
    const after = runBlocks(tracker, 202, 240, () => [], tracker.rollback(created.state, 6_999));
    expect(after.told).toEqual([]);
  });

  it('tells a key rotation once, then a deposit still locked to the old key', () => {
    const rotation = prints.rotated();
    const { told } = runBlocks(
      createSbtcTracker(),
      100,
      110,
      script({
        100: [rotation],
        101: [rotation],
        102: [deposit(1, 'accepted', { signersKey: OLD_KEY }), deposit(2, 'accepted', { signersKey: NEW_KEY })],
        104: [prints.minted(2)],
      }),
    );
    expect(brief(told)).toEqual(['100 key_rotation/warning', '102 deposit_old_key/critical']);
    expect(told[1]!.event.bitcoinTxid).toBe(txid('d1'));
  });

  it('tells the throttle switched on once and switched off once', () => {
    const limits = (initiator: string | null): SbtcObservation => ({
      source: 'emily',
      limits: {
        pegCapSats: null,
        perDepositMinimumSats: null,
        perDepositCapSats: null,
        perWithdrawalCapSats: null,
        rollingWithdrawalBlocks: null,
        rollingWithdrawalCapSats: null,
        availableToWithdrawSats: null,
        throttleModeInitiator: initiator,
      },
    });
    const on = limits('SP000000000000000000002Q6VF78');
    const { told } = runBlocks(createSbtcTracker(), 100, 110, script({ 100: [limits(null)], 101: [on], 102: [on], 105: [limits(null)], 106: [limits(null)] }));
    expect(brief(told)).toEqual(['101 throttle_on/warning', '105 throttle_off/info']);
  });

  it('past the per-run cap, tells the rest as one summary', () => {
    const many = Array.from({ length: 30 }, (_, i) => deposit(i, 'accepted'));
    const { told } = runBlocks(createSbtcTracker({ maxEvents: 5 }), 100, 103, script({ 100: many }));
    expect(told.map((t) => t.event.situation)).toEqual(['deposit_late', 'deposit_late', 'deposit_late', 'deposit_late', 'summary']);
    expect(told[4]!.event.detail).toBe('26');
  });

  it('keeps its state as plain JSON with a version, and refuses another version', () => {
    const { state } = runBlocks(createSbtcTracker(), 100, 105, script({ 100: [deposit(1, 'pending'), prints.created(3, 100)] }));
    const stored = JSON.parse(JSON.stringify(state));
    expect(stored).toEqual(state);
    expect(checkSbtcState(stored)).toEqual(state);
    expect(() => checkSbtcState({ ...stored, version: 2 })).toThrow(/version 2/);
  });

  it('does not change the state it is given', () => {
    const tracker = createSbtcTracker();
    const start = tracker.initial();
    const frozen = JSON.stringify(start);
    tracker.apply(start, [deposit(1, 'pending')], 100);
    expect(JSON.stringify(start)).toBe(frozen);
  });
});

describe('sBTC lifecycle: the state kept in a record of its own', () => {
  it('stays within a fraction of a DynamoDB item at its ceiling of records followed, counting the rest as untracked', () => {
    const tracker = createSbtcTracker();
    const created = Array.from({ length: MAX_TRACKED + 5 }, (_, i) => prints.created(i + 1, 200));
    const { state } = tracker.apply(tracker.initial(), created, 200);
    expect(Object.keys(state.withdrawals)).toHaveLength(MAX_TRACKED);
    expect(state.untracked).toBe(5);
    // One DynamoDB item of its own holds this: well under its 400 KB.
    expect(Buffer.byteLength(JSON.stringify(state))).toBeLessThan(200_000);
  });
});

describe('sBTC lifecycle: the settled follow-up and a state stored before it', () => {
  it('follows a completion to settled only when it was seen with the follow-up on, so turning it on tells nothing of older ones', () => {
    const before = runBlocks(createSbtcTracker(), 100, 101, script({ 100: [deposit(1, 'accepted')], 101: [prints.minted(1, 7_000)] })).state;
    const tracker = createSbtcTracker({ settledBlocks: 6 });
    let state = before;
    const told: string[] = [];
    for (let h = 102; h <= 120; h += 1) {
      const r = tracker.apply(state, h === 103 ? [deposit(2, 'accepted'), prints.minted(2, 7_002)] : [], h, 7_000 + h - 101);
      state = r.state;
      told.push(...r.settlements.map((e) => `${h} ${e.step} ${e.bitcoinTxid === txid('d1') ? 'd1' : 'd2'}`));
    }
    expect(told).toEqual(['103 completed d2', '109 settled d2']);
  });
});
