// A balance rule on an address busier than a rebuilt read walks (1,000 changes since the block), the v1 balances
// route retired: through the real cycle, the Hiro client and the fake API, the read is not tried every run but
// once the scan reaches the blocks the failed read walked down to; the operator hears of it once; the rule then
// starts exact and alerts its crossing once, and nothing before it.
import { afterEach, describe, expect, it } from 'vitest';
import { DocumentStateStore, emptyDocument } from '../../lambda/adapters/file/state-document';
import { entriesAt } from '../../lambda/core/stages/balance-book';
import { contractCall, createFakeHiro, fakeAddress, fakeContractId, ROUTES, type RunningFakeHiro } from '../support/fake-hiro';
import { balancesAt } from '../support/fake-hiro/balances';
import { watchConfig, watcher } from './watched-chain';

const holder = fakeAddress('backoff-holder');
const pay = () => ({ ...contractCall({ contractId: fakeContractId('relay'), sender: holder }), feeRate: '1000' });

let server: RunningFakeHiro | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('a balance rule on an address past the bound of a rebuilt read', () => {
  it('is tried again once the scan reaches the blocks its failed read walked down to, not every run, and starts exact', async () => {
    const fake = createFakeHiro();
    fake.retire(ROUTES.balances);
    fake.chain.setGenesisBalance(holder, 'stx', 10_000_000);
    // 100 fees a block in blocks 1 to 30: 3,000 changes, three times what a read walks.
    for (let b = 0; b < 30; b += 1) fake.chain.mine(Array.from({ length: 100 }, pay));
    fake.chain.mineEmpty(10);
    server = await fake.start();
    const config = watchConfig({
      addresses: [],
      contractLogs: [],
      balances: [{ name: 'relayer', address: holder, asset: 'stx', below: '7500000' }],
      startHeight: 2,
      maxBlocksPerRun: 5,
    } as never);
    const w = watcher(server.url, new DocumentStateStore(emptyDocument('mainnet')), config);
    const runs = await w.runUntilCaughtUp(fake.chain, 20);
    expect(runs.length).toBeGreaterThan(6);
    // Tried at block 1 (the thousand newest changes reach down to block 21), then at block 21, where it fits:
    // tried every run, it would have failed at 1, 6, 11, 16 and 21.
    expect(fake.count(ROUTES.stxBalance)).toBe(2);
    const unread = w.operator.notices.filter((n) => n.kind === 'balance-unread');
    expect(unread).toHaveLength(1);
    expect(unread[0]!.message).toContain('more than 1000 transactions since');
    expect(unread[0]!.message).toContain('tried again at block 21');
    // Read at 21 (7,900,000), the fees cross below 7,500,000 in block 26: one alert, at the transaction that crossed.
    const alerts = w.publisher.sent.map((s) => s.alert);
    expect(alerts.map((a) => a.type)).toEqual(['balance_threshold']);
    expect(alerts[0]).toMatchObject({ block_height: 26, tx_id: expect.stringMatching(/^0x/) });
    const cursor = (await w.state.readCursor())!.height;
    const kept = entriesAt((await w.state.readRecord('balances'))!, cursor);
    expect(Object.values(kept).map((e) => e.balance)).toEqual([String(balancesAt(fake.chain, holder, cursor).stx)]);
  }, 60_000);
});
