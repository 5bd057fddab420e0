// After downtime (the watcher stopped while the chain went on), it catches up from its cursor: over as
// many runs as its per-run block budget needs, each ending at a block boundary, with every alert sent once
// and in chain order.
import { afterEach, describe, expect, it } from 'vitest';
import { DocumentStateStore, emptyDocument } from '../../lambda/adapters/file/state-document';
import { coinbase, contractCall, createFakeHiro, transfer, type RunningFakeHiro } from '../support/fake-hiro';
import { alice, canonicalAlertKeys, vault, watchConfig, watcher } from './watched-chain';

let server: RunningFakeHiro | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('catching up after downtime', () => {
  it('resumes from its cursor over several runs, each alert once and in chain order', async () => {
    const fake = createFakeHiro();
    fake.chain.mine([coinbase()]);
    server = await fake.start();
    const w = watcher(server.url, new DocumentStateStore(emptyDocument('mainnet')), watchConfig({ maxBlocksPerRun: 8 }));
    await w.runUntilCaughtUp(fake.chain);

    // Down while 40 blocks are mined, alerts in most of them.
    for (let i = 0; i < 40; i++) {
      const txs = [coinbase()];
      if (i % 3 !== 2) txs.push(transfer({ to: alice, amount: i + 1 }));
      if (i % 4 === 0) txs.push(contractCall({ contractId: vault, logs: [`a${i}`, `b${i}`] }));
      fake.chain.mine(txs);
    }
    const summaries = await w.runUntilCaughtUp(fake.chain, 10);

    expect(summaries.map((s) => s.stoppedBecause)).toEqual([...Array(4).fill('max-blocks'), 'caught-up']);
    expect(summaries.map((s) => s.cursor!.height)).toEqual([9, 17, 25, 33, 41]);
    for (const s of summaries) expect(s.cursor!.hash).toBe(fake.chain.block(s.cursor!.height)!.hash);
    expect(w.publisher.keys()).toEqual(canonicalAlertKeys(fake.chain));
  });
});
