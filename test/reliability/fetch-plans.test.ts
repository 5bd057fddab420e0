// The same chain read both ways, the block scan and per subject, through the real Hiro client against the
// fake API: the same alerts, field for field, in the same order, before and after reorgs 3 and 150 deep,
// with every deprecated route answering 410 (the case reading per subject is for).
import { afterEach, describe, expect, it } from 'vitest';
import { DocumentStateStore, emptyDocument } from '../../lambda/adapters/file/state-document';
import { Cl } from '@stacks/transactions';
import {
  DEPRECATED_CHAIN_READS,
  contractCall,
  createFakeHiro,
  fakeAddress,
  fakeContractId,
  ftAssetEvent,
  nftAssetEvent,
  print,
  ROUTES,
  stxAssetEvent,
  stxTransferEvent,
  transfer,
  type RunningFakeHiro,
} from '../support/fake-hiro';
import { STUCK_AFTER_RUNS } from '../../lambda/core/health/block-stalls';
import { fork, mineForkable } from './fork-script';
import { alice, vault, watchConfig, watchersBothWays, type Watcher } from './watched-chain';
import { parseWatchConfig } from '../../lambda/config/watch-config';
import { createHiroClient } from '../../lambda/hiro';
import { runCycle } from '../../lambda/core/cycle';
import { RecordingPublisher } from '../support/recording-publisher';
import { RecordingOperator, RecordingTelemetry } from '../core/harness';

let server: RunningFakeHiro | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function sent(w: Watcher) {
  return w.publisher.sent.map((alert) => alert.alert);
}

describe('the block scan and the per-subject source alert the same', () => {
  it('on a chain of transfers, logs printed through another contract, contract payouts and empty blocks', async () => {
    const fake = createFakeHiro();
    const other = fakeContractId('other');
    const bob = fakeAddress('bob');
    for (let i = 0; i < 12; i++) {
      fake.chain.mine([transfer({ from: bob, to: fakeAddress(`noise-${i}`), amount: i + 1 })]);
      if (i % 3 === 0) fake.chain.mine([transfer({ from: bob, to: alice, amount: 100 + i, memo: `inv-${i}` })]);
      if (i % 4 === 1) fake.chain.mine([contractCall({ contractId: other, logs: [{ printer: vault, value: `via-${i}` }, `own-${i}`] })]);
      if (i % 5 === 2) fake.chain.mine([contractCall({ contractId: vault, logs: [`direct-${i}`], events: [stxTransferEvent(vault, alice, 7 + i)] })]);
      if (i % 6 === 5) fake.chain.mineEmpty(2);
    }
    fake.retire(...DEPRECATED_CHAIN_READS);
    server = await fake.start();
    const { scan, subjects } = watchersBothWays(server.url);

    await scan.runUntilCaughtUp(fake.chain);
    const blockPages = fake.count(ROUTES.v3BlockTransactions);
    await subjects.runUntilCaughtUp(fake.chain);

    // Read from the feeds alone: not one block's transaction list.
    expect(fake.count(ROUTES.v3BlockTransactions)).toBe(blockPages);
    expect(fake.count(ROUTES.contractLogs)).toBeGreaterThan(0);
    expect(sent(scan).length).toBeGreaterThan(10);
    expect(sent(subjects)).toEqual(sent(scan));
    expect(subjects.telemetry.logs.some((line) => line.message === 'fetch plan: per subject')).toBe(true);
  });

  it('on movements only the events tell (mints, burns, tokens, sponsored fees, memos printed beside a payout) and calls that move nothing watched', async () => {
    const fake = createFakeHiro();
    const bob = fakeAddress('bob');
    const sponsor = fakeAddress('sponsor');
    const pool = fakeContractId('pool');
    const coin = `${fakeContractId('coin')}::coin`;
    const badge = `${fakeContractId('badge')}::badge`;
    const memoBuffer = Cl.bufferFromUtf8('invoice-7');
    for (let i = 0; i < 3; i++) {
      fake.chain.mine([
        // alice pays a sponsored call's nothing, bob sponsors: no movement of hers; then one where she is the sponsor.
        { ...contractCall({ contractId: pool, sender: alice, logs: [`noise-${i}`] }), sponsor },
        { ...contractCall({ contractId: pool, sender: bob, events: [stxTransferEvent(bob, fakeAddress('carol'), 5 + i)] }), sponsor: alice },
        contractCall({
          contractId: pool,
          events: [stxAssetEvent({ action: 'mint', to: alice }, 40 + i), stxAssetEvent({ action: 'burn', from: alice }, 2 + i)],
        }),
        contractCall({ contractId: pool, events: [stxTransferEvent(pool, alice, 900 + i), print(pool, memoBuffer)] }),
        contractCall({ contractId: pool, events: [ftAssetEvent(coin, { action: 'transfer', from: bob, to: alice }, 60 + i)] }),
        contractCall({ contractId: pool, events: [nftAssetEvent(badge, { action: 'transfer', from: alice, to: bob }, Cl.uint(i))] }),
        contractCall({ contractId: vault, sender: bob, logs: [`vault-${i}`], events: [ftAssetEvent(coin, { action: 'transfer', from: pool, to: bob }, 1)] }),
        transfer({ from: bob, to: fakeAddress('dave'), amount: 11 + i, memo: `rent-${i}` }),
      ]);
    }
    fake.retire(...DEPRECATED_CHAIN_READS);
    server = await fake.start();
    const parsed = parseWatchConfig({
      network: 'mainnet',
      addresses: [alice],
      contractLogs: [{ contractId: vault }],
      transfers: [
        { asset: coin, to: [alice] },
        { asset: badge, from: [alice] },
        { asset: 'stx', from: [bob], memo: { startsWith: 'rent' } },
      ],
      startHeight: 1,
      confirmations: 0,
    });
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
    const config = watchConfig(parsed.config);
    const { scan, subjects } = watchersBothWays(server.url, config);

    await scan.runUntilCaughtUp(fake.chain);
    await subjects.runUntilCaughtUp(fake.chain);

    const types = new Set(sent(scan).map((alert) => (alert as { type: string }).type));
    expect([...types].sort()).toEqual(['contract_log', 'ft_transfer', 'nft_transfer', 'stx_transfer', 'token_transfer']);
    expect(sent(subjects)).toEqual(sent(scan));
    expect(subjects.telemetry.logs.some((line) => line.message === 'fetch plan: per subject')).toBe(true);
  });

  it("in the loop's turns (a new client a turn, a block or none between turns): the same alerts, one request a quiet turn", async () => {
    const fake = createFakeHiro();
    fake.chain.mine([transfer({ to: alice, amount: 1 })]);
    fake.retire(...DEPRECATED_CHAIN_READS);
    server = await fake.start();
    const url = server.url;
    const turns = (way: 'block-scan' | 'per-subject') => {
      const state = new DocumentStateStore(emptyDocument('mainnet'));
      const publisher = new RecordingPublisher();
      let turn = 0;
      return {
        publisher,
        run: () => {
          turn += 1;
          const chain = createHiroClient({ baseUrl: url, requestsPerMinute: 1_000_000 });
          const deps = { chain, state, publisher, clock: { now: Date.now }, telemetry: new RecordingTelemetry(), operator: new RecordingOperator() };
          return runCycle(deps, watchConfig(), {
            runId: `turn-${turn}`,
            deadlineMs: Date.now() + 60_000,
            leaseTtlMs: 120_000,
            alertStaleAfterMs: 120_000,
            fetchWay: way,
            checkStatuses: turn % 4 === 0,
          });
        },
      };
    };
    const scan = turns('block-scan');
    const subjects = turns('per-subject');
    let quiet = 0;
    for (let i = 0; i < 12; i++) {
      if (i % 3 !== 2)
        fake.chain.mine(
          i % 2 === 0
            ? [transfer({ to: alice, amount: 10 + i })]
            : [contractCall({ contractId: vault, logs: [`turn-${i}`], events: [stxTransferEvent(vault, alice, i)] })],
        );
      await scan.run();
      const before = fake.count();
      await subjects.run();
      if (i % 3 === 2) quiet += fake.count() - before;
    }

    expect(subjects.publisher.sent.map((a) => a.alert)).toEqual(scan.publisher.sent.map((a) => a.alert));
    expect(scan.publisher.sent.length).toBeGreaterThan(10);
    expect(quiet).toBe(4);
  });

  for (const depth of [3, 150]) {
    it(`across a reorg ${depth} deep: the same alerts and retractions`, async () => {
      const fake = createFakeHiro();
      const placed = mineForkable(fake.chain, depth);
      fake.retire(...DEPRECATED_CHAIN_READS);
      server = await fake.start();
      const { scan, subjects } = watchersBothWays(server.url);
      await scan.runUntilCaughtUp(fake.chain);
      await subjects.runUntilCaughtUp(fake.chain);

      fork(fake.chain, depth, placed);
      await scan.runUntilCaughtUp(fake.chain);
      const blockPages = fake.count(ROUTES.v3BlockTransactions);
      await subjects.runUntilCaughtUp(fake.chain);

      expect(fake.count(ROUTES.v3BlockTransactions)).toBe(blockPages);
      expect(sent(scan).some((alert) => (alert as { type?: string }).type === 'retraction')).toBe(true);
      expect(sent(subjects)).toEqual(sent(scan));
    });
  }

  it('a feed that disagrees with the header chain: the blocks below go out, the bad block stalls and reaches the operator', async () => {
    const fake = createFakeHiro();
    const blocks = Array.from({ length: 6 }, (_, i) => fake.chain.mine([transfer({ to: alice, amount: 10 + i })]));
    fake.retire(...DEPRECATED_CHAIN_READS);
    const forged = `0x${'ee'.repeat(32)}`;
    fake.faults.use((request) => {
      if (request.route !== ROUTES.principalTransactions) return undefined;
      return {
        transform: (body) => {
          const page = body as { results: { transaction: { block: { height: number; hash: string } } }[] };
          for (const row of page.results) if (row.transaction.block.height === 4) row.transaction.block.hash = forged;
          return page;
        },
      };
    });
    server = await fake.start();
    const { subjects } = watchersBothWays(server.url);

    for (let run = 1; run <= STUCK_AFTER_RUNS; run++) {
      await expect(subjects.run()).rejects.toThrow(`GET /extended/v3/principals/{principal}/transactions: puts an item in block 4 ${forged}`);
    }

    expect(subjects.publisher.sent.map((alert) => (alert.alert as { amount?: string }).amount)).toEqual(['10', '11', '12']);
    expect((await subjects.state.readCursor())?.hash).toBe(blocks[2]!.hash);
    expect(subjects.operator.notices.map((notice) => notice.kind)).toEqual(['stuck-block']);
  });
});
