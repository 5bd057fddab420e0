// The API lists the genesis boot-contract deploys under block 1 with repeated tx_index values and a `total`
// that counts fewer than it lists (testnet: 12 listed, total 5). Those blocks are read as listed, each
// transaction once; every later block is still checked against its total.
import { describe, expect, it } from 'vitest';
import { HiroInconsistentDataError } from '../../lambda/hiro';
import { deploy, fakeContractId, ROUTES } from '../support/fake-hiro';
import { rejectionOf, startHarness } from './harness';

type Listed = { tx_id: string; tx_index?: number; block?: { tx_index: number } };
type Page = { total: number; results: Listed[] };

/** What the real server answered for testnet's block 1: every deploy listed, some twice, under a smaller total. */
function asGenesisListing(body: unknown): unknown {
  const page = body as Page;
  const repeated = page.results.slice(0, 3).map((tx) => ({ ...tx }));
  return { ...page, total: page.results.length - 2, results: [...page.results, ...repeated] };
}

const deploys = (count: number) => Array.from({ length: count }, (_, i) => deploy({ contractId: fakeContractId(`boot-${i}`) }));

describe('reading a genesis-era block', () => {
  it('takes block 1 as listed through the v2 list: each transaction once, in tx_index order', async () => {
    const h = await startHarness();
    const genesis = h.fake.chain.mine(deploys(9));
    h.fake.faults.times(5, { transform: asGenesisListing }, ROUTES.blockTransactions);

    const read = await h.client().getBlock(genesis.height);

    expect(genesis.height).toBe(1);
    expect(read?.transactions.map((tx) => tx.txId)).toEqual(genesis.txs.map((tx) => tx.txId));
    expect(read?.header.txCount).toBe(9);
  });

  it('takes block 1 as listed through the v3 list too', async () => {
    const h = await startHarness();
    const genesis = h.fake.chain.mine(deploys(9));
    h.fake.retire(ROUTES.blockTransactions);
    h.fake.faults.use((request) => (request.route === ROUTES.v3BlockTransactions ? { transform: asGenesisListing } : undefined));

    const read = await h.client().getBlock(genesis.height);

    expect(read?.transactions.map((tx) => tx.txId)).toEqual(genesis.txs.map((tx) => tx.txId));
  });

  it('still refuses the same listing for a block past the genesis era', async () => {
    const h = await startHarness();
    h.fake.chain.mine(deploys(1));
    const later = h.fake.chain.mine(deploys(9));
    h.fake.faults.use((request) => (request.route === ROUTES.blockTransactions ? { transform: asGenesisListing } : undefined));

    const error = await rejectionOf(h.client().getBlock(later.height));

    expect(error).toBeInstanceOf(HiroInconsistentDataError);
  });
});

describe('a total no block could hold', () => {
  it('is refused after one request, naming the block and the count', async () => {
    const h = await startHarness();
    h.fake.chain.mine(deploys(1));
    const block = h.fake.chain.mine(deploys(3));
    h.fake.faults.use((request) =>
      request.route === ROUTES.blockTransactions ? { transform: (body) => ({ ...(body as Page), total: 10_000_000 }) } : undefined,
    );

    const error = await rejectionOf(h.client().getBlock(block.height));

    expect(error).toBeInstanceOf(HiroInconsistentDataError);
    expect(error.message).toContain(`block ${block.height} claims 10000000 transactions`);
    expect(h.fake.requestsTo(ROUTES.blockTransactions)).toHaveLength(1);
  });

  it('is refused on the v3 list before a second page is asked for', async () => {
    const h = await startHarness();
    h.fake.chain.mine(deploys(1));
    const block = h.fake.chain.mine(deploys(60));
    h.fake.retire(ROUTES.blockTransactions);
    h.fake.faults.use((request) =>
      request.route === ROUTES.v3BlockTransactions ? { transform: (body) => ({ ...(body as Page), total: 10_000_000 }) } : undefined,
    );

    const error = await rejectionOf(h.client().getBlock(block.height));

    expect(error.message).toContain('claims 10000000 transactions');
    expect(h.fake.requestsTo(ROUTES.v3BlockTransactions)).toHaveLength(1);
  });
});
