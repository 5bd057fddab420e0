import { describe, expect, it } from 'vitest';
import { MemoryChain } from '../support/memory-chain';
import { config, harness } from './harness';

const MINUTE = 60_000;

/** Runs one a minute, mining `perRun` blocks before each; the chain health alerts published. */
async function runs(h: ReturnType<typeof harness>, count: number, perRun: number) {
  for (let i = 0; i < count; i++) {
    for (let b = 0; b < perRun; b++) h.chain.mine([]);
    await h.run();
    h.advance(MINUTE);
  }
  return h.publisher.sent.map((o) => o.alert).filter((a) => a.type === 'chain_health');
}

describe('chain health in the cycle', () => {
  it('is off without a chainHealth section: a frozen tip alerts nothing and keeps no state', async () => {
    const h = harness(new MemoryChain(), config());
    await runs(h, 2, 3);
    expect(await runs(h, 15, 0)).toEqual([]);
    expect(await h.state.readRecord('chainHealth')).toBeNull();
  });

  it('with "chainHealth": {} alerts a frozen tip once, saying it cannot tell the chain from the API without a node', async () => {
    const h = harness(new MemoryChain(), config({ chainHealth: {} }));
    await runs(h, 2, 3);
    const alerts = await runs(h, 15, 0);
    expect(alerts.map((a) => a.type === 'chain_health' && a.condition)).toEqual(['chain_or_api_stopped']);
  });

  it('with chain health its only watch, follows the chain and alerts a frozen tip once', async () => {
    const h = harness(new MemoryChain(), config({ addresses: [], contractLogs: [], chainHealth: {} }));
    await runs(h, 2, 3);
    expect((await h.state.readCursor())?.height).toBe(h.chain.tip.height);
    const alerts = await runs(h, 15, 0);
    expect(alerts.map((a) => a.type === 'chain_health' && a.condition)).toEqual(['chain_or_api_stopped']);
    expect(h.publisher.sent.filter((o) => o.alert.type !== 'chain_health')).toEqual([]);
  });

  it('adds no request to a run while the chain moves', async () => {
    let nodeReads = 0;
    const withNode = () => Object.assign(new MemoryChain(), { getNodeTip: async () => ({ stacksTipHeight: (nodeReads += 1), burnHeight: 925_100 }) });
    const off = harness(withNode(), config());
    const on = harness(withNode(), config({ chainHealth: {} }));
    await runs(off, 30, 7);
    await runs(on, 30, 7);
    expect([on.chain.totalRequests(), nodeReads]).toEqual([off.chain.totalRequests(), 0]);
  });
});
