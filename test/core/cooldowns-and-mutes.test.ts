// Cooldowns and mutes through the real cycle: a cooldown holds its rule's matches and sends one summary when
// a block's time ends it, exactly once across a crash between sending the summary and recording the cursor;
// a mute records its rule's matches as muted and sends none until its time, then alerts resume; a reorg
// retracts no alert that was held or muted (none was sent).
import { describe, expect, it } from 'vitest';
import { CrashSwitch, crashingState, InjectedCrash } from '../support/crash-points';
import { MemoryChain, transfer, coinbase } from '../support/memory-chain';
import { config, harness, WATCHED } from './harness';
import type { CooldownSummaryAlert } from '../../lambda/core/alert-kinds/cooldown-summary';
import { COOLDOWN_MUTE_LISTED } from '../../lambda/core/stages/cooldowns-and-mutes';
import { runCycle } from '../../lambda/core/cycle';

/** Blocks are 10 s apart in the memory chain: a 1-minute cooldown lasts 6 blocks. */
const timeOf = (chain: MemoryChain, height: number) => chain.blocks.find((b) => b.height === height)!.time;
const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

function cooldownChain() {
  const chain = new MemoryChain(100, 1);
  const first = chain.mine([transfer(WATCHED, '1')]); // 101: alerts, starts the cooldown (until 107's time)
  const held = [102, 103, 104, 105].flatMap(() => chain.mine(Array.from({ length: 10 }, (_, i) => transfer(WATCHED, String(i + 2)))).txs);
  chain.mine([coinbase()]); // 106: still within the minute
  return { chain, first, held };
}

const cooldownConfig = config({ startHeight: 101, addressesRule: { name: 'treasury in', cooldownMinutes: 1 } } as never);

describe('a rule with a cooldown', () => {
  it("sends its first match, holds the next 40 and sends one summary of them when a block's time ends the cooldown", async () => {
    const { chain, first, held } = cooldownChain();
    const h = harness(chain, cooldownConfig);
    await h.run();
    expect(h.publisher.keys()).toEqual([`token_transfer:${first.txs[0]!.txId}`]);

    chain.mine([coinbase()]); // 107: its time is the cooldown's end
    const after = chain.mine([transfer(WATCHED, '99')]); // 108: alerts again, and starts a new cooldown
    await h.run();

    const summaryKey = expect.stringMatching(new RegExp(`^cooldown_summary:token_transfer:${first.txs[0]!.txId}:40:[0-9a-f]{12}$`));
    expect(h.publisher.keys()).toEqual([`token_transfer:${first.txs[0]!.txId}`, summaryKey, `token_transfer:${after.txs[0]!.txId}`]);
    const summary = h.publisher.sent.map((o) => o.alert).find((a) => a.type === 'cooldown_summary') as CooldownSummaryAlert;
    expect(summary).toMatchObject({
      type: 'cooldown_summary',
      rule: 'treasury in',
      held: 40,
      cooldown_minutes: 1,
      from_height: 102,
      to_height: 105,
      ended_at_height: 107,
    });
    expect(summary.held_alerts.map((m) => m.tx_id)).toEqual(held.slice(0, COOLDOWN_MUTE_LISTED).map((tx) => tx.txId));
    const record = await h.state.getAlertRecord(`token_transfer:${held[39]!.txId}`);
    expect(record).toMatchObject({ state: 'held' });
    expect(record?.reason).toContain('1-minute cooldown');
  });

  it('sends the summary exactly once when the run dies between sending it and recording the cursor', async () => {
    const { chain, first } = cooldownChain();
    const h = harness(chain, cooldownConfig);
    await h.run();
    chain.mine([coinbase()]); // 107 ends the cooldown

    const crash = new CrashSwitch('after marking an alert sent', 1);
    const deps = { ...h.deps(), state: crashingState(h.state, crash) };
    const budget = { runId: 'dies', deadlineMs: Number.MAX_SAFE_INTEGER, leaseTtlMs: 120_000, alertStaleAfterMs: 120_000 };
    await expect(runCycle(deps, cooldownConfig, budget)).rejects.toBeInstanceOf(InjectedCrash);
    const summaryKey = `cooldown_summary:token_transfer:${first.txs[0]!.txId}:`;
    expect(h.publisher.keys().filter((k) => k.startsWith(summaryKey))).toHaveLength(1);
    // The stored cursor is still before block 107, with the cooldown and its 40 held matches.
    expect((await h.state.readCursor())?.quiet?.cooldowns[0]).toMatchObject({ held: 40 });

    h.advance(130_000); // the dead run's lease lapses
    const rerun = await h.run();
    expect(rerun.cursor?.height).toBe(107);
    expect(h.publisher.keys().filter((k) => k.startsWith(summaryKey))).toHaveLength(1);
    // No cooldown runs; the ended one stays (marked ended) only while a reorg could take its end back.
    expect((await h.state.readCursor())?.quiet?.cooldowns).toEqual([expect.objectContaining({ held: 40, d: 107 })]);
  });
});

describe('a muted rule', () => {
  it('records its matches as muted and sends none until its time, then alerts again', async () => {
    const chain = new MemoryChain(100, 1);
    const before = [chain.mine([transfer(WATCHED, '1')]), chain.mine([transfer(WATCHED, '2'), transfer(WATCHED, '3')])]; // 101, 102
    const until = timeOf(chain, 102) + 10; // block 103's time: the mute is over there
    const h = harness(chain, config({ startHeight: 101, addressesRule: { name: 'deposits', mutedUntil: iso(until) } } as never));
    await h.run();
    expect(h.publisher.keys()).toEqual([]);
    for (const tx of before.flatMap((b) => b.txs)) {
      const record = await h.state.getAlertRecord(`token_transfer:${tx.txId}`);
      expect(record).toMatchObject({ state: 'muted' });
      expect(record?.reason).toContain('muted until');
    }
    expect((await h.state.readCursor())?.quiet?.mutes).toEqual([expect.objectContaining({ rule: 'deposits', held: 3, fromHeight: 101, toHeight: 102 })]);

    const after = chain.mine([transfer(WATCHED, '4')]); // 103
    await h.run();
    expect(h.publisher.keys()).toEqual([`token_transfer:${after.txs[0]!.txId}`]);
  });
});

describe('a reorg over held or muted alerts', () => {
  it('retracts the alert that was sent and none that were held, since they never went out', async () => {
    const { chain, first, held } = cooldownChain();
    const h = harness(chain, cooldownConfig);
    await h.run();
    chain.reorg(6, [[coinbase()], [coinbase()], [coinbase()], [coinbase()], [coinbase()], [coinbase()]]); // 101–106 replaced, without the transfers
    for (let i = 0; i < 12; i++) chain.mine([coinbase()]);
    await h.run();
    const retractions = h.publisher.ofType('retraction').map((o) => o.alert);
    expect(retractions.map((r) => (r as { retracts: string }).retracts)).toEqual([`token_transfer:${first.txs[0]!.txId}`]);
    expect(await h.state.getAlertRecord(`token_transfer:${held[0]!.txId}`)).toMatchObject({ state: 'held' });
  });
});

describe('a muted contractsRule', () => {
  it("records status changes as muted and sends none while the last block's time is before its end, and stores the statuses all the same", async () => {
    const chain = new MemoryChain(100, 1, 1_800_000_000 - 1_000); // block 100 at the harness clock's time
    const token = 'SP2C2YFP12AJZB4MABJBAJ55XECVS7E4PMMZ89YZR.arkadiko-token';
    const status = (n: number, state: string) =>
      chain.statuses.set(token, { contractId: token, found: true, status: state, txId: `0x0${n}`, blockHeight: 90 + n });
    status(1, 'success');
    const h = harness(chain, config({ contracts: [token], contractsRule: { mutedUntil: iso(1_800_000_030) } } as never));
    await h.run(); // no block yet: the clock's time, within the mute
    expect(await h.state.getAlertRecord(`contract_status:${token}:1`)).toMatchObject({ state: 'muted' });

    status(2, 'abort_by_response');
    for (let i = 0; i < 4; i++) chain.mine(); // 101–104: the last one's time is past the mute
    await h.run(); // its status check still sees block 100's time: muted
    expect(h.publisher.keys()).toEqual([]);
    status(3, 'success');
    await h.run();
    expect(h.publisher.keys()).toEqual([`contract_status:${token}:3`]);
  });
});
