import { describe, expect, it } from 'vitest';
import { coinbase, contractCall, MemoryChain, transfer } from '../support/memory-chain';
import { config, harness, OTHER, ROUTER, TOKEN, WATCHED } from './harness';

describe('block scan', () => {
  it('starts at the tip on the first run when startHeight is latest, and alerts nothing older', async () => {
    const chain = new MemoryChain(100, 1);
    chain.mine([transfer(WATCHED)]); // 101: the tip
    const h = harness(chain);
    const summary = await h.run();
    expect(summary.blocksScanned).toBe(1);
    expect(summary.cursor?.height).toBe(101);
    expect(h.publisher.keys()).toHaveLength(1);
  });

  it('scans every height from startHeight up to the tip and moves the cursor to the last block', async () => {
    const chain = new MemoryChain(100, 1);
    for (let i = 0; i < 5; i++) chain.mine([coinbase(), transfer(WATCHED, String(i + 1))]);
    const h = harness(chain, config({ startHeight: 100 }));
    const summary = await h.run();
    expect(summary.blocksScanned).toBe(6);
    expect(summary.cursor).toEqual({ height: 105, hash: chain.tip.hash });
    expect(h.publisher.ofType('token_transfer').map((a) => (a.alert as { amount: string }).amount)).toEqual(['1', '2', '3', '4', '5']);
  });

  it('goes on from the cursor in the next run without alerting a block twice', async () => {
    const chain = new MemoryChain(100, 1);
    chain.mine([transfer(WATCHED)]);
    const h = harness(chain, config({ startHeight: 100 }));
    await h.run();
    chain.mine([transfer(WATCHED)]);
    const second = await h.run();
    expect(second.blocksScanned).toBe(1);
    expect(h.publisher.keys()).toHaveLength(2);
    expect(new Set(h.publisher.keys()).size).toBe(2);
  });

  it('stays `confirmations` blocks behind the tip', async () => {
    const chain = new MemoryChain(100, 1);
    for (let i = 0; i < 5; i++) chain.mine([transfer(WATCHED)]);
    const h = harness(chain, config({ startHeight: 101, confirmations: 2 }));
    const summary = await h.run();
    expect(summary.cursor?.height).toBe(103);
    expect(summary.lagBlocks).toBe(2);
  });

  it('alerts only successful transfers to watched recipients', async () => {
    const chain = new MemoryChain(100, 1);
    chain.mine([transfer(WATCHED, '5', { txStatus: 'abort_by_post_condition' }), transfer(OTHER, '6'), transfer(WATCHED, '7')]);
    const h = harness(chain);
    await h.run();
    expect(h.publisher.sent.map((a) => (a.alert as { amount: string }).amount)).toEqual(['7']);
  });

  it('alerts a log of a watched contract reached through another contract', async () => {
    const chain = new MemoryChain(100, 1);
    chain.mine([
      contractCall(ROUTER, [
        { contractId: ROUTER, repr: 'router' },
        { contractId: TOKEN, repr: '(tuple (op "mint"))' },
      ]),
    ]);
    const h = harness(chain);
    await h.run();
    const logs = h.publisher.ofType('contract_log').map((a) => a.alert);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ contract_id: TOKEN, event_index: 1, value_repr: '(tuple (op "mint"))' });
  });

  it('filters logs by `contains` on the repr', async () => {
    const chain = new MemoryChain(100, 1);
    chain.mine([contractCall(TOKEN, [{ repr: '(tuple (op "burn"))' }, { repr: '(tuple (op "mint"))' }])]);
    const h = harness(chain, config({ contractLogs: [{ contractId: TOKEN, contains: '"mint"' }] }));
    await h.run();
    expect(h.publisher.ofType('contract_log').map((a) => a.alert)).toEqual([expect.objectContaining({ value_repr: '(tuple (op "mint"))' })]);
  });

  it('fetches no events when neither logs, addresses nor transfers are watched', async () => {
    const chain = new MemoryChain(100, 1);
    chain.mine([contractCall(TOKEN, [{ repr: 'x' }])]);
    const h = harness(chain, config({ contractLogs: [], addresses: [], contracts: [TOKEN] }));
    await h.run();
    expect(chain.requests.txEvents ?? 0).toBe(0);
  });

  it('fetches events only for successful calls that have events, in one call per block', async () => {
    const chain = new MemoryChain(100, 1);
    chain.mine([
      contractCall(TOKEN, [{ repr: 'a' }]),
      contractCall(TOKEN, [{ repr: 'b' }], { txStatus: 'abort_by_response' }),
      contractCall(TOKEN, []),
      transfer(OTHER),
      contractCall(ROUTER, [{ contractId: TOKEN, repr: 'c' }]),
    ]);
    const h = harness(chain);
    const spy: string[][] = [];
    const original = chain.getTransactionEvents.bind(chain);
    chain.getTransactionEvents = async (txs) => {
      spy.push(txs.map((t) => t.txId));
      return original(txs);
    };
    await h.run();
    expect(spy).toHaveLength(1);
    expect(spy[0]).toHaveLength(2);
    expect(h.publisher.ofType('contract_log').map((a) => (a.alert as { value_repr: string }).value_repr)).toEqual(['a', 'c']);
  });

  it('stops at maxBlocksPerRun with the cursor on the last finished block', async () => {
    const chain = new MemoryChain(100, 1);
    for (let i = 0; i < 9; i++) chain.mine();
    const h = harness(chain, config({ startHeight: 101, maxBlocksPerRun: 4 }));
    const summary = await h.run();
    expect(summary.stoppedBecause).toBe('max-blocks');
    expect(summary.cursor?.height).toBe(104);
  });

  it('stops at the time budget at a block boundary', async () => {
    const chain = new MemoryChain(100, 1);
    for (let i = 0; i < 9; i++) chain.mine();
    const h = harness(chain, config({ startHeight: 101 }));
    let blocks = 0;
    const summary = await h.run({
      deadlineMs: 1_800_000_000_000 + 3,
      onBlockDone: () => {
        blocks += 1;
        h.advance(1);
      },
    });
    expect(summary.stoppedBecause).toBe('time-budget');
    expect(summary.cursor?.height).toBe(100 + blocks);
    expect(blocks).toBe(3);
  });

  it('reports the chain lag in blocks and seconds', async () => {
    const chain = new MemoryChain(100, 1);
    for (let i = 0; i < 4; i++) chain.mine();
    const h = harness(chain, config({ startHeight: 101, maxBlocksPerRun: 2 }));
    const summary = await h.run();
    expect(summary.lagBlocks).toBe(2);
    expect(summary.lagSeconds).toBe(1_800_000_000 - chain.blocks.find((b) => b.height === 102)!.time);
    expect(h.telemetry.sum('ChainLagBlocks')).toBe(2);
  });

  it('does not move the cursor past a block whose alert failed to publish, and publishes it once on the rerun', async () => {
    const chain = new MemoryChain(100, 1);
    chain.mine([transfer(WATCHED, '1')]);
    const failing = transfer(WATCHED, '2');
    chain.mine([failing]);
    const h = harness(chain, config({ startHeight: 101 }));
    h.publisher.failKeys.add(`token_transfer:${failing.txId}`);
    await expect(h.run()).rejects.toThrow(/could not be published/);
    expect((await h.state.readCursor())?.height).toBe(101);
    const summary = await h.run();
    expect(summary.cursor?.height).toBe(102);
    expect(h.publisher.keys()).toEqual([`token_transfer:${chain.blocks[1]!.txs[0]!.txId}`, `token_transfer:${failing.txId}`]);
  });

  it("parks an alert the channel will never take and goes on past its block, with the block's other alerts", async () => {
    const chain = new MemoryChain(100, 1);
    const poison = transfer(WATCHED, '1');
    const fine = transfer(WATCHED, '2');
    chain.mine([poison, fine]);
    chain.mine([transfer(WATCHED, '3')]);
    const h = harness(chain, config({ startHeight: 101 }));
    h.publisher.refuseKeys.add(`token_transfer:${poison.txId}`);
    const summary = await h.run();
    expect(summary.cursor?.height).toBe(102);
    expect(h.publisher.keys()).toEqual([`token_transfer:${fine.txId}`, `token_transfer:${chain.blocks[2]!.txs[0]!.txId}`]);
    expect(await h.state.getAlertRecord(`token_transfer:${poison.txId}`)).toMatchObject({ state: 'parked', reason: expect.stringMatching(/InvalidParameter/) });
    expect(h.telemetry.sum('AlertsUndeliverable')).toBe(1);
    expect(h.operator.notices.map((n) => n.kind)).toEqual(['alert-undeliverable']);
  });

  it('exits cleanly without scanning when another run holds the lease', async () => {
    const chain = new MemoryChain(100, 1);
    const h = harness(chain);
    await h.state.acquireLease('someone-else', 1_800_000_000_000, 60_000);
    const summary = await h.run();
    expect(summary.stoppedBecause).toBe('lease-held');
    expect(summary.blocksScanned).toBe(0);
    expect(await h.state.readCursor()).toBeNull();
  });

  it('treats a height the API does not know yet as caught up', async () => {
    const chain = new MemoryChain(100, 3);
    const h = harness(chain, config({ startHeight: 100 }));
    const getTip = chain.getTip.bind(chain);
    chain.getTip = async () => ({ ...(await getTip())!, height: 110 });
    const summary = await h.run();
    expect(summary.stoppedBecause).toBe('caught-up');
    expect(summary.cursor?.height).toBe(102);
  });
});

describe('run lease', () => {
  it('is renewed between blocks once half of it is spent, so a long cycle keeps it', async () => {
    const chain = new MemoryChain(100, 1);
    for (let i = 0; i < 6; i++) chain.mine();
    const h = harness(chain, config({ startHeight: 101 }));
    const summary = await h.run({ leaseTtlMs: 10_000, deadlineMs: Number.MAX_SAFE_INTEGER, onBlockDone: () => h.advance(4_000) });
    expect(summary.blocksScanned).toBe(6);
    expect(summary.stoppedBecause).toBe('caught-up');
  });

  it('keeps another run out for the whole of a cycle longer than the lease, by renewing it', async () => {
    const chain = new MemoryChain(100, 1);
    for (let i = 0; i < 8; i++) chain.mine();
    const h = harness(chain, config({ startHeight: 101 }));
    let now = 1_800_000_000_000;
    const otherRunTook: Promise<boolean>[] = [];
    const summary = await h.run({
      leaseTtlMs: 10_000,
      deadlineMs: Number.MAX_SAFE_INTEGER,
      onBlockDone: () => {
        h.advance(4_000);
        now += 4_000;
        // A second run starts after every block; by the third block the first lease would have lapsed.
        otherRunTook.push(h.state.acquireLease('other-run', now, 60_000));
      },
    });
    expect(summary.blocksScanned).toBe(8);
    expect(await Promise.all(otherRunTook)).toEqual(Array(8).fill(false));
  });

  it('stops the scan cleanly when another run took the lease after it lapsed', async () => {
    const chain = new MemoryChain(100, 1);
    for (let i = 0; i < 6; i++) chain.mine();
    const h = harness(chain, config({ startHeight: 101 }));
    const summary = await h.run({
      leaseTtlMs: 10_000,
      deadlineMs: Number.MAX_SAFE_INTEGER,
      onBlockDone: ({ done }) => {
        if (done !== 2) return;
        h.advance(11_000); // this run stalled past its lease...
        void h.state.acquireLease('other-run', 1_800_000_000_000 + 11_000, 60_000); // ...and another took it
      },
    });
    expect(summary.stoppedBecause).toBe('lease-held');
    expect(summary.cursor?.height).toBe(102);
  });
});
