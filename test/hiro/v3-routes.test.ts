// The client once Hiro retires its deprecated routes: a 410 switches it to the v3 successors for good, whose
// answers it reads in their own shapes (cursor pages, descending tx_index, events per transaction) and
// checks as strictly as the v2 ones; and the deprecation warnings it sees, for the cycle to report.
import { describe, expect, it } from 'vitest';
import { HiroBadRequestError, HiroInconsistentDataError, HiroResponseError } from '../../lambda/hiro';
import { UNKNOWN_BLOCK_HASH } from '../../lambda/core/domain';
import { Cl } from '@stacks/transactions';
import { coinbase, contractCall, fakeAddress, fakeContractId, ftAssetEvent, nftAssetEvent, ROUTES, stxTransferEvent, transfer } from '../support/fake-hiro';
import { rejectionOf, startHarness } from './harness';

const alice = fakeAddress('alice');
const vault = fakeContractId('vault');
const transfers = (count: number) => Array.from({ length: count }, (_, i) => transfer({ to: alice, amount: 1_000 + i }));

describe('getBlock once the v2 transaction list answers 410', () => {
  it('reads a block of 120 transactions over 3 v3 cursor pages and returns them in ascending tx_index', async () => {
    const h = await startHarness();
    const parent = h.fake.chain.mine([coinbase()]);
    const block = h.fake.chain.mine(transfers(120));
    h.fake.retire(ROUTES.blockTransactions);

    const read = await h.client().getBlock(block.height);

    expect(read?.transactions.map((tx) => tx.txIndex)).toEqual([...Array(120).keys()]);
    expect(read?.transactions[5]).toMatchObject({ txId: block.txs[5]!.txId, eventCount: 1, tokenTransfer: { recipient: alice, amount: '1005' } });
    // The v2 header still answers, and gives the parent hash the v3 list lacks.
    expect(read?.header).toEqual({
      height: block.height,
      hash: block.hash,
      parentHash: parent.hash,
      time: block.time,
      txCount: 120,
      burnHeight: block.burnBlockHeight,
    });
    const pages = h.fake.requestsTo(ROUTES.v3BlockTransactions);
    expect(pages.map((r) => r.query.get('cursor'))).toEqual([null, `${block.height}:2147483647:69`, `${block.height}:2147483647:19`]);
    expect(pages.every((r) => r.query.get('limit') === '50')).toBe(true);
  });

  it('tells an existing empty block (200, no results) from no block at all (404) on an API without v3 block routes', async () => {
    const h = await startHarness({ v3BlockShape: 'absent' });
    h.fake.chain.mine([coinbase()]);
    const [empty] = h.fake.chain.mineEmpty(1);
    h.fake.retire(ROUTES.blockTransactions, ROUTES.block);
    const client = h.client();
    await client.getBlock(1);

    const read = await client.getBlock(empty!.height);
    const above = await client.getBlock(empty!.height + 1);

    expect(read).toEqual({
      header: { height: empty!.height, hash: UNKNOWN_BLOCK_HASH, parentHash: null, time: h.fake.chain.block(1)!.time, txCount: 0 },
      transactions: [],
    });
    expect(above).toBeNull();
  });

  it('builds the header from the transactions, with no parent hash, once block headers answer 410 on an API without v3 block routes', async () => {
    const h = await startHarness({ v3BlockShape: 'absent' });
    h.fake.chain.mine([coinbase()]);
    const block = h.fake.chain.mine(transfers(3));
    h.fake.retire(ROUTES.blockTransactions, ROUTES.block);
    const client = h.client();
    await client.getBlock(1);

    const read = await client.getBlock(block.height);

    expect(read?.header).toEqual({ height: block.height, hash: block.hash, parentHash: null, time: block.time, txCount: 3, burnHeight: block.burnBlockHeight });
    // Its 410 came once, on the first block; from then on the header comes from the list alone.
    expect(h.fake.count(ROUTES.block)).toBe(1);
    expect(h.fake.requestsTo(ROUTES.v3BlockTransactions).filter((r) => r.path.includes(`/${block.height}/`))).toHaveLength(1);
  });

  it('refuses a block whose v3 pages disagree on total, naming the v3 request', async () => {
    const h = await startHarness();
    h.fake.chain.mine(); // past the genesis era, whose listing is taken as it comes
    const block = h.fake.chain.mine(transfers(60));
    h.fake.retire(ROUTES.blockTransactions);
    h.fake.faults.once({ transform: (b) => ({ ...(b as object), total: 61 }) }, (r) => r.route === ROUTES.v3BlockTransactions && r.query.has('cursor'));

    const error = await rejectionOf(h.client().getBlock(block.height));

    expect(error).toBeInstanceOf(HiroInconsistentDataError);
    expect(error.message).toMatch(/GET \/extended\/v3\/blocks\/2\/transactions\?limit=50&cursor=.*total changed from 60 to 61/);
  });

  it('refuses a block whose cursor never ends instead of paging for ever', async () => {
    const h = await startHarness();
    h.fake.chain.mine(); // past the genesis era, whose listing is taken as it comes
    const block = h.fake.chain.mine(transfers(60));
    h.fake.retire(ROUTES.blockTransactions);
    const first = `${block.height}:2147483647:59`;
    h.fake.faults.use((r) =>
      r.route === ROUTES.v3BlockTransactions
        ? { transform: (b) => ({ ...(b as object), cursor: { next: first, previous: null, current: first } }) }
        : undefined,
    );

    const error = await rejectionOf(h.client().getBlock(block.height));

    expect(error).toBeInstanceOf(HiroInconsistentDataError);
    expect(error.message).toContain('names a next page after 100 of its 60 transactions');
  });

  it('finds a block hash still canonical or not through the v3 transaction list when headers are retired and no v3 block route exists', async () => {
    const h = await startHarness({ v3BlockShape: 'absent' });
    const old = h.fake.chain.mine([coinbase()]);
    h.fake.retire(ROUTES.block);
    const client = h.client();
    expect(await client.getBlockHeader(old.hash)).toMatchObject({ height: 1, hash: old.hash, parentHash: null });

    h.fake.chain.reorg(1, [[coinbase()]]);

    expect(await client.getBlockHeader(old.hash)).toBeNull();
  });
});

describe('getTransactionEvents once /tx/multiple answers 410', () => {
  it('reads every page of every transaction from the v3 events route, logs in event order', async () => {
    const h = await startHarness();
    const block = h.fake.chain.mine([
      contractCall({ contractId: vault, logs: Array.from({ length: 250 }, (_, i) => `log-${i}`) }),
      transfer({ to: alice, amount: 1 }),
    ]);
    h.fake.retire(ROUTES.txMultiple);
    const [call, send] = block.txs;

    const events = await h.client().getTransactionEvents([
      { txId: call!.txId, eventCount: null },
      { txId: send!.txId, eventCount: null },
    ]);

    expect(events.get(call!.txId)!.logs.map((l) => l.eventIndex)).toEqual([...Array(250).keys()]);
    expect(events.get(call!.txId)!.logs[249]).toMatchObject({ contractId: vault, topic: 'print' });
    expect(events.get(send!.txId)!.logs).toEqual([]);
    const calls = h.fake.requestsTo(ROUTES.v3TransactionEvents).filter((r) => r.path.includes(call!.txId));
    expect(calls.map((r) => r.query.get('cursor'))).toEqual([null, '100', '200']);
  });

  it('reads the asset movements beside the logs, across pages, the same as /tx/multiple gives, one request a page', async () => {
    const h = await startHarness();
    const sbtc = `${fakeContractId('sbtc-token')}::sbtc-token`;
    const punks = `${fakeContractId('punks')}::punk`;
    const bob = fakeAddress('bob');
    const block = h.fake.chain.mine([
      contractCall({
        contractId: vault,
        events: [
          ...Array.from({ length: 120 }, (_, i) => stxTransferEvent(bob, alice, i + 1, i === 110 ? '0x6d656d6f' : undefined)),
          ftAssetEvent(sbtc, { action: 'mint', to: alice }, 50_000_000),
          nftAssetEvent(punks, { action: 'burn', from: bob }, Cl.uint(42)),
        ],
        logs: ['paid'],
      }),
      transfer({ to: alice, amount: 1 }),
    ]);
    const txs = block.txs.map((tx) => ({ txId: tx.txId, eventCount: null }));
    const fromV1 = await h.client().getTransactionEvents(txs);
    h.fake.retire(ROUTES.txMultiple);
    h.fake.clearLog();

    const fromV3 = await h.client().getTransactionEvents(txs);

    expect(fromV3).toEqual(fromV1);
    const call = fromV3.get(block.txs[0]!.txId)!;
    expect(call.assets).toHaveLength(122);
    expect(call.assets[110]).toMatchObject({ asset: 'stx', amount: '111', memo: '0x6d656d6f' });
    expect(call.assets.slice(120)).toMatchObject([
      { asset: 'ft', action: 'mint', assetId: sbtc, sender: null, recipient: alice },
      { asset: 'nft', action: 'burn', assetId: punks, sender: bob, recipient: null, valueRepr: 'u42' },
    ]);
    expect(fromV3.get(block.txs[1]!.txId)!.assets).toMatchObject([{ asset: 'stx', recipient: alice, amount: '1' }]);
    // Two pages for the call, one for the transfer: the assets cost no request of their own.
    expect(h.fake.count(ROUTES.v3TransactionEvents)).toBe(3);
  });

  it('refuses an events page whose movement lacks its recipient, naming the v3 request and the field', async () => {
    const h = await startHarness();
    const block = h.fake.chain.mine([contractCall({ contractId: vault, events: [stxTransferEvent(fakeAddress('bob'), alice, 5)] })]);
    h.fake.retire(ROUTES.txMultiple);
    const dropRecipient = (body: unknown) => {
      const page = body as { results: { stx_asset: Record<string, unknown> }[] };
      delete page.results[0]!.stx_asset.recipient;
      return page;
    };
    h.fake.faults.use((r) => (r.route === ROUTES.v3TransactionEvents ? { transform: dropRecipient } : undefined));

    const error = await rejectionOf(h.client().getTransactionEvents([{ txId: block.txs[0]!.txId, eventCount: null }]));

    expect(error).toBeInstanceOf(HiroResponseError);
    expect(error.message).toContain(`GET /extended/v3/transactions/${block.txs[0]!.txId}/events`);
    expect(error.message).toContain('results[0].stx_asset.recipient: missing for a transfer stx_asset event');
  });

  it('refuses an events cursor that does not move past the page', async () => {
    const h = await startHarness();
    const block = h.fake.chain.mine([contractCall({ contractId: vault, logs: Array.from({ length: 150 }, (_, i) => `log-${i}`) })]);
    h.fake.retire(ROUTES.txMultiple);
    h.fake.faults.use((r) =>
      r.route === ROUTES.v3TransactionEvents ? { transform: (b) => ({ ...(b as object), cursor: { next: '0', previous: null, current: '0' } }) } : undefined,
    );

    const error = await rejectionOf(h.client().getTransactionEvents([{ txId: block.txs[0]!.txId, eventCount: null }]));

    expect(error).toBeInstanceOf(HiroInconsistentDataError);
    expect(error.message).toContain('name next cursor 0 after event 99');
  });

  it('reads a transaction the API calls not canonical (400) as an inconsistent answer, tried again next run', async () => {
    const h = await startHarness();
    const block = h.fake.chain.mine([contractCall({ contractId: vault, logs: ['x'] })]);
    h.fake.retire(ROUTES.txMultiple);
    h.fake.chain.reorg(1, [[coinbase()]]);

    const error = await rejectionOf(h.client().getTransactionEvents([{ txId: block.txs[0]!.txId, eventCount: null }]));

    expect(error).toBeInstanceOf(HiroInconsistentDataError);
    expect(error.message).toContain(`transaction ${block.txs[0]!.txId} is in a block the API listed`);
  });

  it('keeps any other 400 a rejected request', async () => {
    const h = await startHarness();
    const block = h.fake.chain.mine([contractCall({ contractId: vault, logs: ['x'] })]);
    h.fake.retire(ROUTES.txMultiple);
    h.fake.faults.use((r) =>
      r.route === ROUTES.v3TransactionEvents ? { status: 400, body: { error: 'Bad Request', message: 'querystring/limit must be <= 100' } } : undefined,
    );

    const error = await rejectionOf(h.client().getTransactionEvents([{ txId: block.txs[0]!.txId, eventCount: 1 }]));

    expect(error).toBeInstanceOf(HiroBadRequestError);
  });
});

describe('deprecation warnings', () => {
  it('lists each route that answered with a 299 warning once, with the warning, until taken', async () => {
    const h = await startHarness();
    h.fake.chain.mine(transfers(60));
    const client = h.client();
    await client.getBlock(1);
    await client.getBlock(1);

    expect(client.takeApiDeprecations()).toEqual([
      {
        route: ROUTES.blockTransactions,
        replacement: ROUTES.v3BlockTransactions,
        replacementNamedByApi: true,
        gone: false,
        detail: '299 - "Deprecated: use GET /extended/v3/blocks/{height_or_hash}/transactions instead"',
      },
    ]);
    expect(client.takeApiDeprecations()).toEqual([]);
  });

  it('ignores warnings that are not deprecations (warn-codes other than 299)', async () => {
    const h = await startHarness();
    h.fake.chain.mine(transfers(1));
    h.fake.faults.use(() => ({ headers: { warning: '110 - "Response is Stale"' } }));
    const client = h.client();

    await client.getBlock(1);

    expect(client.takeApiDeprecations()).toEqual([]);
  });

  it('lists a retired route in every take, with its replacement, and never asks it again', async () => {
    const h = await startHarness();
    h.fake.chain.mine([contractCall({ contractId: vault, logs: ['x'] })]);
    h.fake.retire(ROUTES.txMultiple);
    const client = h.client();
    const txs = [{ txId: h.fake.chain.block(1)!.txs[0]!.txId, eventCount: 1 }];
    await client.getTransactionEvents(txs);
    expect(client.takeApiDeprecations()).toMatchObject([{ route: ROUTES.txMultiple, gone: true, replacement: ROUTES.v3TransactionEvents }]);

    await client.getTransactionEvents(txs);

    expect(client.takeApiDeprecations()).toMatchObject([{ route: ROUTES.txMultiple, gone: true }]);
    expect(h.fake.count(ROUTES.txMultiple)).toBe(1);
  });
});
