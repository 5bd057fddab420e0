// More balance rules than one run's request budget reads: 60 rules on 60 addresses without an API key (50
// requests a minute, enforced by the fake gateway), one run a minute, each run a fresh client as a Lambda
// invocation has. Each run reads its share of balances and scans the blocks due; the rules start over the
// next runs, and each kept balance ends equal to the API's. The client and the gateway share one event clock
// (bench/event-clock.ts): a wait, the client's pacing or the minute between runs, is taken at once whenever no
// request is out, so the gateway's minute windows pass in the time the requests take, however busy the machine.
import { afterEach, describe, expect, it } from 'vitest';
import { EventClock } from '../../bench/event-clock';
import { DocumentStateStore, emptyDocument } from '../../lambda/adapters/file/state-document';
import { entriesAt } from '../../lambda/core/stages/balance-book';
import { runCycle } from '../../lambda/core/cycle';
import type { CycleSummary } from '../../lambda/core/cycle-types';
import { parseWatchConfig } from '../../lambda/config/watch-config';
import { balanceReadAllowance, balanceReadsPerRun, createHiroClient } from '../../lambda/hiro';
import { RecordingOperator, RecordingTelemetry } from '../core/harness';
import { coinbase, contractCall, createFakeHiro, fakeAddress, fakeContractId, ROUTES, type RunningFakeHiro } from '../support/fake-hiro';
import { balancesAt } from '../support/fake-hiro/balances';
import { RecordingPublisher } from '../support/recording-publisher';

const RULES = 60;
const RPM = 50;
const holders = Array.from({ length: RULES }, (_, i) => fakeAddress(`holder-${i}`));
const fee = (payer: string, amount: number) => ({ ...contractCall({ contractId: fakeContractId('bridge'), sender: payer }), feeRate: String(amount) });

let server: RunningFakeHiro | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** The client's clock, sleep and GET on one event clock, which the fake gateway's windows are timed on too. */
function clientOn(clock: EventClock) {
  return { now: clock.now, sleep: clock.sleep, get: clock.get };
}

describe('more balance rules than a run reads', () => {
  it('scans blocks every run while the rules start over the next runs, each first check once, every kept balance exact', async () => {
    const clock = new EventClock();
    const fake = createFakeHiro({ rateLimit: { limit: RPM, windowSeconds: 60, clock: clock.now } });
    // Half the holders start below 1,000 (a first check that alerts), half above.
    for (const [i, holder] of holders.entries()) fake.chain.setGenesisBalance(holder, 'stx', i % 2 === 0 ? 500 : 5_000);
    fake.chain.mine([coinbase()]);
    server = await fake.start();
    const parsed = parseWatchConfig({
      network: 'mainnet',
      startHeight: 2,
      balances: holders.map((address, i) => ({ name: `holder ${i}`, address, asset: 'stx', below: 1_000 })),
    });
    if (!parsed.ok) throw new Error('bad config');
    const state = new DocumentStateStore(emptyDocument('mainnet'));
    const publisher = new RecordingPublisher();
    const telemetry = new RecordingTelemetry();
    const perRun = balanceReadsPerRun(RPM, 60_000);
    const runs: CycleSummary[] = [];
    const readsPerRun: number[] = [];

    for (let run = 0; run < Math.ceil(RULES / perRun) + 1; run += 1) {
      // Fees from holders every block, before and after their rule starts: 4,100 is crossed by any two.
      fake.chain.mine([fee(holders[(run * 7) % RULES]!, 2_100), fee(holders[(run * 7 + 1) % RULES]!, 2_100)]);
      fake.chain.mine([fee(holders[(run * 7 + 3) % RULES]!, 2_100)]);
      const deadlineMs = clock.now() + 50_000;
      const readsBefore = fake.count(ROUTES.balances);
      const chain = createHiroClient({ baseUrl: server.url, requestsPerMinute: RPM, ...clientOn(clock), deadline: () => deadlineMs });
      runs.push(
        await runCycle({ chain, state, publisher, clock, telemetry, operator: new RecordingOperator() }, parsed.config, {
          runId: `run-${run}`,
          deadlineMs,
          leaseTtlMs: 120_000,
          alertStaleAfterMs: 120_000,
          balanceReads: balanceReadAllowance(RPM, 60_000),
        }),
      );
      readsPerRun.push(fake.count(ROUTES.balances) - readsBefore);
      // One run a minute: the gateway's window has reset by the next.
      await clock.sleep(60_000);
    }

    // Every run scans blocks (a slow first run on a busy machine may stop at its deadline, the next catches up).
    expect(runs.filter((r) => r.blocksScanned === 0 || r.stoppedBecause === 'api-backoff')).toEqual([]);
    expect(runs.at(-1)!.stoppedBecause).toBe('caught-up');
    expect(runs.reduce((sum, r) => sum + r.blocksScanned, 0)).toBe(2 * runs.length);
    // Each run within its share, and no read refused for want of budget: the blocks had the rest. (A run the
    // machine slows past its scaled deadline reads fewer; the next runs read the rest.)
    expect(readsPerRun.filter((reads) => reads > perRun)).toEqual([]);
    expect(readsPerRun.reduce((sum, reads) => sum + reads, 0)).toBe(RULES);
    expect(readsPerRun.filter((reads) => reads === perRun).length).toBeGreaterThanOrEqual(RULES / perRun - 1);
    expect(perRun).toBe(10);
    expect(telemetry.logs.filter((l) => l.message.includes('could not read the balance'))).toEqual([]);
    const cursor = (await state.readCursor())!.height;
    const kept = entriesAt((await state.readRecord('balances'))!, cursor);
    expect(Object.keys(kept)).toHaveLength(RULES);
    for (const [i, holder] of holders.entries()) {
      expect({ holder: i, balance: kept[`holder ${i}|${holder}|stx|1000|`]?.balance }).toEqual({
        holder: i,
        balance: String(balancesAt(fake.chain, holder, cursor).stx),
      });
    }
    // Each holder below at its first check alerts once, with the read's block; none twice.
    const firstChecks = publisher.sent.map((s) => s.alert.key).filter((key) => key.includes(':below:read:'));
    expect(new Set(firstChecks).size).toBe(firstChecks.length);
    expect(firstChecks.length).toBeGreaterThanOrEqual(RULES / 2);
  }, 60_000);
});

describe('more balance rules than a run reads, with the v1 balances route retired', () => {
  it("rebuilds each balance from its changes within the run's share of requests, and every rule starts exact, its first check once", async () => {
    const rules = 12;
    const clock = new EventClock();
    const fake = createFakeHiro({ rateLimit: { limit: RPM, windowSeconds: 60, clock: clock.now } });
    fake.retire(ROUTES.balances);
    const few = holders.slice(0, rules);
    for (const [i, holder] of few.entries()) fake.chain.setGenesisBalance(holder, 'stx', i % 2 === 0 ? 500 : 5_000);
    fake.chain.mine([coinbase()]);
    server = await fake.start();
    const parsed = parseWatchConfig({
      network: 'mainnet',
      startHeight: 2,
      balances: few.map((address, i) => ({ name: `holder ${i}`, address, asset: 'stx', below: 1_000 })),
    });
    if (!parsed.ok) throw new Error('bad config');
    const state = new DocumentStateStore(emptyDocument('mainnet'));
    const publisher = new RecordingPublisher();
    const telemetry = new RecordingTelemetry();
    const rebuiltPerRun: number[] = [];
    for (let run = 0; run < 6; run += 1) {
      // Fees that keep every balance above nothing (the v3 balance is a whole number of micro-STX).
      fake.chain.mine([fee(few[(run * 5) % rules]!, 30), fee(few[(run * 5 + 1) % rules]!, 30)]);
      const deadlineMs = clock.now() + 50_000;
      const before = fake.count(ROUTES.stxBalance);
      const chain = createHiroClient({ baseUrl: server.url, requestsPerMinute: RPM, ...clientOn(clock), deadline: () => deadlineMs });
      const summary = await runCycle({ chain, state, publisher, clock, telemetry, operator: new RecordingOperator() }, parsed.config, {
        runId: `run-${run}`,
        deadlineMs,
        leaseTtlMs: 120_000,
        alertStaleAfterMs: 120_000,
        balanceReads: balanceReadAllowance(RPM, 60_000),
      });
      expect(summary.blocksScanned).toBeGreaterThan(0);
      rebuiltPerRun.push(fake.count(ROUTES.stxBalance) - before);
      await clock.sleep(60_000);
    }
    // Ten requests a run, three a rebuilt balance: three addresses a run until all twelve have started.
    expect(rebuiltPerRun).toEqual([3, 3, 3, 3, 0, 0]);
    expect(telemetry.logs.filter((l) => l.message.includes('could not read the balance'))).toEqual([]);
    const cursor = (await state.readCursor())!.height;
    const kept = entriesAt((await state.readRecord('balances'))!, cursor);
    for (const [i, holder] of few.entries()) {
      expect({ holder: i, balance: kept[`holder ${i}|${holder}|stx|1000|`]?.balance }).toEqual({
        holder: i,
        balance: String(balancesAt(fake.chain, holder, cursor).stx),
      });
    }
    const firstChecks = publisher.sent.map((s) => s.alert.key).filter((key) => key.includes(':below:read:'));
    expect(new Set(firstChecks).size).toBe(firstChecks.length);
    expect(firstChecks.length).toBeGreaterThanOrEqual(rules / 2);
  }, 60_000);
});
