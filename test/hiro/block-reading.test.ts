import { Cl } from '@stacks/transactions';
import { describe, expect, it } from 'vitest';
import { HiroInconsistentDataError } from '../../lambda/hiro';
import { coinbase, contractCall, deploy, fakeAddress, fakeContractId, ROUTES, transfer } from '../support/fake-hiro';
import { rejectionOf, startHarness } from './harness';

const alice = fakeAddress('alice');
const vault = fakeContractId('vault');

function transfers(count: number) {
  return Array.from({ length: count }, (_, i) => transfer({ to: alice, amount: 1_000 + i }));
}

describe('getBlock', () => {
  it('pages a block of 120 transactions in exactly 3 calls, none past total', async () => {
    const h = await startHarness();
    const block = h.fake.chain.mine(transfers(120));

    const read = await h.client().getBlock(block.height);

    expect(read?.transactions).toHaveLength(120);
    const pages = h.fake.requestsTo(ROUTES.blockTransactions);
    expect(pages.map((r) => r.query.get('offset')).sort()).toEqual(['0', '100', '50']);
  });

  it('never asks for more than 50 transactions per page', async () => {
    const h = await startHarness();
    const block = h.fake.chain.mine(transfers(75));

    await h.client().getBlock(block.height);

    const limits = h.fake.requestsTo(ROUTES.blockTransactions).map((r) => Number(r.query.get('limit')));
    expect(limits.length).toBeGreaterThan(0);
    expect(Math.max(...limits)).toBeLessThanOrEqual(50);
  });

  it('returns the transactions in tx_index order with the header taken from them', async () => {
    const h = await startHarness();
    const parent = h.fake.chain.mine([coinbase()]);
    const block = h.fake.chain.mine(transfers(60));

    const read = await h.client().getBlock(block.height);

    expect(read?.transactions.map((tx) => tx.txIndex)).toEqual([...Array(60).keys()]);
    expect(read?.header).toEqual({
      height: block.height,
      hash: block.hash,
      parentHash: parent.hash,
      time: block.time,
      txCount: 60,
      burnHeight: block.burnBlockHeight,
    });
  });

  it('maps a transfer to its token transfer and calls and deploys to their contract', async () => {
    const h = await startHarness();
    const block = h.fake.chain.mine([
      transfer({ to: alice, amount: '18446744073709551616', memo: 'rent' }),
      contractCall({ contractId: vault, logs: ['deposit'] }),
      deploy({ contractId: fakeContractId('token') }),
    ]);

    const [sent, call, deployed] = (await h.client().getBlock(block.height))!.transactions;

    expect(sent?.tokenTransfer).toEqual({
      recipient: alice,
      amount: '18446744073709551616',
      memo: `0x${Buffer.from('rent').toString('hex')}${'00'.repeat(30)}`,
    });
    expect(call).toMatchObject({ txType: 'contract_call', contractId: vault, eventCount: 1, txStatus: 'success' });
    expect(deployed).toMatchObject({ txType: 'smart_contract', contractId: fakeContractId('token') });
  });

  it("maps a contract call's function, its arguments' Clarity text and its result from the block's list alone", async () => {
    const h = await startHarness();
    const block = h.fake.chain.mine([
      contractCall({
        contractId: vault,
        functionName: 'withdraw',
        args: [Cl.uint(5), Cl.stringAscii('all')],
        result: Cl.error(Cl.uint(102)),
        status: 'abort_by_response',
      }),
    ]);

    const [call] = (await h.client().getBlock(block.height))!.transactions;

    expect(call?.contractCall).toEqual({ functionName: 'withdraw', args: ['u5', '"all"'], resultRepr: '(err u102)' });
  });

  it('reads an empty block (the API 404s its first page) as no transactions with its header', async () => {
    const h = await startHarness();
    h.fake.chain.mine([coinbase()]);
    const [empty] = h.fake.chain.mineEmpty(1);

    const read = await h.client().getBlock(empty!.height);

    expect(read).toEqual({
      header: { height: empty!.height, hash: empty!.hash, parentHash: empty!.parentHash, time: empty!.time, txCount: 0, burnHeight: empty!.burnBlockHeight },
      transactions: [],
    });
    expect(h.fake.count(ROUTES.block)).toBe(1);
  });

  it('returns null for a height above the tip', async () => {
    const h = await startHarness();
    h.fake.chain.mine([coinbase()]);

    expect(await h.client().getBlock(99)).toBeNull();
  });

  it('refuses a block whose total changes between pages', async () => {
    const h = await startHarness();
    h.fake.chain.mine(); // past the genesis era, whose listing is taken as it comes
    const block = h.fake.chain.mine(transfers(120));
    h.fake.faults.once(
      { transform: (body) => ({ ...(body as object), total: 121 }) },
      (r) => r.route === ROUTES.blockTransactions && r.query.get('offset') === '50',
    );

    const error = await rejectionOf(h.client().getBlock(block.height));

    expect(error).toBeInstanceOf(HiroInconsistentDataError);
    expect(error.message).toContain('total changed from 120 to 121');
  });

  it('refuses a block replaced while its pages were read (two block hashes)', async () => {
    const h = await startHarness();
    h.fake.chain.mine([coinbase()]);
    const block = h.fake.chain.mine(transfers(80));
    h.fake.faults.once(
      {
        transform: (body) => {
          const page = body as { results: { block_hash: string }[] };
          page.results[0]!.block_hash = `0x${'ab'.repeat(32)}`;
          return page;
        },
      },
      (r) => r.route === ROUTES.blockTransactions && r.query.get('offset') === '50',
    );

    const error = await rejectionOf(h.client().getBlock(block.height));

    expect(error).toBeInstanceOf(HiroInconsistentDataError);
    expect(error.message).toContain('two block hashes');
  });

  it('refuses transactions that belong to another height', async () => {
    const h = await startHarness();
    const block = h.fake.chain.mine(transfers(3));
    h.fake.faults.once({
      transform: (body) => {
        const page = body as { results: { block_height: number }[] };
        page.results[2]!.block_height = block.height + 1;
        return page;
      },
    });

    const error = await rejectionOf(h.client().getBlock(block.height));

    expect(error.message).toContain(`is from block ${block.height + 1}`);
  });

  it('refuses a block with a duplicated tx_index', async () => {
    const h = await startHarness();
    h.fake.chain.mine(); // past the genesis era, whose listing is taken as it comes
    const block = h.fake.chain.mine(transfers(3));
    h.fake.faults.once({
      transform: (body) => {
        const page = body as { results: { tx_index: number }[] };
        page.results[2]!.tx_index = 1;
        return page;
      },
    });

    const error = await rejectionOf(h.client().getBlock(block.height));

    expect(error.message).toContain('tx_index 1 appears twice');
  });

  it('refuses a block carrying the same tx_id twice, naming the block and the transaction, as retryable', async () => {
    const h = await startHarness();
    h.fake.chain.mine(); // past the genesis era, whose listing is taken as it comes
    const block = h.fake.chain.mine(transfers(60));
    let repeated = '';
    // The second page repeats a transaction of the first under another tx_index.
    h.fake.faults.once(
      {
        transform: (body) => {
          const page = body as { results: { tx_id: string }[] };
          repeated = block.txs[3]!.txId;
          page.results[4]!.tx_id = repeated;
          return page;
        },
      },
      /offset=50/,
    );

    const error = await rejectionOf(h.client().getBlock(block.height));

    expect(error).toBeInstanceOf(HiroInconsistentDataError);
    expect(error.message).toContain(`transaction ${repeated} appears twice in block ${block.height} (tx_index 3 and 54)`);
    expect(error.message).toContain('the next run reads the block again');
  });

  it('refuses a page with fewer transactions than total promises', async () => {
    const h = await startHarness();
    h.fake.chain.mine(); // past the genesis era, whose listing is taken as it comes
    const block = h.fake.chain.mine(transfers(3));
    h.fake.faults.once({
      transform: (body) => {
        const page = body as { results: unknown[] };
        page.results.pop();
        return page;
      },
    });

    const error = await rejectionOf(h.client().getBlock(block.height));

    expect(error.message).toContain('has 2 transactions; total 3 means 3');
  });

  it('refuses an empty first page for a block whose header counts transactions', async () => {
    const h = await startHarness();
    const block = h.fake.chain.mine(transfers(2));
    h.fake.faults.once({ status: 404, body: { statusCode: 404, error: 'Not Found', message: 'Block not found' } }, ROUTES.blockTransactions);

    const error = await rejectionOf(h.client().getBlock(block.height));

    expect(error).toBeInstanceOf(HiroInconsistentDataError);
    expect(error.message).toContain('tx_count 2');
  });
});

describe('getBlockHeader', () => {
  it('reads a header by height and by hash', async () => {
    const h = await startHarness();
    const block = h.fake.chain.mine(transfers(4));
    const client = h.client();

    const byHeight = await client.getBlockHeader(block.height);
    const byHash = await client.getBlockHeader(block.hash);

    const expected = { height: block.height, hash: block.hash, parentHash: block.parentHash, time: block.time, txCount: 4, burnHeight: block.burnBlockHeight };
    expect(byHeight).toEqual(expected);
    expect(byHash).toEqual(expected);
  });

  it('returns null for an unknown block', async () => {
    const h = await startHarness();

    expect(await h.client().getBlockHeader(`0x${'cd'.repeat(32)}`)).toBeNull();
  });

  it('refuses a hash that is not 64 hex digits before sending anything', async () => {
    const h = await startHarness();

    await expect(h.client().getBlockHeader('../extended')).rejects.toThrow(/64 hex digits/);
    expect(h.fake.count()).toBe(0);
  });
});
