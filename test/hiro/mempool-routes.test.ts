// Which mempool list the pending rules read: the v3 list, which Hiro keeps; on a self-hosted API without it
// (404), the deprecated v1 list until the hourly re-check, with one operator notice; and the deprecated
// routes answering 410 change nothing while the v3 list answers. Whichever list is read, the same waiting
// transactions come out, field for field, in as many requests.
import { describe, expect, it } from 'vitest';
import { contractCall, fakeAddress, fakeContractId, ROUTES, transfer } from '../support/fake-hiro';
import type { MempoolTx } from '../../lambda/core/mempool/mempool-ports';
import { rejectionOf, startHarness, type Harness } from './harness';

const alice = fakeAddress('alice');
const treasury = fakeAddress('treasury');
const vault = fakeContractId('vault');

/** Waiting transactions of every kind the list shows, some sharing a receipt time, more than one page of them. */
function scriptMempool(h: Harness): void {
  h.fake.chain.submit(transfer({ from: treasury, to: alice, amount: 250_000_000n, memo: 'acct 42' }), { receivedAt: 1_000 });
  h.fake.chain.submit(contractCall({ contractId: vault, functionName: 'set-owner', sender: alice }), { receivedAt: 1_000 });
  for (let i = 0; i < 60; i++) h.fake.chain.submit(transfer({ from: alice, to: treasury, amount: i + 1 }), { receivedAt: 2_000 + i });
}

function withoutV3List(h: Harness): void {
  h.fake.faults.use((r) => (r.route === ROUTES.v3Mempool ? { status: 404 } : undefined));
}

async function readAll(
  h: Harness,
  client: ReturnType<Harness['client']>,
  options: { stopAt?: string[]; receivedFrom?: number | null } = {},
): Promise<MempoolTx[]> {
  return client.mempool!.readMempool({ stopAt: new Set(options.stopAt ?? []), receivedFrom: options.receivedFrom ?? null, maxPages: 3 });
}

describe('the mempool list the pending rules read', () => {
  it('gives the same waiting transactions, field for field, from the v1 list on an API without the v3 one', async () => {
    const h = await startHarness();
    scriptMempool(h);
    const v3 = await readAll(h, h.client());
    const fallback = h.client();
    withoutV3List(h);
    const v1 = await readAll(h, fallback);
    expect(v3).toHaveLength(62);
    expect(v1).toEqual(v3);
    expect(v1.find((tx) => tx.type === 'token_transfer' && tx.sender === treasury)).toMatchObject({ tokenTransfer: { recipient: alice, amount: '250000000' } });
    // Where a run stops is the same too: at a transaction seen before, or at one received before the newest seen.
    const stopAt = [v3[5]!.txId];
    expect(await readAll(h, fallback, { stopAt })).toEqual(v3.slice(0, 5));
    expect(await readAll(h, fallback, { receivedFrom: 2_050 })).toEqual(v3.filter((tx) => tx.receivedAt >= 2_050));
  });

  it('reads the v1 list for the hour after one 404, with exactly one operator notice', async () => {
    const h = await startHarness();
    withoutV3List(h);
    const call = h.fake.chain.submit(contractCall({ contractId: vault, functionName: 'set-owner' }), { receivedAt: 100 });
    const client = h.client();
    const notices = [];
    for (let run = 0; run < 3; run++) {
      expect((await readAll(h, client)).map((tx) => tx.txId)).toEqual([call.txId]);
      notices.push(...client.takeApiDeprecations());
    }
    expect(h.fake.count(ROUTES.v3Mempool)).toBe(1);
    expect(h.fake.count(ROUTES.v1Mempool)).toBe(3);
    expect(notices).toEqual([
      expect.objectContaining({ route: 'GET /extended/v3/mempool/transactions', replacement: 'GET /extended/v1/tx/mempool', gone: false }),
    ]);
    expect(notices[0]!.detail).toContain('404');
  });

  it('reads the v3 list, never the deprecated ones, while the deprecated mempool routes answer 410', async () => {
    const h = await startHarness();
    h.fake.retire(ROUTES.v1Mempool, ROUTES.txMultiple);
    const call = h.fake.chain.submit(contractCall({ contractId: vault, functionName: 'set-owner' }));
    const client = h.client();
    expect((await readAll(h, client)).map((tx) => tx.txId)).toEqual([call.txId]);
    expect([...(await client.mempool!.readPendingStatuses([call.txId])).values()]).toEqual([{ state: 'pending' }]);
    expect(h.fake.count(ROUTES.v1Mempool)).toBe(0);
    // The retired status route is found out once; every later read goes straight to the v3 transaction route.
    await client.mempool!.readPendingStatuses([call.txId]);
    expect(h.fake.count(ROUTES.txMultiple)).toBe(1);
    expect(h.logs.filter((l) => l.message.includes('410'))).toHaveLength(1);
  });

  it('costs one list request a run in the common case, on either list', async () => {
    for (const fallback of [false, true]) {
      const h = await startHarness();
      if (fallback) withoutV3List(h);
      const client = h.client();
      const seen = await readAll(h, client); // a first run on an empty mempool
      expect(seen).toEqual([]);
      const fresh = h.fake.chain.submit(transfer({ to: alice, amount: 1 }), { receivedAt: 10 });
      h.fake.clearLog();
      expect((await readAll(h, client)).map((tx) => tx.txId)).toEqual([fresh.txId]);
      expect(h.fake.count(ROUTES.v3Mempool) + h.fake.count(ROUTES.v1Mempool)).toBe(1);
      h.fake.chain.submit(transfer({ to: alice, amount: 2 }), { receivedAt: 20 });
      h.fake.clearLog();
      expect(await readAll(h, client, { stopAt: [fresh.txId], receivedFrom: 10 })).toHaveLength(1);
      expect(h.fake.count(ROUTES.v3Mempool) + h.fake.count(ROUTES.v1Mempool)).toBe(1);
    }
  });

  it('refuses a v1 list body it cannot read with an error naming the route, and reads it again next time', async () => {
    const h = await startHarness();
    withoutV3List(h);
    const call = h.fake.chain.submit(contractCall({ contractId: vault, functionName: 'set-owner' }));
    const client = h.client();
    h.fake.faults.once({ body: { limit: 50, offset: 0, total: 1, results: 'not a list' } }, ROUTES.v1Mempool);
    expect((await rejectionOf(readAll(h, client))).message).toContain('GET /extended/v1/tx/mempool');
    expect((await readAll(h, client)).map((tx) => tx.txId)).toEqual([call.txId]);
  });
});
