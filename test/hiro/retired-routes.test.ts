// What a process remembers of the routes Hiro retired (410 Gone): its runner keeps one RetiredRoutes across the
// clients it builds (the handler builds one per invocation), so a later client goes straight to the replacement
// and still lists the route as retired for the operator; a client without it, or of another API, asks itself.
import { describe, expect, it } from 'vitest';
import { RetiredRoutes } from '../../lambda/hiro';
import { contractCall, fakeContractId, ROUTES } from '../support/fake-hiro';
import { startHarness, type Harness } from './harness';

const vault = fakeContractId('vault');

async function chainWithRetiredEvents(): Promise<{ h: Harness; txs: { txId: string; eventCount: number }[] }> {
  const h = await startHarness();
  h.fake.chain.mine([contractCall({ contractId: vault, logs: ['x'] })]);
  h.fake.retire(ROUTES.txMultiple);
  return { h, txs: [{ txId: h.fake.chain.block(1)!.txs[0]!.txId, eventCount: 1 }] };
}

describe("a process's retired routes, shared by the clients it builds", () => {
  it('sends a later client straight to the replacement, which still lists the route as retired in every take', async () => {
    const { h, txs } = await chainWithRetiredEvents();
    const retired = new RetiredRoutes();
    const first = h.client({ retiredRoutes: retired });
    await first.getTransactionEvents(txs);
    expect(first.takeApiDeprecations()).toMatchObject([{ route: ROUTES.txMultiple, gone: true, replacement: ROUTES.v3TransactionEvents }]);

    const later = h.client({ retiredRoutes: retired });
    const events = await later.getTransactionEvents(txs);

    expect(h.fake.count(ROUTES.txMultiple)).toBe(1);
    expect(h.fake.count(ROUTES.v3TransactionEvents)).toBe(2);
    expect(events.get(txs[0]!.txId)?.logs.map((l) => l.contractId)).toEqual([vault]);
    expect(later.subjects.eventsRetired?.()).toBe(true);
    for (let take = 0; take < 2; take++) {
      expect(later.takeApiDeprecations()).toEqual([
        { route: ROUTES.txMultiple, replacement: ROUTES.v3TransactionEvents, gone: true, detail: 'answered 410 Gone earlier in this process' },
      ]);
    }
    // The switch is logged once in the process, by the client that met the 410.
    expect(h.logs.filter((l) => l.message.startsWith('Hiro retired a route'))).toHaveLength(1);
  });

  it('keeps each API apart: a client of another API asks the route itself', async () => {
    const { h, txs } = await chainWithRetiredEvents();
    const retired = new RetiredRoutes();
    await h.client({ retiredRoutes: retired }).getTransactionEvents(txs);
    const other = await startHarness();
    other.fake.chain.mine([contractCall({ contractId: vault, logs: ['x'] })]);

    const elsewhere = other.client({ retiredRoutes: retired });
    await elsewhere.getTransactionEvents([{ txId: other.fake.chain.block(1)!.txs[0]!.txId, eventCount: 1 }]);

    expect(other.fake.count(ROUTES.txMultiple)).toBe(1);
    expect(other.fake.count(ROUTES.v3TransactionEvents)).toBe(0);
    expect(elsewhere.subjects.eventsRetired?.()).toBe(false);
  });

  it('leaves a client built without the memory to find the 410 itself, once', async () => {
    const { h, txs } = await chainWithRetiredEvents();
    await h.client().getTransactionEvents(txs);
    const later = h.client();
    await later.getTransactionEvents(txs);
    await later.getTransactionEvents(txs);

    expect(h.fake.count(ROUTES.txMultiple)).toBe(2);
  });
});
