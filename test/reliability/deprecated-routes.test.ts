// Hiro's deprecated routes retired (410 Gone) one by one and all at once, through the real client and whole
// cycles against the fake API: the watcher switches to the v3 successors and publishes exactly the alerts it
// publishes on the v2 routes; with no parent hash left it still finds a reorg; and every deprecation reaches
// the operator at most once a UTC day, across processes that share only the state store.
import { afterEach, describe, expect, it } from 'vitest';
import { DocumentStateStore, emptyDocument, type StateDocument } from '../../lambda/adapters/file/state-document';
import type { StateStore } from '../../lambda/core/ports';
import {
  coinbase,
  contractCall,
  createFakeHiro,
  fakeAddress,
  fakeContractId,
  ROUTES,
  transfer,
  VirtualClock,
  type FakeHiro,
  type FakeHiroOptions,
  type RunningFakeHiro,
} from '../support/fake-hiro';
import { alice, canonicalAlertKeys, publishCounts, vault, watchConfig, watcher, type Watcher } from './watched-chain';

const servers: RunningFakeHiro[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const DEPRECATED = [ROUTES.blockTransactions, ROUTES.txMultiple, ROUTES.block];

/**
 * Blocks 1..7 with every shape the readers must get right: a block of 120 transactions (three v3 pages,
 * listed newest first), a call with 130 logs (two event pages), an aborted call, a log printed for the vault
 * by another contract, a transfer memo, and an empty block.
 */
function mineWatchedChain(fake: FakeHiro): void {
  const bob = fakeAddress('bob');
  const router = fakeContractId('router');
  fake.chain.mine([coinbase()]);
  fake.chain.mine([
    transfer({ to: alice, amount: 1, memo: 'rent' }),
    contractCall({ contractId: vault, logs: ['opened'] }),
    contractCall({ contractId: vault, logs: ['rolled back'], status: 'abort_by_response' }),
  ]);
  const filler = Array.from({ length: 118 }, (_, i) => transfer({ to: bob, amount: i + 1 }));
  fake.chain.mine([
    ...filler.slice(0, 77),
    transfer({ to: alice, amount: 2 }),
    contractCall({ contractId: vault, logs: Array.from({ length: 130 }, (_, i) => `tick-${i}`) }),
    ...filler.slice(77),
  ]);
  fake.chain.mineEmpty(1);
  fake.chain.mine([contractCall({ contractId: router, logs: [{ printer: vault, value: 'routed' }, 'router only'] })]);
  fake.chain.mine([coinbase(), transfer({ to: alice, amount: 4 })]);
  fake.chain.mine([contractCall({ contractId: router, logs: ['nothing watched'] })]);
}

async function startFake(retired: readonly string[], options: FakeHiroOptions = {}): Promise<{ fake: FakeHiro; url: string }> {
  const fake = createFakeHiro(options);
  mineWatchedChain(fake);
  fake.retire(...retired);
  const server = await fake.start();
  servers.push(server);
  return { fake, url: server.url };
}

/** Every alert published, as JSON, in publishing order. */
function alertsOf(w: Watcher): unknown[] {
  return w.publisher.sent.map((a) => a.alert);
}

async function scanWith(retired: readonly string[]) {
  const { fake, url } = await startFake(retired);
  const w = watcher(url, new DocumentStateStore(emptyDocument('mainnet')));
  await w.runUntilCaughtUp(fake.chain, 2);
  return { fake, w };
}

describe('deprecated routes retired: the same alerts from the v3 routes', () => {
  const modes: [string, string[]][] = [
    ['the v2 block transaction list gone', [ROUTES.blockTransactions]],
    ['/extended/v1/tx/multiple gone', [ROUTES.txMultiple]],
    ['every deprecated route gone, block headers included', DEPRECATED],
  ];

  it('publishes every alert of the chain exactly once on the v2 routes (the reference)', async () => {
    const { fake, w } = await scanWith([]);
    const counts = publishCounts(w.publisher);
    expect(new Set(counts.keys())).toEqual(new Set(canonicalAlertKeys(fake.chain)));
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    expect(fake.count(ROUTES.v3BlockTransactions) + fake.count(ROUTES.v3TransactionEvents)).toBe(0);
  });

  for (const [name, retired] of modes) {
    it(`publishes the same alerts, in the same order, with ${name}`, async () => {
      const reference = await scanWith([]);
      const { fake, w } = await scanWith(retired);

      expect(alertsOf(w)).toEqual(alertsOf(reference.w));
      // Only requests already under way when the first 410 came (one per block read ahead at most).
      for (const route of retired) expect(fake.count(route), route).toBeLessThanOrEqual(fake.chain.height);
      const v3 = retired.includes(ROUTES.txMultiple) ? ROUTES.v3TransactionEvents : ROUTES.v3BlockTransactions;
      expect(fake.count(v3)).toBeGreaterThan(0);
    });
  }

  it('keeps going on the v3 routes in later runs and reports nothing lost when new blocks come', async () => {
    const { fake, url } = await startFake(DEPRECATED);
    const w = watcher(url, new DocumentStateStore(emptyDocument('mainnet')));
    await w.runUntilCaughtUp(fake.chain, 2);
    fake.chain.mine([transfer({ to: alice, amount: 9 })]);
    fake.chain.mineEmpty(2);
    fake.chain.mine([contractCall({ contractId: vault, logs: ['later'] })]);
    fake.clearLog();

    await w.runUntilCaughtUp(fake.chain, 2);

    const counts = publishCounts(w.publisher);
    expect(new Set(counts.keys())).toEqual(new Set(canonicalAlertKeys(fake.chain)));
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    // Switched for the life of the process: a retired route is not asked again.
    for (const route of DEPRECATED) expect(fake.count(route), route).toBe(0);
  });
});

describe('every deprecated route gone: reorgs', () => {
  it.each([
    [
      'on an API without v3 block routes (before 9.7.0), by asking whether the cursor block is still canonical, and says once a run that checks are weaker',
      'absent',
      true,
    ],
    ['through the parent hashes the v3 block list gives, with no weaker checks', 'v3', false],
  ] as const)('finds a reorg %s', async (_name, v3BlockShape, weakerChecks) => {
    const { fake, url } = await startFake(DEPRECATED, { v3BlockShape });
    const w = watcher(url, new DocumentStateStore(emptyDocument('mainnet')));
    await w.runUntilCaughtUp(fake.chain, 2);
    const orphaned = canonicalAlertKeys(fake.chain).filter((key) => {
      const txId = key.split(':')[1]!;
      return fake.chain.findTx(txId)!.block.height >= 6;
    });
    expect(orphaned.length).toBeGreaterThan(0);
    // Blocks 6 and 7 replaced; the new chain then grows past the retraction grace.
    fake.chain.reorg(2, [[transfer({ to: alice, amount: 40 })], [contractCall({ contractId: vault, logs: ['new chain'] })]]);
    for (let i = 0; i < 12; i += 1) fake.chain.mine([coinbase()]);
    const logsBefore = w.telemetry.logs.length;

    const summaries = await w.runUntilCaughtUp(fake.chain, 3);

    expect(summaries.reduce((n, s) => n + s.reorgs, 0)).toBe(1);
    const counts = publishCounts(w.publisher);
    for (const key of canonicalAlertKeys(fake.chain)) expect(counts.get(key), key).toBe(1);
    const retracted = w.publisher.ofType('retraction').map((a) => (a.alert as { retracts: string }).retracts);
    expect(retracted.sort()).toEqual(orphaned.sort());
    const weaker = w.telemetry.logs.slice(logsBefore).filter((l) => l.message.startsWith('reorg checks are weaker'));
    expect(weaker).toHaveLength(weakerChecks ? summaries.length : 0);
  });
});

describe('deprecation warnings reach the operator at most once a day', () => {
  const DAY_MS = 24 * 60 * 60 * 1000;

  /** A fresh client each call (a new Lambda container) over one shared state document. */
  function container(url: string, document: StateDocument, clock: VirtualClock): Watcher {
    const state: StateStore = new DocumentStateStore(document);
    return watcher(url, state, undefined, { now: clock.now, sleep: clock.sleep });
  }

  it('logs each deprecated route once per client (a Lambda invocation, a local runner process), counts them, and tells the operator once a UTC day across containers', async () => {
    const { fake, url } = await startFake([]);
    const document = emptyDocument('mainnet');
    const clock = new VirtualClock(Date.UTC(2026, 10, 22, 9, 0, 0));

    const first = container(url, document, clock);
    await first.run();
    fake.chain.mine([coinbase()]);
    await first.run();
    clock.advance(60 * 60 * 1000);
    fake.chain.mine([coinbase()]);
    const second = container(url, document, clock);
    await second.run();

    // Headers come only from the routes a run used: all three in the first run, which meets an empty block.
    const warned = (w: Watcher, runId: string) =>
      w.telemetry.logs
        .filter((l) => l.message === 'the API marks a route stacks-watch reads as deprecated' && l.attributes?.runId === runId)
        .map((l) => l.attributes?.endpoint);
    expect(warned(first, 'run-1').sort()).toEqual([...DEPRECATED].sort());
    // The same client's next cycle (a polling cycle, the local runner's next one) does not say it again.
    expect(warned(first, 'run-2')).toEqual([]);
    expect(warned(second, 'run-1')).toEqual([ROUTES.blockTransactions]);
    expect(first.telemetry.metrics.filter((m) => m.name === 'ApiDeprecations').map((m) => m.value)).toEqual([3]);
    expect(first.telemetry.sum('ApiDeprecations')).toBeGreaterThan(0);
    const noticed = first.operator.notices.map((n) => n.message.match(/marks (GET \S+)/)?.[1]);
    expect(first.operator.notices.every((n) => n.kind === 'api-deprecation')).toBe(true);
    expect(new Set(noticed)).toEqual(new Set(DEPRECATED));
    expect(noticed).toHaveLength(DEPRECATED.length);
    expect(second.operator.notices).toEqual([]);

    clock.advance(DAY_MS);
    fake.chain.mine([coinbase()]);
    const nextDay = container(url, document, clock);
    await nextDay.run();
    expect(nextDay.operator.notices.length).toBeGreaterThan(0);
  });

  it('in a warm container (a new client every invocation, as the handler builds one) warns once a day per route after its notice is sent, and reads no record for it again; a new container or the next day warns again', async () => {
    const { fake, url } = await startFake([]);
    const document = emptyDocument('mainnet');
    const clock = new VirtualClock(Date.UTC(2026, 10, 22, 9, 0, 0));
    const noticed = new Set<string>();
    const opsReads: string[] = [];
    const invocation = (kept: Set<string>) => {
      const state = new DocumentStateStore(document);
      const read = state.getAlertRecord.bind(state);
      state.getAlertRecord = (key) => (key.startsWith('ops:') && opsReads.push(key), read(key));
      return watcher(url, state, undefined, { now: clock.now, sleep: clock.sleep }, { deprecationsNoticed: kept });
    };
    const warned = (w: Watcher) =>
      w.telemetry.logs.filter((l) => l.message === 'the API marks a route stacks-watch reads as deprecated').map((l) => l.attributes?.endpoint);

    const first = invocation(noticed);
    await first.run();
    expect(warned(first).sort()).toEqual([...DEPRECATED].sort());
    expect(first.operator.notices).toHaveLength(DEPRECATED.length);

    for (let i = 0; i < 3; i += 1) {
      clock.advance(8_000);
      fake.chain.mine([coinbase()]);
      opsReads.length = 0;
      const warm = invocation(noticed);
      await warm.run();
      expect(warned(warm)).toEqual([]);
      expect(warm.operator.notices).toEqual([]);
      expect(opsReads).toEqual([]);
      expect(warm.telemetry.metrics.filter((m) => m.name === 'ApiDeprecations')).toEqual([]);
    }

    fake.chain.mine([coinbase()]);
    const cold = invocation(new Set());
    await cold.run();
    expect(warned(cold)).toEqual([ROUTES.blockTransactions]);
    expect(cold.operator.notices).toEqual([]);

    clock.advance(DAY_MS);
    fake.chain.mine([coinbase()]);
    const nextDay = invocation(noticed);
    await nextDay.run();
    expect(warned(nextDay)).toEqual([ROUTES.blockTransactions]);
    expect(nextDay.operator.notices).toHaveLength(1);
  });

  it("keeps warning every run while the day's notice is still being sent by another run", async () => {
    const { url } = await startFake([]);
    const document = emptyDocument('mainnet');
    const clock = new VirtualClock(Date.UTC(2026, 10, 22, 9, 0, 0));
    const state = new DocumentStateStore(document);
    // Another run holds a fresh claim on every notice of the day: this one must not count them as sent.
    const claim = state.claimAlert.bind(state);
    state.claimAlert = async (key, ...rest) => (key.startsWith('ops:') ? 'in-flight' : claim(key, ...rest));
    const noticed = new Set<string>();
    await watcher(url, state, undefined, { now: clock.now, sleep: clock.sleep }, { deprecationsNoticed: noticed }).run();
    expect(noticed.size).toBe(0);
  });

  it("follows the headers, not a list in code: the replacement a warning names, else the watcher's own successor, and a route only the server marks", async () => {
    const { fake, url } = await startFake([]);
    const hiroDefault = '299 - "Deprecated: See https://docs.hiro.so/stacks/api for more information"';
    fake.faults.use((request) =>
      request.route === ROUTES.block || request.route === ROUTES.contractStatus ? { headers: { warning: hiroDefault } } : undefined,
    );
    const w = watcher(url, new DocumentStateStore(emptyDocument('mainnet')), watchConfig({ contracts: [vault] }));

    await w.run();

    const logged = new Map(
      w.telemetry.logs.filter((l) => l.message === 'the API marks a route stacks-watch reads as deprecated').map((l) => [l.attributes?.endpoint, l.attributes]),
    );
    // The fake's own warning names the v3 list: that is what is logged, as the API's word.
    expect(logged.get(ROUTES.blockTransactions)).toMatchObject({ replacement: ROUTES.v3BlockTransactions, replacementNamedBy: 'the API' });
    // Hiro's default names a docs page, not a route: the watcher says what it will read instead, as its own choice.
    expect(logged.get(ROUTES.block)).toMatchObject({ replacement: ROUTES.v3BlockTransactions, replacementNamedBy: 'stacks-watch' });
    // A route no list in code calls deprecated is reported because the server marks it; never "replacement: null".
    expect(logged.get(ROUTES.contractStatus)).toMatchObject({ replacement: expect.stringContaining('none named by the API'), detail: hiroDefault });
    const statusNotice = w.operator.notices.find((n) => n.message.includes(ROUTES.contractStatus));
    expect(statusNotice?.message).toContain('The API names no replacement and stacks-watch has none for it');
    expect(w.operator.notices.find((n) => n.message.includes(`marks ${ROUTES.blockTransactions}`))?.message).toContain(
      `The API names ${ROUTES.v3BlockTransactions} as its replacement`,
    );
  });

  it("costs no state write once the day's notice is sent: later runs only read it", async () => {
    const { fake, url } = await startFake([]);
    const document = emptyDocument('mainnet');
    const clock = new VirtualClock(Date.UTC(2026, 10, 22, 9, 0, 0));
    await container(url, document, clock).run();

    const state = new DocumentStateStore(document);
    const writes: string[] = [];
    const claimAlert = state.claimAlert.bind(state);
    state.claimAlert = (key, ...rest) => (writes.push(key), claimAlert(key, ...rest));
    fake.chain.mine([coinbase()]);
    const later = watcher(url, state, undefined, { now: clock.now, sleep: clock.sleep });
    await later.run();

    expect(later.telemetry.sum('ApiDeprecations')).toBeGreaterThan(0);
    expect(writes.filter((key) => key.startsWith('ops:'))).toEqual([]);
  });

  it('emits no ApiDeprecations metric and no notice when no route warns', async () => {
    const { fake, url } = await startFake([]);
    fake.faults.use(() => ({ headers: { warning: null } }));
    const w = watcher(url, new DocumentStateStore(emptyDocument('mainnet')));

    await w.runUntilCaughtUp(fake.chain, 2);

    expect(w.telemetry.metrics.filter((m) => m.name === 'ApiDeprecations')).toEqual([]);
    expect(w.operator.notices).toEqual([]);
  });

  it('tells the operator that a route answered 410 and which route replaced it, in every run until updated', async () => {
    const { fake, url } = await startFake([ROUTES.txMultiple]);
    const w = watcher(url, new DocumentStateStore(emptyDocument('mainnet')));

    await w.runUntilCaughtUp(fake.chain, 2);
    fake.chain.mine([coinbase()]);
    await w.run();

    const retired = w.operator.notices.filter((n) => n.subject.includes('retired'));
    expect(retired).toHaveLength(1);
    expect(retired[0]!.message).toContain('410 Gone for GET /extended/v1/tx/multiple');
    expect(retired[0]!.message).toContain('GET /extended/v3/transactions/{tx_id}/events');
    const logged = w.telemetry.logs.filter((l) => l.message === 'the API retired a route stacks-watch reads');
    expect(logged.map((l) => l.attributes?.runId)).toEqual(['run-1', 'run-2']);
  });

  it('tells the operator once that the v3 block list answers in a shape it cannot read, and what it reads instead', async () => {
    const { fake, url } = await startFake(DEPRECATED, { v3BlockShape: 'unknown' });
    const w = watcher(url, new DocumentStateStore(emptyDocument('mainnet')));

    await w.runUntilCaughtUp(fake.chain, 2);

    const unreadable = w.operator.notices.filter((n) => n.subject.includes('unknown shape'));
    expect(unreadable).toHaveLength(1);
    expect(unreadable[0]!.message).toContain('answers GET /extended/v3/blocks in a shape stacks-watch cannot read (results[0]: height: missing');
    expect(unreadable[0]!.message).toContain('reads GET /extended/v3/blocks/{height_or_hash}/transactions instead');
    expect(w.telemetry.logs.filter((l) => l.message === 'the API answers a route stacks-watch reads in a shape it cannot read')).toHaveLength(1);
  });
});
