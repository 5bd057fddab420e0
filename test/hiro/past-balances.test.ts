// A past balance once Hiro has retired the v1 balances route (410): the balance now (v3 balance routes) less
// the principal's changes since the block (its v3 transactions' STX changes, fees included; its token
// transfers), exact in base units, or a BalanceUnavailableError naming why it cannot be rebuilt.
import { describe, expect, it } from 'vitest';
import { BalanceUnavailableError } from '../../lambda/core/domain';
import { MAX_CHANGE_PAGES } from '../../lambda/hiro/past-balances';
import { coinbase, contractCall, fakeAddress, fakeContractId, ftTransferEvent, ROUTES, stxLockEvent, stxTransferEvent, transfer } from '../support/fake-hiro';
import { balancesAt } from '../support/fake-hiro/balances';
import { rejectionOf, startHarness } from './harness';

const holder = fakeAddress('holder');
const other = fakeAddress('other');
const pool = fakeContractId('pool');
const sbtc = `${fakeContractId('sbtc-token')}::sbtc-token`;
const pay = (fee: number, sponsor?: string) => ({
  ...contractCall({ contractId: pool, sender: sponsor ? other : holder }),
  feeRate: String(fee),
  ...(sponsor ? { sponsor } : {}),
});

async function retiredHarness(options: Parameters<typeof startHarness>[0] = {}) {
  const h = await startHarness(options);
  h.fake.retire(ROUTES.balances);
  return h;
}

describe('getBalances with the v1 balances route retired', () => {
  it('gives at every past height what the v1 route gave: fees (sponsored too, failed too), transfers, token movements', async () => {
    const h = await retiredHarness();
    const { chain } = h.fake;
    chain.setGenesisBalance(holder, 'stx', 9_000_000);
    chain.setGenesisBalance(holder, sbtc, 50);
    chain.mine([pay(3_000), transfer({ from: holder, to: other, amount: 1_000 })]);
    chain.mine([{ ...pay(5_000), txStatus: 'abort_by_response' as const }, pay(7_000, holder)]);
    chain.mine([contractCall({ contractId: pool, events: [ftTransferEvent(sbtc, other, holder, 25), stxTransferEvent(other, holder, 4_000)] })]);
    chain.mine([transfer({ from: other, to: holder, amount: 333 }), contractCall({ contractId: pool, events: [ftTransferEvent(sbtc, holder, other, 10)] })]);
    const client = h.client();
    for (let at = 1; at <= chain.height; at += 1) {
      const held = balancesAt(chain, holder, at);
      const read = await client.getBalances!(holder, at, ['stx', sbtc]);
      expect({ ...read, requests: undefined }).toEqual({
        stxTotal: held.stx,
        stxLocked: 0n,
        unlockBurnHeight: null,
        fts: new Map([[sbtc, held.fts.get(sbtc)]]),
        requests: undefined,
      });
    }
    // Asked once: the 410 retires the route for the client's life.
    expect(h.fake.count(ROUTES.balances)).toBe(1);
  });

  it('costs three requests for an STX rule whose principal fits one page of changes, and says so', async () => {
    const h = await retiredHarness();
    h.fake.chain.setGenesisBalance(holder, 'stx', 10_000);
    h.fake.chain.mine([pay(1_000)]);
    h.fake.chain.mine([pay(1_000)]);
    const client = h.client();
    await client.getBalances!(holder, 1, ['stx']); // the 410 first
    h.fake.clearLog();
    const read = await client.getBalances!(holder, 1, ['stx']);
    expect(read.stxTotal).toBe(9_000n);
    expect(read.requests).toBe(3);
    expect(h.fake.counts()).toEqual({ [ROUTES.principalTransactions]: 2, [ROUTES.stxBalance]: 1 });
  });

  it('reads the balance again when the principal moved while it was read, so the balance and the changes describe one chain', async () => {
    const h = await retiredHarness();
    const { chain } = h.fake;
    chain.setGenesisBalance(holder, 'stx', 10_000);
    chain.mine([pay(1_000)]);
    let moved = false;
    h.fake.faults.use((request) => {
      if (request.route === ROUTES.stxBalance && !moved) {
        moved = true;
        chain.mine([pay(2_000)]); // after the first page, before the balance
      }
      return undefined;
    });
    const read = await h.client().getBalances!(holder, 1, ['stx']);
    expect(read.stxTotal).toBe(9_000n);
    expect(h.fake.count(ROUTES.stxBalance)).toBe(2);
  });

  it('leaves out token movements newer than the balance it read (mined while the transfers were walked)', async () => {
    const h = await retiredHarness();
    const { chain } = h.fake;
    chain.setGenesisBalance(holder, sbtc, 50);
    chain.mine([coinbase()]);
    chain.mine([contractCall({ contractId: pool, events: [ftTransferEvent(sbtc, other, holder, 25)] })]);
    let moved = false;
    h.fake.faults.use((request) => {
      if (request.route === ROUTES.ftTransfers && !moved) {
        moved = true;
        chain.mine([contractCall({ contractId: pool, events: [ftTransferEvent(sbtc, other, holder, 7)] })]);
      }
      return undefined;
    });
    const read = await h.client().getBalances!(holder, 1, [sbtc]);
    expect(read.fts.get(sbtc)).toBe(50n);
  });

  it('keeps the lock the balance now has, and refuses a past block with a stacking call since it', async () => {
    const h = await retiredHarness();
    const { chain } = h.fake;
    chain.setGenesisBalance(holder, 'stx', 1_000_000);
    chain.mine([contractCall({ contractId: pool, events: [stxLockEvent(holder, 400_000, 999_999)] })]);
    chain.mine([pay(1_000)]);
    const client = h.client();
    expect(await client.getBalances!(holder, 1, ['stx'])).toMatchObject({ stxTotal: 1_000_000n, stxLocked: 400_000n, unlockBurnHeight: 999_999 });
    chain.mine([{ ...contractCall({ contractId: 'SP000000000000000000002Q6VF78.pox-5', functionName: 'stake-update', sender: holder }), feeRate: '1000' }]);
    const error = await rejectionOf(client.getBalances!(holder, 2, ['stx']));
    expect(error).toBeInstanceOf(BalanceUnavailableError);
    expect(error.message).toContain('stacking call');
    // Not before block 3, the stacking call's: a read at a block below it meets the same call.
    expect((error as BalanceUnavailableError).retryFrom).toBe(3);
  });

  it('refuses a past block with more changes since than a read walks, naming the bound', async () => {
    const h = await retiredHarness();
    const { chain } = h.fake;
    chain.setGenesisBalance(holder, 'stx', 100_000_000);
    chain.mine([coinbase()]);
    const perBlock = 100;
    for (let b = 0; b < (MAX_CHANGE_PAGES * 50) / perBlock + 1; b += 1) chain.mine(Array.from({ length: perBlock }, () => pay(1)));
    const error = await rejectionOf(h.client().getBalances!(holder, 1, ['stx']));
    expect(error).toBeInstanceOf(BalanceUnavailableError);
    expect(error.message).toContain(`more than ${MAX_CHANGE_PAGES * 50} transactions since`);
    // The thousand newest changes reach down to block 3: a read at a block below it walks them all again.
    expect((error as BalanceUnavailableError).retryFrom).toBe(3);
    // The first page, the balance, the first page again, and 19 older pages: charged to the run's share.
    expect((error as BalanceUnavailableError).requests).toBe(MAX_CHANGE_PAGES + 2);
  });

  it('refuses a token balance on an API without the token transfer route, and any balance on one without the principal routes', async () => {
    const before91 = await retiredHarness({ subjectRoutes: 'before-9.1' });
    before91.fake.chain.mine([coinbase()]);
    const token = await rejectionOf(before91.client().getBalances!(holder, 1, [sbtc]));
    expect(token).toBeInstanceOf(BalanceUnavailableError);
    expect(token.message).toContain('/transfers/ft/');
    expect((await before91.client().getBalances!(holder, 1, ['stx'])).stxTotal).toBe(0n);

    const none = await retiredHarness({ subjectRoutes: 'absent' });
    none.fake.chain.mine([coinbase()]);
    const stx = await rejectionOf(none.client().getBalances!(holder, 1, ['stx']));
    expect(stx).toBeInstanceOf(BalanceUnavailableError);
    expect(stx.message).toContain('/extended/v3/principals/{principal}/transactions');
  });

  it('refuses an answer whose changes go past the balance now, naming the route, rather than a negative balance', async () => {
    const h = await retiredHarness();
    h.fake.chain.mine([coinbase()]);
    h.fake.chain.mine([transfer({ from: other, to: holder, amount: 5_000 })]);
    h.fake.faults.use((r) => (r.route === ROUTES.stxBalance ? { transform: (body) => ({ ...(body as object), balance: '5' }) } : undefined));
    const error = await rejectionOf(h.client().getBalances!(holder, 1, ['stx']));
    expect(error.message).toContain('/extended/v3/principals/{principal}/transactions');
    expect(error.message).toContain('past its STX balance');
  });
});
