// The per-subject routes, none of them deprecated: a watched contract's logs, a tracked principal's
// transactions, transfers and balances, the transaction batch that places logs in blocks, and the header
// chain. Each page bounded, each answer checked (a malformed one refused naming its route), each request
// counted, and a route the API lacks told apart from a cursor it no longer knows.
import { describe, expect, it } from 'vitest';
import { HiroResponseError } from '../../lambda/hiro';
import { contractCall, fakeAddress, fakeContractId, ftTransferEvent, ROUTES, stxTransferEvent, transfer } from '../support/fake-hiro';
import { rejectionOf, startHarness } from './harness';

const alice = fakeAddress('alice');
const bob = fakeAddress('bob');
const vault = fakeContractId('vault');
const token = `${fakeContractId('coin')}::coin`;
const ALL_DEPRECATED = [ROUTES.blockTransactions, ROUTES.txMultiple, ROUTES.block, ROUTES.balances];

describe('a watched contract’s logs', () => {
  it('pages from the newest log down by the older cursor, 100 a request, whatever the deprecated routes answer', async () => {
    const h = await startHarness();
    const blocks = Array.from({ length: 3 }, (_, b) =>
      h.fake.chain.mine([contractCall({ contractId: vault, logs: Array.from({ length: 60 }, (_, i) => `log-${b}-${i}`) })]),
    );
    h.fake.retire(...ALL_DEPRECATED);
    const feeds = h.client().subjects;

    const first = await feeds.contractLogs(vault, null);
    if (first.kind !== 'page') throw new Error(first.kind);
    const second = await feeds.contractLogs(vault, first.page.older!.cursor);
    if (second.kind !== 'page') throw new Error(second.kind);

    expect(first.page.items).toHaveLength(100);
    expect(first.page.items[0]).toEqual({
      txId: blocks[2]!.txs[0]!.txId,
      log: expect.objectContaining({ eventIndex: 59, contractId: vault, valueRepr: '"log-2-59"' }),
    });
    expect(first.page.at).toEqual({ height: blocks[2]!.height, txIndex: 0, eventIndex: 59 });
    expect(first.page.older?.at).toEqual({ height: blocks[1]!.height, txIndex: 0, eventIndex: 19 });
    expect(second.page.items.map((item) => item.log.valueRepr)).toEqual(
      Array.from({ length: 80 }, (_, i) => `"log-${i < 20 ? 1 : 0}-${i < 20 ? 19 - i : 79 - i}"`),
    );
    expect(second.page.older).toBeNull();
    expect(h.fake.requestsTo(ROUTES.contractLogs).map((r) => r.query.get('limit'))).toEqual(['100', '100']);
  });

  it('says what tip a page reflects (its ETag is the tip’s index hash) and answers not-modified while the tip stays', async () => {
    const h = await startHarness();
    h.fake.chain.mine([contractCall({ contractId: vault, logs: ['one'] })]);
    const feeds = h.client().subjects;

    const page = await feeds.contractLogs(vault, null);
    const again = await feeds.contractLogs(vault, null, h.fake.chain.tip!.indexBlockHash);
    h.fake.chain.mine([]);
    const moved = await feeds.contractLogs(vault, null, h.fake.chain.block(1)!.indexBlockHash);

    expect(page.kind === 'page' && page.page.etag).toBe(h.fake.chain.block(1)!.indexBlockHash);
    expect(again).toEqual({ kind: 'not-modified' });
    expect(moved.kind === 'page' && moved.page.etag).toBe(h.fake.chain.tip!.indexBlockHash);
    expect(h.fake.requestsTo(ROUTES.contractLogs)[1]!.headers['if-none-match']).toBe(`"${h.fake.chain.block(1)!.indexBlockHash}"`);
  });

  it('tells a cursor the API no longer knows from a route the API does not have', async () => {
    const h = await startHarness();
    h.fake.chain.mine([contractCall({ contractId: vault, logs: ['one'] })]);
    const older = await startHarness({ subjectRoutes: 'absent' });
    older.fake.chain.mine([]);

    expect(await h.client().subjects.contractLogs(vault, '0:0:0:0')).toEqual({ kind: 'unknown-cursor', route: ROUTES.contractLogs });
    expect(await older.client().subjects.contractLogs(vault, null)).toEqual({ kind: 'missing', route: ROUTES.contractLogs });
  });

  it('refuses a malformed page naming the route and the field', async () => {
    const h = await startHarness();
    h.fake.chain.mine([contractCall({ contractId: vault, logs: ['one'] })]);
    h.fake.faults.once(
      { transform: (body) => ({ ...(body as object), results: [{ event_index: 0, event_type: 'smart_contract_log', tx_id: 42 }] }) },
      ROUTES.contractLogs,
    );

    const error = await rejectionOf(h.client().subjects.contractLogs(vault, null));

    expect(error).toBeInstanceOf(HiroResponseError);
    expect(error.message).toContain(`GET /extended/v2/smart-contracts/${vault}/logs`);
    expect(error.message).toContain('results[0].tx_id');
  });
});

describe('a tracked principal’s transactions', () => {
  it('lists every transaction that moves its value, newest first with its block, and answers not-modified by ETag', async () => {
    const h = await startHarness();
    const sent = h.fake.chain.mine([transfer({ from: alice, to: bob, amount: 10 })]);
    h.fake.chain.mine([transfer({ from: bob, to: fakeAddress('carol'), amount: 5 })]);
    const payout = h.fake.chain.mine([contractCall({ contractId: vault, events: [stxTransferEvent(vault, alice, 7)] })]);
    const feeds = h.client().subjects;

    const page = await feeds.principalTransactions(alice, null);
    if (page.kind !== 'page') throw new Error(page.kind);
    const again = await feeds.principalTransactions(alice, null, page.page.etag!);

    expect(page.page.items.map((item) => [item.block, item.transaction.txId])).toEqual([
      [{ height: payout.height, hash: payout.hash }, payout.txs[0]!.txId],
      [{ height: sent.height, hash: sent.hash }, sent.txs[0]!.txId],
    ]);
    expect(page.page.older).toBeNull();
    expect(again).toEqual({ kind: 'not-modified' });
    expect(h.fake.requestsTo(ROUTES.principalTransactions)[0]!.query.get('limit')).toBe('50');
  });

  it('refuses a row whose transaction lacks its block, naming the route', async () => {
    const h = await startHarness();
    h.fake.chain.mine([transfer({ from: alice, to: bob, amount: 10 })]);
    h.fake.faults.once(
      { transform: (body) => ({ ...(body as object), results: [{ transaction: { tx_id: '0x01' }, involvement: 'sender', balance_changes: {} }] }) },
      ROUTES.principalTransactions,
    );

    const error = await rejectionOf(h.client().subjects.principalTransactions(alice, null));

    expect(error.message).toContain(`GET /extended/v3/principals/${alice}/transactions`);
  });
});

describe('the transaction batch', () => {
  it('says the batch route is missing when the API answers it 404 (an API older than it), rather than failing the read', async () => {
    const h = await startHarness({ subjectRoutes: 'absent' });
    const block = h.fake.chain.mine([transfer({ to: alice, amount: 1 })]);
    expect(await h.client().subjects.transactions([block.txs[0]!.txId])).toEqual({ missing: ROUTES.transactionBatch });
  });

  it('places transactions in their blocks, 50 ids a request, and leaves out those the API does not know', async () => {
    const h = await startHarness();
    const block = h.fake.chain.mine(Array.from({ length: 60 }, (_, i) => transfer({ to: alice, amount: 1 + i })));
    h.fake.retire(...ALL_DEPRECATED);
    const ids = [...block.txs.map((tx) => tx.txId), `0x${'ab'.repeat(32)}`];

    const found = await h.client().subjects.transactions(ids);
    if (!(found instanceof Map)) throw new Error(`the batch route is missing: ${found.missing}`);

    expect(found.size).toBe(60);
    expect(found.get(block.txs[59]!.txId)).toMatchObject({
      block: { height: block.height, hash: block.hash },
      transaction: { txIndex: 59, tokenTransfer: { amount: '60' } },
    });
    expect(h.fake.count(ROUTES.transactionBatch)).toBe(2);
  });

  it('refuses an answer naming a transaction not asked for', async () => {
    const h = await startHarness();
    const [one, other] = h.fake.chain.mine([transfer({ to: alice, amount: 1 }), transfer({ to: alice, amount: 2 })]).txs;
    const otherAnswer: unknown = await fetch(`${h.url}/extended/v3/transactions/batch?tx_id=${other!.txId}`).then((r) => r.json());
    h.fake.faults.once({ body: otherAnswer }, ROUTES.transactionBatch);

    const error = await rejectionOf(h.client().subjects.transactions([one!.txId]));

    expect(error.message).toContain('GET /extended/v3/transactions/batch');
    expect(error.message).toContain(`answered transaction ${other!.txId}, which was not asked for`);
  });
});

describe('the header chain', () => {
  it('reads the headers from the tip down to a height, 30 a request, ascending, each with its parent and index hash', async () => {
    const h = await startHarness();
    const blocks = Array.from({ length: 70 }, () => h.fake.chain.mine([]));
    h.fake.retire(...ALL_DEPRECATED);

    const chain = await h.client().subjects.headerChain(20);

    expect(chain?.map((header) => header.height)).toEqual(Array.from({ length: 51 }, (_, i) => 20 + i));
    expect(chain?.[10]).toEqual({
      height: 30,
      hash: blocks[29]!.hash,
      parentHash: blocks[28]!.hash,
      indexHash: blocks[29]!.indexBlockHash,
      time: blocks[29]!.time,
      txCount: 0,
      burnHeight: blocks[29]!.burnBlockHeight,
    });
    expect(h.fake.count(ROUTES.v3Blocks)).toBe(2);
  });

  it('answers null on an API without the v3 block list', async () => {
    const h = await startHarness({ v3BlockShape: 'absent' });
    h.fake.chain.mine([]);

    expect(await h.client().subjects.headerChain(1)).toBeNull();
  });
});

describe('a principal’s transfers and balances', () => {
  it('lists STX in and out with memo and block, tokens by asset, and null before API 9.1.0', async () => {
    const h = await startHarness();
    const block = h.fake.chain.mine([
      transfer({ from: bob, to: alice, amount: 10, memo: 'rent' }),
      contractCall({ contractId: vault, events: [ftTransferEvent(token, alice, bob, 3)] }),
    ]);
    const older = await startHarness({ subjectRoutes: 'before-9.1' });
    const feeds = h.client().subjects;

    const inbound = await feeds.stxTransfers(alice, 'inbound', null);
    const outbound = await feeds.stxTransfers(alice, 'outbound', null);
    const tokens = await feeds.ftTransfers(alice, token, null);

    expect(inbound?.rows).toEqual([
      {
        txId: block.txs[0]!.txId,
        eventIndex: 0,
        block: { height: block.height, hash: block.hash, txIndex: 0, time: block.time },
        sender: bob,
        recipient: alice,
        amount: '10',
        memo: expect.stringMatching(/^0x72656e74/),
      },
    ]);
    expect(outbound?.rows).toEqual([]);
    expect(tokens?.rows).toMatchObject([{ txId: block.txs[1]!.txId, sender: alice, recipient: bob, amount: '3', assetId: token }]);
    expect(await older.client().subjects.stxTransfers(alice, 'inbound', null)).toBeNull();
  });

  it('reads the balances now, STX with its locked part and every token page', async () => {
    const h = await startHarness();
    h.fake.chain.setGenesisBalance(alice, 'stx', 1_000_000);
    h.fake.chain.setGenesisBalance(alice, token, 500);
    h.fake.chain.mine([transfer({ from: alice, to: bob, amount: 1_000 })]);
    h.fake.retire(...ALL_DEPRECATED);
    const feeds = h.client().subjects;

    expect(await feeds.stxBalance(alice)).toEqual({ total: 1_000_000n - 1_000n - 3_000n, locked: 0n, unlockBurnHeight: null });
    expect(await feeds.ftBalances(alice)).toEqual(new Map([[token, 500n]]));
  });

  it('counts every request in the client’s budget', async () => {
    const h = await startHarness();
    h.fake.chain.mine([contractCall({ contractId: vault, logs: ['x'] })]);
    const client = h.client();

    await client.subjects.contractLogs(vault, null);
    await client.subjects.principalTransactions(alice, null);
    await client.subjects.stxBalance(alice);

    expect(client.stats().byEndpoint).toEqual({ [ROUTES.contractLogs]: 1, [ROUTES.principalTransactions]: 1, [ROUTES.stxBalance]: 1 });
  });
});
