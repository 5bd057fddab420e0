// What reading per subject pays, route by route, with every deprecated route answering 410: the tip comes
// from the header chain's read, a tracked address's transactions are read for their events only when the
// feed's own row shows a movement the rules watch, and a contract's logs are placed with one batch request
// for all contracts, none when no watched contract printed in the blocks asked. The alerts stay those of the block scan (fetch-plans.test.ts holds them equal).
import { afterEach, describe, expect, it } from 'vitest';
import { DocumentStateStore, emptyDocument } from '../../lambda/adapters/file/state-document';
import {
  DEPRECATED_CHAIN_READS,
  contractCall,
  createFakeHiro,
  fakeAddress,
  fakeContractId,
  ftTransferEvent,
  print,
  ROUTES,
  stxTransferEvent,
  transfer,
  type RunningFakeHiro,
} from '../support/fake-hiro';
import { alice, vault, watchConfig, watcher } from './watched-chain';

let server: RunningFakeHiro | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const token = `${fakeContractId('coin')}::coin`;

function perSubject(url: string, config = watchConfig()) {
  return watcher(url, new DocumentStateStore(emptyDocument('mainnet')), config, {}, { fetchWay: 'per-subject' });
}

describe('reading per subject pays for what the rules need', () => {
  it('takes the tip from the header chain: no separate tip request, one block list page a run', async () => {
    const fake = createFakeHiro();
    for (let i = 0; i < 4; i++) fake.chain.mine([transfer({ to: alice, amount: 10 + i })]);
    fake.retire(...DEPRECATED_CHAIN_READS);
    server = await fake.start();
    const w = perSubject(server.url);
    await w.runUntilCaughtUp(fake.chain);
    fake.clearLog();

    for (let run = 0; run < 3; run++) {
      fake.chain.mine([transfer({ to: alice, amount: 100 + run })]);
      fake.chain.mineEmpty(2);
      await w.runUntilCaughtUp(fake.chain, 1);
    }

    expect(fake.count(ROUTES.tip)).toBe(0);
    expect(fake.count(ROUTES.v3Blocks)).toBe(3);
    expect(w.publisher.sent.map((a) => (a.alert as { amount?: string }).amount)).toEqual(['10', '11', '12', '13', '100', '101', '102']);
  });

  it("reads events only for a tracked address's transactions whose row shows it moving STX beyond its fee", async () => {
    const fake = createFakeHiro();
    const other = fakeContractId('other');
    const bob = fakeAddress('bob');
    fake.chain.mine([
      // alice only pays the fee: the row shows the fee sent, nothing received.
      contractCall({ contractId: other, sender: alice, logs: ['noise'], events: [stxTransferEvent(bob, fakeAddress('carol'), 5)] }),
      // alice moves a token only: no STX rule watches it.
      contractCall({ contractId: other, logs: ['noise'], events: [ftTransferEvent(token, alice, bob, 9)] }),
      // a native transfer to alice: its own payload says all, no events read.
      transfer({ to: alice, amount: 70 }),
    ]);
    const payout = contractCall({ contractId: other, logs: ['payout'], events: [stxTransferEvent(other, alice, 33)] });
    fake.chain.mine([payout]);
    fake.retire(...DEPRECATED_CHAIN_READS);
    server = await fake.start();
    const w = perSubject(server.url, watchConfig({ contractLogs: [] }));

    await w.runUntilCaughtUp(fake.chain);

    expect(fake.count(ROUTES.v3TransactionEvents)).toBe(1);
    expect(w.publisher.sent.map((a) => [a.alert.type, (a.alert as { amount?: string }).amount])).toEqual([
      ['token_transfer', '70'],
      ['stx_transfer', '33'],
    ]);
  });

  it('asks the transaction batch nothing while no watched contract printed in the blocks asked, and one request for every contract that did', async () => {
    const fake = createFakeHiro();
    const oracle = fakeContractId('oracle');
    for (let i = 0; i < 8; i++) fake.chain.mine([contractCall({ contractId: vault, logs: [`old-${i}`, { printer: oracle, value: `old-${i}` }] })]);
    fake.retire(...DEPRECATED_CHAIN_READS);
    server = await fake.start();
    const w = perSubject(server.url, watchConfig({ addresses: [], contractLogs: [{ contractId: vault }, { contractId: oracle }] }));
    await w.runUntilCaughtUp(fake.chain);
    fake.clearLog();

    fake.chain.mineEmpty(3);
    await w.runUntilCaughtUp(fake.chain, 1);
    expect(fake.count(ROUTES.transactionBatch)).toBe(0);

    const fresh = fake.chain.mine([contractCall({ contractId: vault, logs: ['new', { printer: oracle, value: 'new' }] })]);
    await w.runUntilCaughtUp(fake.chain, 1);
    const batches = fake.requestsTo(ROUTES.transactionBatch);
    expect(batches).toHaveLength(1);
    expect(batches[0]!.query.get('tx_id')!.split(',')[0]).toBe(fresh.txs[0]!.txId);
    expect(w.publisher.sent.slice(-2).map((a) => (a.alert as { block_height?: number }).block_height)).toEqual([fresh.height, fresh.height]);
  });

  it('a print of a watched contract inside a transaction already read for its events is alerted once', async () => {
    const fake = createFakeHiro();
    fake.chain.mine([contractCall({ contractId: vault, logs: ['paid'], events: [stxTransferEvent(vault, alice, 4), print(vault, 'after')] })]);
    fake.retire(...DEPRECATED_CHAIN_READS);
    server = await fake.start();
    const w = perSubject(server.url);
    await w.runUntilCaughtUp(fake.chain);
    expect(w.publisher.sent.map((a) => a.alert.type)).toEqual(['contract_log', 'stx_transfer', 'contract_log']);
  });

  it("says the run's plan, its estimate and why in the run's log line", async () => {
    const fake = createFakeHiro();
    for (let i = 0; i < 3; i++) fake.chain.mine([transfer({ to: alice, amount: 10 + i })]);
    fake.retire(...DEPRECATED_CHAIN_READS);
    server = await fake.start();
    const w = perSubject(server.url);
    const [summary] = await w.runUntilCaughtUp(fake.chain);

    const done = w.telemetry.logs.find((line) => line.message === 'cycle done');
    expect(done?.attributes?.fetchPlan).toEqual(summary!.fetchPlan);
    expect(summary!.fetchPlan).toMatchObject({
      way: 'per-subject',
      asked: 'per-subject',
      estimate: { perSubject: expect.any(Number), blockScan: expect.any(Number) },
    });
    expect(summary!.fetchPlan?.reason).toMatch(/costs about \d+ requests/);
  });
});
