// How often the scan writes its state: once per cycle (every 50 blocks of a catch-up), the blocks of the
// cycle together, the lease given back with the cursor. Fewer writes must not cost an alert or a duplicate.
import { describe, expect, it } from 'vitest';
import { CHECKPOINT_BLOCKS } from '../../lambda/core/scan/cursor-keeper';
import type { StateStore } from '../../lambda/core/ports';
import { MemoryChain, transfer } from '../support/memory-chain';
import { config, harness } from './harness';

type Call = { method: string; args: unknown[] };

/** Records the state writes a cycle makes; `failOn` makes one method throw (a store or process failing). */
function recordWrites(state: StateStore, failOn?: { method: keyof StateStore; error: Error }) {
  const calls: Call[] & { restore?: () => void } = [];
  const methods = ['writeCursor', 'putScannedBlocks', 'releaseLease', 'acquireLease'] as const;
  calls.restore = () => {
    for (const method of methods) delete (state as unknown as Record<string, unknown>)[method];
  };
  for (const method of methods) {
    const original = state[method].bind(state) as (...args: unknown[]) => Promise<unknown>;
    (state as unknown as Record<string, unknown>)[method] = async (...args: unknown[]) => {
      calls.push({ method, args });
      if (failOn?.method === method) throw failOn.error;
      return original(...args);
    };
  }
  return calls;
}

describe('state writes per cycle', () => {
  it('writes a quiet cycle of 10 blocks as one stretch of blocks and one cursor write that also gives the lease back', async () => {
    const chain = new MemoryChain(100, 1);
    const h = harness(chain, config({ startHeight: 101 }));
    for (let i = 0; i < 10; i++) chain.mine();
    const calls = recordWrites(h.state);

    const summary = await h.run();

    expect(summary).toMatchObject({ blocksScanned: 10, cursor: { height: 110 } });
    expect(calls.map((c) => c.method)).toEqual(['acquireLease', 'putScannedBlocks', 'writeCursor']);
    expect((calls[1]!.args[0] as { height: number }[]).map((b) => b.height)).toEqual([101, 102, 103, 104, 105, 106, 107, 108, 109, 110]);
    expect(calls[2]!.args[2]).toEqual({ releaseLeaseOf: summary.runId });
    // The lease is free for the next run.
    expect(await h.state.acquireLease('next-run', 1_800_000_000_000, 60_000)).toBe(true);
  });

  it('writes a quiet cycle the same three times when rules have cooldowns and mutes', async () => {
    const chain = new MemoryChain(100, 1);
    const quietRules = config({
      startHeight: 101,
      addressesRule: { name: 'deposits', cooldownMinutes: 30, mutedUntil: '2030-01-01T00:00:00Z' },
      contractLogs: [{ contractId: 'SP2C2YFP12AJZB4MABJBAJ55XECVS7E4PMMZ89YZR.arkadiko-token', cooldownMinutes: 5 }],
    } as never);
    const h = harness(chain, quietRules);
    for (let i = 0; i < 10; i++) chain.mine();
    const calls = recordWrites(h.state);
    await h.run();
    expect(calls.map((c) => c.method)).toEqual(['acquireLease', 'putScannedBlocks', 'writeCursor']);
    expect(calls[2]!.args[0]).not.toHaveProperty('quiet');
  });

  it('gives the lease back on its own when no block was scanned', async () => {
    const chain = new MemoryChain(100, 1);
    const h = harness(chain);
    await h.run();
    const calls = recordWrites(h.state);
    await h.run();
    expect(calls.map((c) => c.method)).toEqual(['acquireLease', 'releaseLease']);
  });

  it(`writes the cursor at least every ${CHECKPOINT_BLOCKS} blocks while catching up`, async () => {
    const chain = new MemoryChain(100, 1);
    for (let i = 0; i < 120; i++) chain.mine();
    const h = harness(chain, config({ startHeight: 101 }));
    const calls = recordWrites(h.state);
    await h.run();
    const heights = calls.filter((c) => c.method === 'writeCursor').map((c) => (c.args[0] as { height: number }).height);
    expect(heights).toEqual([150, 200, 220]);
  });

  it('keeps the blocks it finished when the API fails mid-cycle', async () => {
    const chain = new MemoryChain(100, 1);
    for (let i = 0; i < 8; i++) chain.mine([transfer('SP2C2YFP12AJZB4MABJBAJ55XECVS7E4PMMZ89YZR', String(i + 1))]);
    const h = harness(chain, config({ startHeight: 101 }));
    const getBlock = chain.getBlock.bind(chain);
    chain.getBlock = async (height) => {
      if (height === 105) throw new Error('the API gave up on block 105');
      return getBlock(height);
    };
    await expect(h.run()).rejects.toThrow(/gave up on block 105/);
    expect((await h.state.readCursor())?.height).toBe(104);
    expect((await h.state.getScannedBlocks(101, 110)).map((b) => b.height)).toEqual([101, 102, 103, 104]);
  });

  it('alerts nothing twice when the cycle dies before its cursor write, and the rerun moves the cursor', async () => {
    const chain = new MemoryChain(100, 1);
    chain.mine();
    const h = harness(chain, config({ startHeight: 101 }));
    await h.run();
    for (let i = 0; i < 6; i++) chain.mine([transfer('SP2C2YFP12AJZB4MABJBAJ55XECVS7E4PMMZ89YZR', String(i + 1))]);
    const crash = new Error('the process died');
    const calls = recordWrites(h.state, { method: 'putScannedBlocks', error: crash });
    await expect(h.run()).rejects.toThrow(crash);
    expect(calls.some((c) => c.method === 'writeCursor')).toBe(false);
    expect((await h.state.readCursor())?.height).toBe(101);
    expect(h.publisher.keys()).toHaveLength(6);

    // The rerun, over the same store, without the failure.
    calls.restore!();
    h.advance(200_000); // past the dead run's lease
    const summary = await h.run();
    expect(summary.cursor?.height).toBe(107);
    expect(h.publisher.keys()).toHaveLength(6);
    expect(new Set(h.publisher.keys()).size).toBe(6);
  });
});
