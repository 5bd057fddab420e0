// What balance rules read through the Hiro client: an address's balances at a past block (the one route that
// answers for one), the fee and the sponsor of each transaction, and stacking locks among the events.
import { describe, expect, it } from 'vitest';
import { contractCall, fakeAddress, fakeContractId, ftTransferEvent, ROUTES, stxLockEvent, stxTransferEvent } from '../support/fake-hiro';
import { rejectionOf, startHarness } from './harness';

const relayer = fakeAddress('relayer');
const sbtc = `${fakeContractId('sbtc-token')}::sbtc-token`;

describe('getBalances', () => {
  it('reads the STX (total and locked) and token balances after the block asked for, not at the tip', async () => {
    const h = await startHarness();
    h.fake.chain.setGenesisBalance(relayer, 'stx', 1_000_000);
    const first = h.fake.chain.mine([
      contractCall({
        contractId: fakeContractId('pool'),
        events: [stxLockEvent(relayer, 400_000, 999_999), ftTransferEvent(sbtc, fakeAddress('x'), relayer, 7)],
      }),
    ]);
    h.fake.chain.mine([contractCall({ contractId: fakeContractId('pool'), events: [stxTransferEvent(relayer, fakeAddress('x'), 100)] })]);

    const balances = await h.client().getBalances!(relayer, first.height);

    expect(balances).toEqual({ stxTotal: 1_000_000n, stxLocked: 400_000n, unlockBurnHeight: 999_999, fts: new Map([[sbtc, 7n]]) });
    const [request] = h.fake.requestsTo(ROUTES.balances);
    expect(request?.path).toBe(`/extended/v1/address/${relayer}/balances`);
    expect(request?.query.get('until_block')).toBe(String(first.height));
  });

  it('answers nothing held before block 1 without asking the API, which refuses until_block=0', async () => {
    const h = await startHarness();
    h.fake.chain.mine([]);

    const balances = await h.client().getBalances!(relayer, 0);

    expect(balances).toEqual({ stxTotal: 0n, stxLocked: 0n, unlockBurnHeight: null, fts: new Map() });
    expect(h.fake.count(ROUTES.balances)).toBe(0);
  });

  it('refuses a body whose balance is not a whole number of micro-STX, naming the field', async () => {
    const h = await startHarness();
    h.fake.chain.mine([]);
    h.fake.faults.once({ body: { stx: { balance: '12.5', locked: '0' }, fungible_tokens: {} } });

    const error = await rejectionOf(h.client().getBalances!(relayer, 1));

    expect(error.message).toContain('stx.balance');
  });
});

/** A sponsored call with a fee and an STX lock, mined and read back through the client with its events. */
async function readSponsoredLock(h: Awaited<ReturnType<typeof startHarness>>) {
  const call = contractCall({ contractId: fakeContractId('pool'), sender: fakeAddress('user'), events: [stxLockEvent(relayer, 5, 1234)] });
  const block = h.fake.chain.mine([{ ...call, feeRate: '777', sponsor: relayer }]);
  const client = h.client();
  const read = await client.getBlock(block.height);
  const tx = read!.transactions[0]!;
  const events = await client.getTransactionEvents([{ txId: tx.txId, eventCount: tx.eventCount }]);
  return { block, read, tx, events };
}

describe('what balance rules read of blocks', () => {
  it('gives each transaction its fee and its sponsor, and each lock among the events', async () => {
    const h = await startHarness();
    const { tx, events } = await readSponsoredLock(h);

    expect({ fee: tx.fee, sponsor: tx.sponsor }).toEqual({ fee: '777', sponsor: relayer });
    expect(events.get(tx.txId)?.locks).toEqual([{ eventIndex: 0, address: relayer, amount: '5', unlockBurnHeight: 1234 }]);
  });

  it('reads the same on the v3 routes, once the deprecated ones are retired: fee, sponsor, lock and Bitcoin height', async () => {
    const h = await startHarness();
    h.fake.retire(ROUTES.blockTransactions, ROUTES.txMultiple, ROUTES.block);
    const { block, read, tx, events } = await readSponsoredLock(h);

    expect({ fee: tx.fee, sponsor: tx.sponsor, burnHeight: read!.header.burnHeight }).toEqual({
      fee: '777',
      sponsor: relayer,
      burnHeight: block.burnBlockHeight,
    });
    expect(events.get(tx.txId)?.locks).toEqual([{ eventIndex: 0, address: relayer, amount: '5', unlockBurnHeight: 1234 }]);
  });
});
