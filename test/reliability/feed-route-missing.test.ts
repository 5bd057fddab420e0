// A per-subject feed route the API answers 404 to (an older self-hosted API without it), through the real
// cycle, the Hiro client and the fake API: the run reads on by the block scan from the block it was at, later
// runs keep the block scan without asking the route again until an hour has passed, the operator hears of the
// route once and once more when it answers again, and the alerts are those of the block scan, each once.
import { afterEach, describe, expect, it } from 'vitest';
import { DocumentStateStore, emptyDocument } from '../../lambda/adapters/file/state-document';
import type { CycleSummary } from '../../lambda/core/cycle-types';
import {
  contractCall,
  createFakeHiro,
  fakeAddress,
  fakeContractId,
  ROUTES,
  stxTransferEvent,
  transfer,
  type FakeChain,
  type RunningFakeHiro,
} from '../support/fake-hiro';
import { alice, vault, watcher, type Watcher } from './watched-chain';

const servers: RunningFakeHiro[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const HOUR = 60 * 60_000;

/** A few blocks with transfers to alice and the vault's logs, printed directly and through another contract. */
function mine(chain: FakeChain, round: number, logs = true): void {
  const bob = fakeAddress('bob');
  for (let i = 0; i < 4; i++) {
    if (!logs) {
      chain.mine([transfer({ from: bob, to: alice, amount: 50 + i, memo: `quiet-${round}-${i}` })]);
      continue;
    }
    chain.mine([transfer({ from: bob, to: fakeAddress(`noise-${round}-${i}`), amount: i + 1 })]);
    if (i % 2 === 0) chain.mine([transfer({ from: bob, to: alice, amount: 100 + i, memo: `inv-${round}-${i}` })]);
    if (i === 1) chain.mine([contractCall({ contractId: fakeContractId('other'), logs: [{ printer: vault, value: `via-${round}` }, `own-${round}`] })]);
    if (i === 3) chain.mine([contractCall({ contractId: vault, logs: [`direct-${round}`], events: [stxTransferEvent(vault, alice, 7 + round)] })]);
  }
}

/** Two watchers on two identical chains: one reading per subject with `route` answering 404, one by the block scan. */
async function pair(route: string, day: number) {
  // A day apart for each route: what the process remembers of one route has long been due for the next.
  let now = Date.parse('2026-11-26T10:00:00Z') + day * 24 * HOUR;
  const start = async (way: 'per-subject' | 'block-scan') => {
    const fake = createFakeHiro();
    const server = await fake.start();
    servers.push(server);
    const w = watcher(server.url, new DocumentStateStore(emptyDocument('mainnet')), undefined, { now: () => now }, { fetchWay: way });
    return { fake, w };
  };
  const subjects = await start('per-subject');
  const scan = await start('block-scan');
  const missing = subjects.fake.faults.use((r) =>
    r.route === route ? { status: 404, body: { statusCode: 404, error: 'Not Found', message: `Route GET:${r.path} not found` } } : undefined,
  );
  let round = 0;
  /** Mines a round on both chains, moves the clock on and runs both until caught up. */
  const step = async (minutes: number, logs = true) => {
    round += 1;
    now += minutes * 60_000;
    for (const { fake } of [subjects, scan]) mine(fake.chain, round, logs);
    const runs = await subjects.w.runUntilCaughtUp(subjects.fake.chain);
    await scan.w.runUntilCaughtUp(scan.fake.chain);
    return runs;
  };
  return { subjects, scan, step, restore: missing };
}

const keys = (w: Watcher) => w.publisher.sent.map((s) => s.alert.key);
const plans = (runs: CycleSummary[]) => runs.map((r) => r.fetchPlan);
/** The notices about per-subject routes (the deprecated routes the block scan reads have their own). */
const routeNotices = (w: Watcher) => w.operator.notices.filter((n) => n.kind === 'api-deprecation' && n.subject.includes('per-subject route'));

describe('a per-subject feed route the API does not have (404)', () => {
  for (const [day, route] of [ROUTES.principalTransactions, ROUTES.contractLogs, ROUTES.transactionBatch].entries()) {
    it(`reads by the block scan that run and the next, asks ${route} again only after an hour, and alerts what the block scan alerts, each once`, async () => {
      const { subjects, scan, step, restore } = await pair(route, day);
      const first = await step(1);
      expect(subjects.fake.count(route)).toBe(1);
      // The run that met the 404 says it read by the block scan, and why.
      expect(plans(first)[0]).toMatchObject({ way: 'block-scan', asked: 'per-subject', reason: expect.stringContaining(route) });
      for (let i = 0; i < 3; i++) {
        const runs = await step(10);
        // Not asked again: the runs keep the block scan and say why, naming the route.
        expect(plans(runs).every((p) => p?.way === 'block-scan' && p.reason.includes(route.replace('GET ', '')))).toBe(true);
      }
      expect(subjects.fake.count(route)).toBe(1);
      expect(keys(subjects.w)).toEqual(keys(scan.w));
      expect(new Set(keys(subjects.w)).size).toBe(keys(subjects.w).length);
      expect(keys(subjects.w).length).toBeGreaterThan(10);
      const told = routeNotices(subjects.w);
      expect(told).toHaveLength(1);
      expect(told[0]!.message).toContain(route);

      // Still missing an hour later: asked once more, still the block scan, nothing more told.
      await step(31);
      expect(subjects.fake.count(route)).toBe(2);
      expect(routeNotices(subjects.w)).toHaveLength(1);

      // The API updated: an hour on, the route answers, the runs read per subject again and the operator hears it once.
      restore();
      await step(61);
      const runs = await step(1);
      expect(plans(runs).every((p) => p?.way === 'per-subject')).toBe(true);
      const after = routeNotices(subjects.w);
      expect(after).toHaveLength(2);
      expect(after[1]!.subject).toContain('answers again');
      expect(after[1]!.message).toContain(route);
      expect(keys(subjects.w)).toEqual(keys(scan.w));
      expect(new Set(keys(subjects.w)).size).toBe(keys(subjects.w).length);
    }, 60_000);
  }

  it('does not call the transaction batch back when a probe run read per subject without asking it (no log to place)', async () => {
    const route = ROUTES.transactionBatch;
    const { subjects, scan, step } = await pair(route, 3);
    await step(1);
    expect(subjects.fake.count(route)).toBe(1);
    // An hour on, a round without the vault's logs: read per subject, the batch never asked.
    const quiet = await step(61, false);
    expect(plans(quiet).every((p) => p?.way === 'per-subject')).toBe(true);
    expect(subjects.fake.count(route)).toBe(1);
    expect(routeNotices(subjects.w)).toHaveLength(1);
    // Logs again: the batch is asked, still missing: the block scan, nothing more told.
    await step(1);
    expect(subjects.fake.count(route)).toBe(2);
    expect(routeNotices(subjects.w)).toHaveLength(1);
    expect(keys(subjects.w)).toEqual(keys(scan.w));
  }, 60_000);
});
