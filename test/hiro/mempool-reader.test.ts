// The mempool as the Hiro client reads it for the pending rules: the v3 list newest first until a transaction
// seen before or received before the newest one seen; statuses and call arguments for many transactions in one
// `/tx/multiple` request (dropped ones with the API's reason), and from the v3 transaction route, one request
// each, once Hiro retires it (where a dropped transaction is a 404 and its reason unknown).
import { Cl } from '@stacks/transactions';
import { describe, expect, it } from 'vitest';
import { contractCall, fakeAddress, fakeContractId, ROUTES, transfer } from '../support/fake-hiro';
import type { OperatorNotice } from '../../lambda/core/ports';
import { rejectionOf, startHarness } from './harness';

const alice = fakeAddress('alice');
const vault = fakeContractId('vault');

describe('the mempool reader', () => {
  it('lists calls and STX transfers newest first, and stops at a transaction seen before or received before the newest seen', async () => {
    const h = await startHarness();
    const old = h.fake.chain.submit(transfer({ to: alice, amount: 1 }), { receivedAt: 100 });
    const call = h.fake.chain.submit(contractCall({ contractId: vault, functionName: 'set-owner' }), { receivedAt: 200 });
    const mempool = h.client().mempool!;
    const all = await mempool.readMempool({ stopAt: new Set(), receivedFrom: null, maxPages: 3 });
    expect(all.map((tx) => [tx.txId, tx.type, tx.receivedAt])).toEqual([
      [call.txId, 'contract_call', 200],
      [old.txId, 'token_transfer', 100],
    ]);
    expect(all[0]!.contractCall).toEqual({ contractId: vault, functionName: 'set-owner' });
    expect(await mempool.readMempool({ stopAt: new Set([old.txId]), receivedFrom: null, maxPages: 3 })).toHaveLength(1);
    // The one seen is gone (mined), but anything older was read then or is gone too.
    expect(await mempool.readMempool({ stopAt: new Set(['0xgone']), receivedFrom: 150, maxPages: 3 })).toHaveLength(1);
  });

  it('reads the statuses and arguments of many transactions in one /tx/multiple request, a drop with its reason', async () => {
    const h = await startHarness();
    const waiting = h.fake.chain.submit(contractCall({ contractId: vault, functionName: 'set-owner', args: [Cl.principal(alice)] }));
    const dropped = h.fake.chain.submit(contractCall({ contractId: vault, functionName: 'upgrade' }));
    const mined = h.fake.chain.submit(transfer({ to: alice, amount: 5 }));
    h.fake.chain.drop(dropped.txId, 'dropped_too_expensive');
    h.fake.chain.mine([mined]);
    const mempool = h.client().mempool!;
    const statuses = await mempool.readPendingStatuses([waiting.txId, dropped.txId, mined.txId]);
    expect([...statuses.values()]).toEqual([{ state: 'pending' }, { state: 'dropped', reason: 'dropped_too_expensive', replacedBy: null }, { state: 'mined' }]);
    expect(await mempool.readPendingCallArgs([waiting.txId])).toEqual(new Map([[waiting.txId, [alice]]]));
    expect(h.fake.count(ROUTES.txMultiple)).toBe(2);
  });

  it('falls back to the v3 transaction route once /tx/multiple is retired, where a dropped transaction has no reason', async () => {
    const h = await startHarness();
    h.fake.retire(ROUTES.txMultiple);
    const waiting = h.fake.chain.submit(contractCall({ contractId: vault, functionName: 'set-owner', args: [Cl.uint(7)] }));
    const dropped = h.fake.chain.submit(transfer({ to: alice, amount: 5 }));
    h.fake.chain.drop(dropped.txId, 'dropped_stale_garbage_collect');
    const mempool = h.client().mempool!;
    const statuses = await mempool.readPendingStatuses([waiting.txId, dropped.txId]);
    expect([...statuses.values()]).toEqual([{ state: 'pending' }, { state: 'dropped', reason: null, replacedBy: null }]);
    expect(await mempool.readPendingCallArgs([waiting.txId])).toEqual(new Map([[waiting.txId, ['u7']]]));
    expect(h.fake.count(ROUTES.v3Transaction)).toBe(3);
  });

  it('fails the v3 reads of several transactions only once each has answered, none left in flight', async () => {
    const h = await startHarness();
    h.fake.retire(ROUTES.txMultiple);
    const txs = [1, 2, 3].map((amount) => h.fake.chain.submit(transfer({ to: alice, amount })));
    const mempool = h.client().mempool!;
    await mempool.readPendingStatuses([]); // the retired route found out once, before the faults
    h.fake.faults.once({ status: 400 }, ROUTES.v3Transaction);
    h.fake.faults.times(2, { delayMs: 300 }, ROUTES.v3Transaction);

    await rejectionOf(mempool.readPendingStatuses(txs.map((tx) => tx.txId)));

    expect(
      h.events
        .filter((e) => e.endpoint === ROUTES.v3Transaction)
        .map((e) => e.status)
        .sort(),
    ).toEqual([200, 200, 400]);
  });

  it('reads the list without the type filter for the hour after the API refuses it', async () => {
    const h = await startHarness();
    h.fake.faults.use((r) => (r.route === ROUTES.v3Mempool && r.query.has('type') ? { status: 400 } : undefined));
    const call = h.fake.chain.submit(contractCall({ contractId: vault, functionName: 'set-owner' }));
    const mempool = h.client().mempool!;
    const read = () => mempool.readMempool({ stopAt: new Set(), receivedFrom: null, maxPages: 1 });
    expect((await read()).map((tx) => tx.txId)).toEqual([call.txId]);
    expect((await read()).map((tx) => tx.txId)).toEqual([call.txId]);
    expect(h.fake.requestsTo(ROUTES.v3Mempool).map((r) => r.query.has('type'))).toEqual([true, false, false]);
    expect(h.logs.filter((l) => l.message.includes('type filter'))).toHaveLength(1);
  });

  it('tries the list once, without retries or a throttling notice: the next run reads it again', async () => {
    const h = await startHarness();
    const notices: OperatorNotice[] = [];
    const client = h.client({ operator: { notify: async (notice) => void notices.push(notice) } });
    h.fake.faults.once({ status: 429, headers: { 'retry-after': '1' } }, ROUTES.v3Mempool);
    await rejectionOf(client.mempool!.readMempool({ stopAt: new Set(), receivedFrom: null, maxPages: 1 }));
    h.fake.faults.once({ status: 503 }, ROUTES.v3Mempool);
    await rejectionOf(client.mempool!.readMempool({ stopAt: new Set(), receivedFrom: null, maxPages: 1 }));
    expect(h.fake.count(ROUTES.v3Mempool)).toBe(2);
    expect(notices).toEqual([]);
  });
});
