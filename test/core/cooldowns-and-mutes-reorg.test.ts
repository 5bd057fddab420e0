// Cooldowns under reorgs, through the real cycle: after a rollback the quiet state is what a live run that
// only ever saw the new chain would have at the fork point, so the watcher that followed the old chain ends
// up with the same alerts as a second one that only saw the new chain, and as --replay of the new chain.
import { describe, expect, it } from 'vitest';
import { MemoryChain, transfer, coinbase, type ModelTx } from '../support/memory-chain';
import { config, harness, WATCHED } from './harness';
import type { Alert } from '../../lambda/core/alert-kinds/alert';
import { cooldownSummaryKind, type CooldownSummaryAlert } from '../../lambda/core/alert-kinds/cooldown-summary';
import { replayBlocks } from '../../lambda/core/scan/replay';
import type { ChainAlert } from '../../lambda/core/alert-kinds/alert';
import { decideCooldownsAndMutes } from '../../lambda/core/stages/cooldowns-and-mutes';
import { COOLDOWN_MUTE_REORG_MARGIN_BLOCKS, rollbackCooldownsAndMutes } from '../../lambda/core/stages/cooldown-mute-rollback';
import type { CooldownMuteState } from '../../lambda/core/stages/cooldown-mute-state';

/** Blocks are 10 s apart in the memory chain: a 1-minute cooldown started at 101 ends at 107. */
const cooldownConfig = config({ startHeight: 101, addressesRule: { name: 'treasury in', cooldownMinutes: 1 } } as never);
const key = (tx: ModelTx) => `token_transfer:${tx.txId}`;
/** The summary of the cooldown `tx` started, holding `held` (its key names what it held: count and listed matches). */
const summaryOf = (tx: ModelTx, held: readonly ModelTx[]) => cooldownSummaryKind.key(key(tx), { count: held.length, keys: held.slice(0, 5).map(key) });
const anySummaryOf = (tx: ModelTx) => (k: string) => k.startsWith(`cooldown_summary:${key(tx)}:`);
const mineAll = (chain: MemoryChain, blocks: ModelTx[][]) => blocks.forEach((txs) => chain.mine(txs));
const quietBlocks = (n: number) => Array.from({ length: n }, () => [coinbase()]);

/** A second watcher that only ever sees the new chain: same transactions, blocks mined at the same heights. */
async function freshRun(blocks: ModelTx[][]) {
  const chain = new MemoryChain(100, 1);
  mineAll(chain, blocks);
  const h = harness(chain, cooldownConfig);
  await h.run();
  return h;
}

/** What went out, retractions aside, without the block hashes (the two chains' hashes differ by their fork). */
const sentAlerts = (alerts: readonly Alert[]) =>
  alerts.filter((a) => a.type !== 'retraction').map(({ block_hash: _hash, ...rest }: Alert & { block_hash?: string }) => rest);

async function replayed(chain: MemoryChain, to: number): Promise<Alert[]> {
  const alerts: Alert[] = [];
  await replayBlocks(chain, cooldownConfig, { from: 101, to }, { onAlerts: async (a) => void alerts.push(...a) }, { now: () => 1_800_000_000_000 });
  return alerts;
}

/** Two matches of the cooled rule at 101 and 102 and quiet blocks to 107, which ends the cooldown; one run scans them. */
async function cooldownEndedAt107() {
  const first = transfer(WATCHED, '1');
  const chain = new MemoryChain(100, 1);
  const second = transfer(WATCHED, '2');
  mineAll(chain, [[first], [second], ...quietBlocks(5)]); // 101–107: 107 ends it
  const h = harness(chain, cooldownConfig);
  await h.run();
  return { first, second, chain, h };
}

describe('a reorg during a cooldown', () => {
  it("that drops held matches: the summary counts only the new chain's, as a run that only saw the new chain sends it", async () => {
    const first = transfer(WATCHED, '1');
    const kept = [transfer(WATCHED, '2'), transfer(WATCHED, '3')];
    const dropped = Array.from({ length: 6 }, (_, i) => transfer(WATCHED, String(10 + i)));
    const late = transfer(WATCHED, '4');
    const chain = new MemoryChain(100, 1);
    mineAll(chain, [[first], kept, dropped.slice(0, 3), dropped.slice(3)]); // 101–104: 1 sent, 8 held
    const h = harness(chain, cooldownConfig);
    await h.run();
    expect(h.publisher.keys()).toEqual([key(first)]);

    // 103 and 104 replaced: their 6 held matches are gone; the new 104 holds one other.
    const newChain = [[coinbase()], [late], ...quietBlocks(10)]; // 103–114: 107 ends the cooldown
    chain.reorg(2, newChain);
    await h.run();

    const summary = h.publisher.sent.map((o) => o.alert).find((a) => a.key === summaryOf(first, [...kept, late])) as CooldownSummaryAlert;
    expect(summary).toMatchObject({ held: 3, from_height: 102, to_height: 104, ended_at_height: 107 });
    expect(summary.held_alerts.map((m) => m.tx_id)).toEqual([...kept, late].map((tx) => tx.txId));
    expect(h.publisher.ofType('retraction')).toEqual([]); // the dropped matches were held: nothing to retract

    const fresh = await freshRun([[first], kept, ...newChain]);
    const alerts = sentAlerts(h.publisher.sent.map((o) => o.alert));
    expect(alerts).toEqual(sentAlerts(fresh.publisher.sent.map((o) => o.alert)));
    expect(sentAlerts(await replayed(chain, chain.tip.height))).toEqual(alerts);
  });

  it("that retracts the alert that started it: a retraction, no summary of that cooldown, and the new chain's first match alerts and starts its own", async () => {
    const first = transfer(WATCHED, '1');
    const held = [transfer(WATCHED, '2'), transfer(WATCHED, '3')];
    const chain = new MemoryChain(100, 1);
    mineAll(chain, [[coinbase()], [first], [held[0]!], [held[1]!]]); // 101–104: 1 sent at 102, 2 held
    const h = harness(chain, cooldownConfig);
    await h.run();

    // 102–104 replaced without the first transfer: the held ones are mined again, the first of them at 103.
    const newChain = [[coinbase()], [held[0]!], [held[1]!], ...quietBlocks(12)]; // 102–116: 109 ends the new cooldown
    chain.reorg(3, newChain);
    await h.run();

    expect(h.publisher.ofType('retraction').map((o) => (o.alert as { retracts: string }).retracts)).toEqual([key(first)]);
    expect(h.publisher.keys().some(anySummaryOf(first))).toBe(false);
    expect(h.publisher.keys()).toEqual([key(first), key(held[0]!), summaryOf(held[0]!, [held[1]!]), expect.stringMatching(/^retraction:/)]);
    const summary = h.publisher.sent.map((o) => o.alert).find((a) => a.key === summaryOf(held[0]!, [held[1]!])) as CooldownSummaryAlert;
    expect(summary).toMatchObject({ held: 1, from_height: 104, to_height: 104, ended_at_height: 109 });
    expect(await h.state.getAlertRecord(key(held[0]!))).toMatchObject({ state: 'sent' });

    const fresh = await freshRun([[coinbase()], ...newChain]);
    const alerts = sentAlerts(h.publisher.sent.map((o) => o.alert)).filter((a) => a.key !== key(first));
    expect(alerts).toEqual(sentAlerts(fresh.publisher.sent.map((o) => o.alert)));
    expect(sentAlerts(await replayed(chain, chain.tip.height))).toEqual(alerts);
  });
});

describe("a reorg after a cooldown's summary went out", () => {
  it("that retracts the alert that started it retracts the summary too, and the new chain's cooldown sends its own", async () => {
    const first = transfer(WATCHED, '1');
    const held = [transfer(WATCHED, '2'), transfer(WATCHED, '3')];
    const chain = new MemoryChain(100, 1);
    mineAll(chain, [[coinbase()], [first], [held[0]!], [held[1]!], ...quietBlocks(4)]); // 101–108: 108 ends it
    const h = harness(chain, cooldownConfig);
    await h.run();
    expect(h.publisher.keys()).toEqual([key(first), summaryOf(first, held)]);

    const newChain = [[coinbase()], [held[0]!], [held[1]!], ...quietBlocks(14)]; // 102–118: past the grace
    chain.reorg(7, newChain);
    await h.run();

    const retracted = h.publisher.ofType('retraction').map((o) => o.alert as { retracts: string; retracted_type: string });
    expect(retracted.map((r) => [r.retracts, r.retracted_type])).toEqual([
      [key(first), 'token_transfer'],
      [summaryOf(first, held), 'cooldown_summary'],
    ]);
    const fresh = await freshRun([[coinbase()], ...newChain]);
    const alerts = sentAlerts(h.publisher.sent.map((o) => o.alert)).filter((a) => a.key !== key(first) && a.key !== summaryOf(first, held));
    expect(alerts).toEqual(sentAlerts(fresh.publisher.sent.map((o) => o.alert)));
    expect(alerts.map((a) => a.key)).toEqual([key(held[0]!), summaryOf(held[0]!, [held[1]!])]);
    expect(sentAlerts(await replayed(chain, chain.tip.height))).toEqual(alerts);
  });

  it('whose new chain holds nothing in that cooldown retracts its summary (a live run on the new chain sends none)', async () => {
    const { first, second, chain, h } = await cooldownEndedAt107();
    expect(h.publisher.keys()).toEqual([key(first), summaryOf(first, [second])]);

    const newChain = quietBlocks(16); // 102–117: the held match is gone
    chain.reorg(6, newChain);
    await h.run();

    expect(h.publisher.ofType('retraction').map((o) => (o.alert as { retracts: string }).retracts)).toEqual([summaryOf(first, [second])]);
    const fresh = await freshRun([[first], ...newChain]);
    expect(fresh.publisher.keys()).toEqual([key(first)]);
    expect(sentAlerts(await replayed(chain, chain.tip.height)).map((a) => a.key)).toEqual([key(first)]);
  });
});

describe('a reorg that mines the same matches again', () => {
  it('keeps the summary already sent: the same cooldown holding the same matches is the same alert, not retracted', async () => {
    const { first, second, chain, h } = await cooldownEndedAt107();

    chain.reorg(6, [[second], ...quietBlocks(15)]); // 102–117: the same held match, other block hashes
    await h.run();

    expect(h.publisher.keys()).toEqual([key(first), summaryOf(first, [second])]);
    expect(h.publisher.ofType('retraction')).toEqual([]);
  });
});

describe('a reorg below the block that ended a cooldown', () => {
  it("takes the end back: a match the new chain mines before the cooldown's end is held, as a live run on it holds it", async () => {
    const { first, second, chain, h } = await cooldownEndedAt107();

    const late = transfer(WATCHED, '3');
    const newChain = [[late], ...quietBlocks(12)]; // 106–118: 106 is still within the cooldown
    chain.reorg(2, newChain);
    await h.run();

    expect(await h.state.getAlertRecord(key(late))).toMatchObject({ state: 'held' });
    // The same cooldown ends again holding more: a summary of its own, and the first one's retraction.
    expect(h.publisher.keys()).toEqual([key(first), summaryOf(first, [second]), summaryOf(first, [second, late]), expect.stringMatching(/^retraction:/)]);
    expect(h.publisher.ofType('retraction').map((o) => (o.alert as { retracts: string }).retracts)).toEqual([summaryOf(first, [second])]);
    const fresh = await freshRun([[first], [second], ...quietBlocks(3), ...newChain]);
    expect(fresh.publisher.keys()).toEqual([key(first), summaryOf(first, [second, late])]);
  });
});

describe('the quiet state kept for reorgs', () => {
  const match = (height: number, i: number) =>
    ({
      type: 'token_transfer',
      key: `m${height}-${i}`,
      rule: 'busy',
      severity: 'warning',
      tx_id: `0x${height}${i}`,
      block_height: height,
      recipient: WATCHED,
    }) as unknown as ChainAlert;
  const policies = new Map([['busy', { cooldownMinutes: 10_080 }]]);

  it("is bounded: a week-long cooldown matching in every block keeps the margin's blocks, and says a deeper rollback is inexact", () => {
    let state: CooldownMuteState | undefined;
    for (let height = 1; height <= 500; height += 1) {
      state = decideCooldownsAndMutes(state, { height, hash: `0x${height}`, time: height * 5 }, [match(height, 0), match(height, 1)], policies).state;
    }
    const cooldown = state!.cooldowns[0]!;
    expect(cooldown).toMatchObject({ held: 999, startedHeight: 1 });
    expect(cooldown.steps!.length).toBeLessThanOrEqual(COOLDOWN_MUTE_REORG_MARGIN_BLOCKS);
    expect(JSON.stringify(state).length).toBeLessThan(3_000);

    const back = rollbackCooldownsAndMutes(state, 500 - COOLDOWN_MUTE_REORG_MARGIN_BLOCKS);
    expect(back.inexact).toBe(false);
    expect(back.state!.cooldowns[0]!.held).toBe(999 - 2 * COOLDOWN_MUTE_REORG_MARGIN_BLOCKS);
    expect(rollbackCooldownsAndMutes(state, 500 - COOLDOWN_MUTE_REORG_MARGIN_BLOCKS - 1).inexact).toBe(true);
  });
});
