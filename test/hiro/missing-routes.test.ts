// What a process remembers of the routes an older API lacks: its runner keeps one MissingRoutes across the
// clients it builds (the handler builds one per invocation), so a later client does not ask a route an earlier
// one found missing; an hour later one asks again, and an upgraded API is read through the route as before.
import { describe, expect, it } from 'vitest';
import { MissingRoutes, REPROBE_MS } from '../../lambda/core/follow/missing-routes';
import { contractCall, fakeAddress, fakeContractId, ROUTES } from '../support/fake-hiro';
import { startHarness, type Harness } from './harness';

const vault = fakeContractId('vault');
const treasury = fakeAddress('treasury');
const options = { stopAt: new Set<string>(), receivedFrom: null, maxPages: 1 };

/** The fake answers `routes` 404 until `upgrade()`, as an API older than them does. */
function olderApi(h: Harness, ...routes: string[]): { upgrade: () => void } {
  let upgraded = false;
  h.fake.faults.use((r) => (!upgraded && routes.includes(r.route) ? { status: 404 } : undefined));
  return { upgrade: () => void (upgraded = true) };
}

describe("a process's missing routes, shared by the clients it builds", () => {
  it('keeps later clients on the v1 mempool list until the re-check, then reads the v3 list of an upgraded API again', async () => {
    const h = await startHarness();
    const api = olderApi(h, ROUTES.v3Mempool);
    const call = h.fake.chain.submit(contractCall({ contractId: vault, functionName: 'set-owner' }));
    const missing = new MissingRoutes();
    const client = () => h.client({ missingRoutes: missing });
    const read = async (c = client()) => ({ txIds: (await c.mempool!.readMempool(options)).map((tx) => tx.txId), notices: c.takeApiDeprecations() });

    expect(await read()).toMatchObject({ txIds: [call.txId], notices: [{ route: ROUTES.v3Mempool, replacement: ROUTES.v1Mempool }] });
    expect(await read()).toEqual({ txIds: [call.txId], notices: [] });
    expect([h.fake.count(ROUTES.v3Mempool), h.fake.count(ROUTES.v1Mempool)]).toEqual([1, 2]);

    api.upgrade();
    h.clock.advance(REPROBE_MS);
    expect(await read()).toEqual({ txIds: [call.txId], notices: [] });
    expect(await read()).toEqual({ txIds: [call.txId], notices: [] });
    expect([h.fake.count(ROUTES.v3Mempool), h.fake.count(ROUTES.v1Mempool)]).toEqual([3, 2]);
    expect(h.logs.filter((l) => l.message === `the API answers ${ROUTES.v3Mempool} again: reading it as before`)).toHaveLength(1);
  });

  it('asks the mempool list with its type filter again an hour after the API refused it, and keeps it once accepted', async () => {
    const h = await startHarness();
    let refused = true;
    h.fake.faults.use((r) => (refused && r.route === ROUTES.v3Mempool && r.query.has('type') ? { status: 400 } : undefined));
    h.fake.chain.submit(contractCall({ contractId: vault, functionName: 'set-owner' }));
    const missing = new MissingRoutes();
    const read = () => h.client({ missingRoutes: missing }).mempool!.readMempool(options);

    await read();
    await read();
    refused = false;
    h.clock.advance(REPROBE_MS);
    await read();
    await read();
    expect(h.fake.requestsTo(ROUTES.v3Mempool).map((r) => r.query.has('type'))).toEqual([true, false, false, true, true]);
  });

  it("reads the list instead of a principal's missing route in later clients, and the route of an upgraded API after the re-check", async () => {
    const h = await startHarness();
    const api = olderApi(h, ROUTES.principalMempool);
    h.fake.chain.submit(contractCall({ contractId: vault, functionName: 'set-owner' }));
    const missing = new MissingRoutes();
    const read = () => h.client({ missingRoutes: missing }).mempool!.readPrincipalsMempool!([vault, treasury], options);

    expect(await read()).toBeNull();
    expect(await read()).toBeNull();
    expect(h.fake.count(ROUTES.principalMempool)).toBe(1);

    api.upgrade();
    h.clock.advance(REPROBE_MS);
    expect(await read()).toHaveLength(1);
    expect(await read()).toHaveLength(1);
    // The vault's route and the treasury's, each run.
    expect(h.fake.count(ROUTES.principalMempool)).toBe(5);
  });

  it('takes no tip from the missing v3 block list in later clients, and from the list of an upgraded API after the re-check', async () => {
    const h = await startHarness();
    const api = olderApi(h, ROUTES.v3Blocks, ROUTES.v3Block);
    h.fake.chain.mine([]);
    const missing = new MissingRoutes();
    const tip = async () => {
      const c = h.client({ missingRoutes: missing });
      return { tip: (await c.subjects.tip!())?.height, notices: c.takeApiDeprecations().map((d) => d.route) };
    };

    expect(await tip()).toEqual({ tip: undefined, notices: [ROUTES.v3Blocks] });
    expect(await tip()).toEqual({ tip: undefined, notices: [] });
    expect(h.fake.count(ROUTES.v3Blocks)).toBe(1);

    api.upgrade();
    h.clock.advance(REPROBE_MS);
    expect(await tip()).toEqual({ tip: 1, notices: [] });
    expect(await tip()).toEqual({ tip: 1, notices: [] });
    expect(h.fake.count(ROUTES.v3Blocks)).toBe(3);
  });

  it("asks again in a client without the process memory, and where the memory is another API's", async () => {
    const h = await startHarness();
    olderApi(h, ROUTES.v3Mempool);
    await h.client({ missingRoutes: new MissingRoutes() }).mempool!.readMempool(options);
    await h.client().mempool!.readMempool(options);
    const otherApi = new MissingRoutes();
    otherApi.at('http://127.0.0.1:1/', h.clock.now).found(ROUTES.v3Mempool);
    await h.client({ missingRoutes: otherApi }).mempool!.readMempool(options);
    expect(h.fake.count(ROUTES.v3Mempool)).toBe(3);
  });
});
