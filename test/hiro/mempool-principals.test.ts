// A principal's own mempool route, as the pending rules read it when they name their principals: what waits for
// each principal (its sends, transfers to it, calls to it), walked as the list is walked and merged newest first,
// gives what the whole list gives for them; an API without the route answers 404 once and the list is read for
// the hour after; a page's items that repeat or do not name the principal are left out and named.
import { describe, expect, it } from 'vitest';
import { contractCall, deploy, fakeAddress, fakeContractId, ROUTES, transfer } from '../support/fake-hiro';
import type { MempoolReadOptions, MempoolTx } from '../../lambda/core/mempool/mempool-ports';
import { rejectionOf, startHarness, type Harness } from './harness';

const alice = fakeAddress('alice');
const bob = fakeAddress('bob');
const treasury = fakeAddress('treasury');
const vault = fakeContractId('vault');
const watched = new Set([vault, treasury]);

/** Waiting transactions for the vault, the treasury, both and neither: the treasury's over a page of them. */
function scriptMempool(h: Harness) {
  const { chain } = h.fake;
  const setOwner = chain.submit(contractCall({ contractId: vault, functionName: 'set-owner', sender: alice }), { receivedAt: 1_000 });
  chain.submit(transfer({ from: alice, to: bob, amount: 7 }), { receivedAt: 1_000 });
  chain.submit(transfer({ from: treasury, to: vault, amount: 9 }), { receivedAt: 1_001 });
  chain.submit(deploy({ contractId: `${treasury}.fresh` }), { receivedAt: 1_002 });
  for (let i = 0; i < 55; i++)
    chain.submit(transfer({ from: i % 2 === 0 ? treasury : bob, to: i % 2 === 0 ? alice : treasury, amount: i + 1 }), { receivedAt: 2_000 + i });
  chain.submit(contractCall({ contractId: vault, functionName: 'upgrade', sender: bob }), { receivedAt: 2_020 });
  return { setOwner };
}

const options = (o: Partial<{ stopAt: string[]; receivedFrom: number | null; maxPages: number }> = {}): MempoolReadOptions => ({
  stopAt: new Set(o.stopAt ?? []),
  receivedFrom: o.receivedFrom ?? null,
  maxPages: o.maxPages ?? 3,
});

/** What the whole list gives for the watched principals. */
function forWatched(listed: MempoolTx[]): MempoolTx[] {
  return listed.filter((tx) => [tx.sender, tx.tokenTransfer?.recipient, tx.contractCall?.contractId].some((p) => p !== undefined && watched.has(p)));
}

describe("a principal's mempool route", () => {
  it('gives what the whole list gives for the principals, field for field, newest first, once each, one walk a principal', async () => {
    const h = await startHarness();
    const { setOwner } = scriptMempool(h);
    const client = h.client();
    const fromList = forWatched(await client.mempool!.readMempool(options({ maxPages: 10 })));
    h.fake.clearLog();
    const perPrincipal = await client.mempool!.readPrincipalsMempool!([vault, treasury], options());
    expect(fromList).toHaveLength(58);
    expect(perPrincipal).toEqual(fromList);
    // The vault's one page, the treasury's two (56 waiting for it); the list not at all.
    expect([h.fake.count(ROUTES.principalMempool), h.fake.count(ROUTES.v3Mempool)]).toEqual([3, 0]);
    expect(h.fake.requestsTo(ROUTES.principalMempool).map((r) => r.query.get('limit'))).toEqual(['50', '50', '50']);
    // Where a run stops is the same: at one seen before, or at one received before the newest seen.
    const seen = options({ stopAt: [setOwner.txId], receivedFrom: 2_030 });
    expect(await client.mempool!.readPrincipalsMempool!([vault, treasury], seen)).toEqual(forWatched(await client.mempool!.readMempool(seen)));
  });

  it('answers null for the hour after one 404, so the list is read, with exactly one operator notice', async () => {
    const h = await startHarness({ subjectRoutes: 'absent' });
    h.fake.chain.submit(contractCall({ contractId: vault, functionName: 'set-owner' }));
    const client = h.client();
    const notices = [];
    for (let run = 0; run < 3; run++) {
      expect(await client.mempool!.readPrincipalsMempool!([vault, treasury], options())).toBeNull();
      notices.push(...client.takeApiDeprecations());
    }
    expect(h.fake.count(ROUTES.principalMempool)).toBe(1);
    expect(notices).toEqual([
      expect.objectContaining({
        route: 'GET /extended/v3/principals/{principal}/mempool/transactions',
        replacement: 'GET /extended/v3/mempool/transactions',
        gone: false,
      }),
    ]);
    expect(notices[0]!.detail).toContain('404');
  });

  it('leaves out the items of a page that repeat an earlier one or do not name the principal, and names them in a warning', async () => {
    const h = await startHarness();
    const outflow = h.fake.chain.submit(transfer({ from: treasury, to: alice, amount: 5_000_000n }), { receivedAt: 3_000 });
    const other = h.fake.chain.submit(transfer({ from: alice, to: bob, amount: 1 }), { receivedAt: 3_001 });
    h.fake.faults.once(
      {
        transform: (body) => {
          const page = body as { results: { tx_id: string }[] };
          const item = { ...page.results[0]!, tx_id: other.txId, sender: { address: alice, nonce: 0 } };
          Object.assign(item, { token_transfer: { recipient: bob, amount: '1', memo: null } });
          return { ...page, results: [item, page.results[0], page.results[0]] };
        },
      },
      ROUTES.principalMempool,
    );
    expect((await h.client().mempool!.readPrincipalsMempool!([treasury], options()))?.map((tx) => tx.txId)).toEqual([outflow.txId]);
    const warnings = h.logs.filter((l) => l.level === 'warn');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.message).toContain('/extended/v3/principals/{principal}/mempool/transactions');
    expect(warnings[0]!.attributes).toEqual({
      principal: treasury,
      ignored: [
        { txId: other.txId, why: 'does not name the principal' },
        { txId: outflow.txId, why: 'repeats an earlier item' },
      ],
    });
  });

  it("refuses a later page's 404 with an error naming the route, rather than reading it as an API without the route", async () => {
    const h = await startHarness();
    for (let i = 0; i < 60; i++) h.fake.chain.submit(transfer({ from: treasury, to: alice, amount: i + 1 }), { receivedAt: 100 + i });
    h.fake.faults.once({ status: 404 }, (r) => r.route === ROUTES.principalMempool && r.query.has('cursor'));
    const client = h.client();
    expect((await rejectionOf(client.mempool!.readPrincipalsMempool!([treasury], options()))).message).toContain(
      'GET /extended/v3/principals/{principal}/mempool/transactions answered 404 for a later page',
    );
    expect(await client.mempool!.readPrincipalsMempool!([treasury], options())).toHaveLength(60);
  });
});
