// Runs that overlap on one DynamoDB table (dynalite): started together, slowed past their lease, or with
// no lease at all. No alert is published twice, the cursor never moves back, and a run that must give way
// stops cleanly and says why.
import { beforeEach, describe, expect, it } from 'vitest';
import type { CycleSummary } from '../../lambda/core/cycle-types';
import type { ChainApi, Clock } from '../../lambda/core/ports';
import { RecordingTelemetry } from '../core/harness';
import { RecordingPublisher } from '../support/recording-publisher';
import { scenarioChain, scenarioConfig } from './crash-chains';
import { gate, heightsByVersion, runOnce, TIMEOUT_MS, useSharedTable, withoutLease } from './shared-table';

const table = useSharedTable();
beforeEach(() => table.reset());

function expectEachOnce(publisher: RecordingPublisher, expected: readonly string[]): void {
  expect([...publisher.keys()].sort()).toEqual([...expected].sort());
}

function expectCursorNeverBack(): void {
  const heights = heightsByVersion(table.cursorWrites);
  expect(heights).toEqual([...heights].sort((a, b) => a - b));
  expect(table.cursorWrites.map((c) => c.version).sort((a, b) => a - b)).toEqual(heights.map((_, i) => i + 1));
}

/** Every alert of the scenario chain, from a run on a table of its own. */
async function expectedKeys(): Promise<string[]> {
  const publisher = new RecordingPublisher();
  const clock: Clock = { now: () => 1_800_000_000_000 };
  await runOnce({ chain: scenarioChain(), state: table.store(clock), publisher, clock, telemetry: new RecordingTelemetry() }, scenarioConfig, 'reference');
  await table.reset();
  return publisher.keys();
}

/** The chain, with `getBlock(height)` held until the gate opens; `reached` resolves when it is held. */
function slowAt(chain: ChainApi, height: number, held: Promise<void>): { chain: ChainApi; reached: Promise<void> } {
  let reached!: () => void;
  const reachedPromise = new Promise<void>((resolve) => (reached = resolve));
  return {
    reached: reachedPromise,
    chain: new Proxy(chain, {
      get(target, prop, receiver) {
        if (prop !== 'getBlock') return Reflect.get(target, prop, receiver);
        return async (h: number) => {
          const block = await target.getBlock(h);
          if (h === height) {
            reached();
            await held;
          }
          return block;
        };
      },
    }),
  };
}

describe('overlapping runs on one DynamoDB table', () => {
  it('two runs started together: one scans, the other exits at once, saying another run holds the lease', async () => {
    const expected = await expectedKeys();
    const chain = scenarioChain();
    const publisher = new RecordingPublisher();
    const clock: Clock = { now: () => 1_800_000_000_000 };
    const telemetry = [new RecordingTelemetry(), new RecordingTelemetry()];
    const summaries = await Promise.all(
      telemetry.map((t, i) => runOnce({ chain, state: table.store(clock), publisher, clock, telemetry: t }, scenarioConfig, `run-${i}`)),
    );
    const reasons = summaries.map((s) => s.stoppedBecause).sort();
    expect(reasons).toEqual(['caught-up', 'lease-held']);
    const loser = summaries.findIndex((s) => s.stoppedBecause === 'lease-held');
    expect(summaries[loser]).toMatchObject({ blocksScanned: 0, alertsPublished: 0 });
    expect(telemetry[loser]!.logs).toContainEqual(expect.objectContaining({ level: 'warn', message: expect.stringMatching(/another run holds the lease/) }));
    expectEachOnce(publisher, expected);
    expectCursorNeverBack();
  });

  it('a run slowed past its lease finds the cursor moved by the run that took over, and stops without alerting again', async () => {
    const expected = await expectedKeys();
    const chain = scenarioChain();
    const publisher = new RecordingPublisher();
    let now = 1_800_000_000_000;
    const clock: Clock = { now: () => now };
    const held = gate();
    const slow = slowAt(chain, 103, held.wait);
    const slowTelemetry = new RecordingTelemetry();
    const slowRun = runOnce({ chain: slow.chain, state: table.store(clock), publisher, clock, telemetry: slowTelemetry }, scenarioConfig, 'slow');
    await slow.reached;
    now += TIMEOUT_MS + 1_000;
    const takeover = await runOnce({ chain, state: table.store(clock), publisher, clock, telemetry: new RecordingTelemetry() }, scenarioConfig, 'takeover');
    held.open();
    const late = await slowRun;
    expect(takeover.stoppedBecause).toBe('caught-up');
    expect(late.stoppedBecause).toBe('cursor-conflict');
    expect(slowTelemetry.logs).toContainEqual(expect.objectContaining({ level: 'warn', message: expect.stringMatching(/moved by another run/) }));
    expectEachOnce(publisher, expected);
    expectCursorNeverBack();
  });

  it('a run that takes over while the slow run is publishing stops before the alerts in flight; the slow run delivers them', async () => {
    const expected = await expectedKeys();
    const chain = scenarioChain();
    const publisher = new RecordingPublisher();
    let now = 1_800_000_000_000;
    const clock: Clock = { now: () => now };
    const held = gate();
    let reached!: () => void;
    const publishing = new Promise<void>((resolve) => (reached = resolve));
    const block103 = chain.blocks.find((b) => b.height === 103)!.txs[0]!.txId;
    const slowPublisher = {
      async publish(alerts: Parameters<RecordingPublisher['publish']>[0]) {
        if (alerts.some((a) => 'tx_id' in a.alert && a.alert.tx_id === block103)) {
          reached();
          await held.wait;
        }
        return publisher.publish(alerts);
      },
    };
    const slowRun = runOnce({ chain, state: table.store(clock), publisher: slowPublisher, clock, telemetry: new RecordingTelemetry() }, scenarioConfig, 'slow');
    await publishing;
    now += TIMEOUT_MS + 1_000; // the slow run's lease lapses; its claims, made moments ago in its time, have not
    const telemetry = new RecordingTelemetry();
    const takeover = await runOnce({ chain, state: table.store(clock), publisher, clock, telemetry }, scenarioConfig, 'takeover', {
      alertStaleAfterMs: 2 * TIMEOUT_MS,
    });
    held.open();
    const finished = await slowRun;
    expect(takeover).toMatchObject({ stoppedBecause: 'alert-in-flight', cursor: { height: 102 } });
    expect(telemetry.logs).toContainEqual(expect.objectContaining({ level: 'warn', message: expect.stringMatching(/being published by another run/) }));
    // Its time spent, the slow run stops at the next block boundary with the block it was publishing delivered;
    // its one cursor write of the cycle finds the cursor moved by the takeover, and gives way.
    expect(finished).toMatchObject({ stoppedBecause: 'cursor-conflict' });
    expect(publisher.keys().filter((k) => k.includes(block103))).not.toEqual([]);
    const next = await runOnce({ chain, state: table.store(clock), publisher, clock, telemetry }, scenarioConfig, 'next');
    expect(next).toMatchObject({ stoppedBecause: 'caught-up', cursor: { height: chain.tip.height } });
    expectEachOnce(publisher, expected);
    expectCursorNeverBack();
  });

  it('a status alert in flight does not hold up the block scan; the next run after it is stale alerts it once', async () => {
    const expected = await expectedKeys();
    const statusKey = expected.find((k) => k.startsWith('contract_status:'))!;
    const chain = scenarioChain();
    const publisher = new RecordingPublisher();
    let now = 1_800_000_000_000;
    const clock: Clock = { now: () => now };
    expect(await table.store(clock).claimAlert(statusKey, now, TIMEOUT_MS)).toBe('claimed'); // a run that then died
    const telemetry = new RecordingTelemetry();
    const first = await runOnce({ chain, state: table.store(clock), publisher, clock, telemetry }, scenarioConfig, 'first');
    expect(first).toMatchObject({ stoppedBecause: 'caught-up', cursor: { height: chain.tip.height }, contractsChecked: 0 });
    expect(publisher.keys()).not.toContain(statusKey);
    expect(telemetry.logs).toContainEqual(expect.objectContaining({ level: 'warn', message: expect.stringMatching(/checked again next run/) }));
    now += TIMEOUT_MS;
    await runOnce({ chain, state: table.store(clock), publisher, clock, telemetry }, scenarioConfig, 'second');
    expectEachOnce(publisher, expected);
  });

  it('four runs with no lease at all, started together round after round, publish each alert once and never move the cursor back', async () => {
    const expected = await expectedKeys();
    const chain = scenarioChain();
    const publisher = new RecordingPublisher();
    const clock: Clock = { now: () => 1_800_000_000_000 };
    const outcomes: CycleSummary['stoppedBecause'][] = [];
    for (let round = 0; round < 10; round++) {
      const summaries = await Promise.all(
        [0, 1, 2, 3].map((i) =>
          runOnce({ chain, state: withoutLease(table.store(clock)), publisher, clock, telemetry: new RecordingTelemetry() }, scenarioConfig, `r${round}-${i}`),
        ),
      );
      outcomes.push(...summaries.map((s) => s.stoppedBecause));
      if (summaries.some((s) => s.stoppedBecause === 'caught-up' && s.cursor?.height === chain.tip.height)) break;
    }
    expect(new Set(outcomes)).not.toContain('lease-held');
    expect(outcomes.every((o) => ['caught-up', 'cursor-conflict', 'alert-in-flight'].includes(o))).toBe(true);
    expect(outcomes.filter((o) => o !== 'caught-up').length).toBeGreaterThan(0); // they did collide
    expectEachOnce(publisher, expected);
    expectCursorNeverBack();
  });
});
