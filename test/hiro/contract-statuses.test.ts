import { describe, expect, it } from 'vitest';
import { deploy, fakeContractId, ROUTES } from '../support/fake-hiro';
import { rejectionOf, startHarness } from './harness';

describe('getContractStatuses', () => {
  it('sends one contract_id key per id, never a comma-separated list', async () => {
    const h = await startHarness();
    const ids = [fakeContractId('a'), fakeContractId('b'), fakeContractId('c')];

    await h.client().getContractStatuses(ids);

    const [request] = h.fake.requestsTo(ROUTES.contractStatus);
    expect(request?.query.getAll('contract_id')).toEqual(ids);
    expect(request?.url).not.toMatch(/,|%2C/i);
  });

  it('asks for at most 100 ids per call', async () => {
    const h = await startHarness();
    const ids = Array.from({ length: 250 }, (_, i) => fakeContractId(`c${i}`));

    const statuses = await h.client().getContractStatuses(ids);

    const sizes = h.fake.requestsTo(ROUTES.contractStatus).map((r) => r.query.getAll('contract_id').length);
    expect(sizes.sort((a, b) => b - a)).toEqual([100, 100, 50]);
    expect(statuses.size).toBe(250);
  });

  it('reads a mined deploy as found with its status, transaction and height', async () => {
    const h = await startHarness();
    const id = fakeContractId('vault');
    const block = h.fake.chain.mine([deploy({ contractId: id })]);

    const status = (await h.client().getContractStatuses([id])).get(id);

    expect(status).toEqual({ contractId: id, found: true, status: 'success', txId: block.txs[0]!.txId, blockHeight: block.height });
  });

  it('reads a pending deploy as found with no block height', async () => {
    const h = await startHarness();
    const id = fakeContractId('pending');
    h.fake.chain.setContractStatus(id, { status: 'pending', txId: `0x${'12'.repeat(32)}` });

    const status = (await h.client().getContractStatuses([id])).get(id);

    expect(status).toEqual({ contractId: id, found: true, status: 'pending', txId: `0x${'12'.repeat(32)}`, blockHeight: null });
  });

  it('reads {"found":false} as not found with no status', async () => {
    const h = await startHarness();
    const id = fakeContractId('nothing');

    const status = (await h.client().getContractStatuses([id])).get(id);

    expect(status).toEqual({ contractId: id, found: false, status: null, txId: null, blockHeight: null });
  });

  it('reads an id missing from the answer as not found', async () => {
    const h = await startHarness();
    const id = fakeContractId('left-out');
    h.fake.faults.once({ body: {} }, ROUTES.contractStatus);

    const status = (await h.client().getContractStatuses([id])).get(id);

    expect(status?.found).toBe(false);
  });

  it('fails a long list only once every batch has answered, none left in flight', async () => {
    const h = await startHarness();
    const ids = Array.from({ length: 250 }, (_, i) => fakeContractId(`batch-${i}`));
    h.fake.faults.once({ status: 400 }, ROUTES.contractStatus);
    h.fake.faults.times(2, { delayMs: 300 }, ROUTES.contractStatus);

    await rejectionOf(h.client().getContractStatuses(ids));

    expect(
      h.events
        .filter((e) => e.endpoint === 'GET /extended/v2/smart-contracts/status')
        .map((e) => e.status)
        .sort(),
    ).toEqual([200, 200, 400]);
  });

  it('sends nothing for an empty list', async () => {
    const h = await startHarness();

    expect((await h.client().getContractStatuses([])).size).toBe(0);
    expect(h.fake.count()).toBe(0);
  });
});
