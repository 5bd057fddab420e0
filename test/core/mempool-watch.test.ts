// The pending rules' stage over a scripted MempoolApi, on the in-memory store and a stepped clock: how long a
// waiting transaction is followed and how often its status is read, within the bounds of MEMPOOL_LIMITS.
import { describe, expect, it, vi } from 'vitest';
import type { MempoolApi, MempoolTx, PendingTxStatus } from '../../lambda/core/mempool/mempool-ports';
import { MEMPOOL_LIMITS } from '../../lambda/core/mempool/mempool-limits';
import { MemoryChain, transfer } from '../support/memory-chain';
import { config, harness, OTHER, TOKEN, WATCHED } from './harness';

const MINUTE = 60_000;

/** A mempool that lists what `waiting` holds and answers statuses from `statuses` (pending by default). */
class ScriptedMempool implements MempoolApi {
  waiting: MempoolTx[] = [];
  statuses = new Map<string, PendingTxStatus>();
  statusReads: string[][] = [];
  async readMempool({ stopAt }: { stopAt: ReadonlySet<string> }) {
    const found: MempoolTx[] = [];
    for (const tx of this.waiting) {
      if (stopAt.has(tx.txId)) break;
      found.push(tx);
    }
    return found;
  }
  async readPendingStatuses(txIds: readonly string[]) {
    this.statusReads.push([...txIds]);
    return new Map(txIds.map((id) => [id, this.statuses.get(id) ?? { state: 'pending' as const }]));
  }
  async readPendingCallArgs(txIds: readonly string[]) {
    return new Map(txIds.map((id) => [id, []]));
  }
}

let counter = 0;
function waitingCall(): MempoolTx {
  counter += 1;
  return {
    txId: `0x${counter.toString(16).padStart(64, '0')}`,
    type: 'contract_call',
    sender: WATCHED,
    nonce: counter,
    fee: '3000',
    receivedAt: 1_800_000_000 + counter,
    contractCall: { contractId: TOKEN, functionName: 'set-owner' },
  };
}

function setup() {
  const chain = new MemoryChain();
  const mempool = new ScriptedMempool();
  Object.assign(chain, { mempool });
  const h = harness(chain, config({ addresses: [], contractLogs: [], calls: [{ contractId: TOKEN, status: 'any', pending: true }] }));
  const types = () => h.publisher.sent.map((o) => o.alert.type);
  return { h, mempool, types };
}

describe('following waiting transactions', () => {
  it("reads a waiting transaction's status on the next run, then after 1, 2, 4, 8 and 10 minutes, and alerts its drop once", async () => {
    const { h, mempool, types } = setup();
    const tx = waitingCall();
    mempool.waiting = [tx];
    await h.run();
    expect(types()).toEqual(['pending_call']);
    const readsAt: number[] = [];
    for (let minute = 1; minute <= 26; minute++) {
      h.advance(MINUTE);
      const before = mempool.statusReads.length;
      await h.run();
      if (mempool.statusReads.length > before) readsAt.push(minute);
    }
    expect(readsAt).toEqual([1, 2, 4, 8, 16, 26]);
    mempool.statuses.set(tx.txId, { state: 'dropped', reason: 'dropped_stale_garbage_collect', replacedBy: null });
    h.advance(10 * MINUTE);
    await h.run();
    h.advance(10 * MINUTE);
    await h.run();
    expect(types()).toEqual(['pending_call', 'pending_dropped']);
    expect((await h.state.readRecord('mempool'))?.tracked).toEqual([]);
  });

  it('lets go a transaction neither mined nor dropped after a day, without an alert', async () => {
    const { h, mempool, types } = setup();
    mempool.waiting = [waitingCall()];
    await h.run();
    h.advance(MEMPOOL_LIMITS.expireMs + MINUTE);
    await h.run();
    expect((await h.state.readRecord('mempool'))?.tracked).toEqual([]);
    expect(types()).toEqual(['pending_call']);
    expect(h.telemetry.logs.map((l) => l.message)).toContain('waiting transactions neither mined nor dropped after a day are no longer followed');
  });

  it(`follows at most ${MEMPOOL_LIMITS.tracked} waiting transactions, letting the oldest go`, async () => {
    const { h, mempool } = setup();
    const txs = Array.from({ length: MEMPOOL_LIMITS.tracked + 3 }, () => waitingCall());
    mempool.waiting = [...txs].reverse();
    await h.run();
    const tracked = (await h.state.readRecord('mempool'))!.tracked.map((t) => t.txId);
    expect(tracked).toHaveLength(MEMPOOL_LIMITS.tracked);
    expect(tracked).toEqual(txs.slice(3).map((tx) => tx.txId));
  });

  it(`reads at most ${MEMPOOL_LIMITS.statusReadsPerRun} statuses a run, oldest due first`, async () => {
    const { h, mempool } = setup();
    const txs = Array.from({ length: 8 }, () => waitingCall());
    mempool.waiting = [...txs].reverse();
    await h.run();
    h.advance(MINUTE);
    await h.run();
    expect(mempool.statusReads).toEqual([txs.slice(0, MEMPOOL_LIMITS.statusReadsPerRun).map((tx) => tx.txId)]);
  });

  it('lets go a transaction found mined twice that no mined alert named (its rule wants another outcome)', async () => {
    const { h, mempool } = setup();
    const tx = waitingCall();
    mempool.waiting = [tx];
    await h.run();
    mempool.statuses.set(tx.txId, { state: 'mined' });
    h.advance(MINUTE);
    await h.run();
    expect((await h.state.readRecord('mempool'))?.tracked.map((t) => t.txId)).toEqual([tx.txId]);
    h.advance(MEMPOOL_LIMITS.maxCheckMs);
    await h.run();
    expect((await h.state.readRecord('mempool'))?.tracked).toEqual([]);
    expect(mempool.statusReads).toHaveLength(2);
  });
});

describe('the mempool beside the block scan', () => {
  it("publishes the block's alerts while the mempool has not answered yet, and the pending ones after it", async () => {
    const chain = new MemoryChain();
    const mempool = new ScriptedMempool();
    let answer: (txs: MempoolTx[]) => void = () => {};
    mempool.readMempool = () => new Promise<MempoolTx[]>((resolve) => (answer = resolve));
    Object.assign(chain, { mempool });
    const h = harness(
      chain,
      config({ addresses: [], contractLogs: [], transfers: [{ asset: 'stx', to: [], from: [OTHER], actions: ['transfer'], pending: true }] }),
    );
    chain.mine([transfer(WATCHED, '5000000', { sender: OTHER })]);
    let done = false;
    const run = h.run().then((summary) => ((done = true), summary));
    await vi.waitFor(() => expect(h.publisher.sent.map((o) => o.alert.type)).toEqual(['token_transfer']));
    expect(done).toBe(false);
    answer([
      { ...waitingCall(), type: 'token_transfer', sender: OTHER, contractCall: undefined, tokenTransfer: { recipient: WATCHED, amount: '7', memo: null } },
    ]);
    expect((await run).blocksScanned).toBe(1);
    expect(h.publisher.sent.map((o) => o.alert.type)).toEqual(['token_transfer', 'pending_transfer']);
  });
});

describe('the way the mempool is read', () => {
  /** A mempool whose principal routes list what waits for them, or are missing (null), or fail. */
  class PrincipalMempool extends ScriptedMempool {
    principalReads: string[][] = [];
    principalAnswer: 'list' | 'missing' | 'fail' = 'list';
    async readPrincipalsMempool(principals: readonly string[], options: { stopAt: ReadonlySet<string> }) {
      this.principalReads.push([...principals]);
      if (this.principalAnswer === 'fail') throw new Error('GET /extended/v3/principals/{principal}/mempool/transactions answered 500');
      if (this.principalAnswer === 'missing') return null;
      return (await this.readMempool(options)).filter((tx) => tx.contractCall?.contractId === TOKEN);
    }
  }

  function busy() {
    const chain = new MemoryChain();
    const mempool = new PrincipalMempool();
    Object.assign(chain, { mempool });
    const h = harness(chain, config({ addresses: [], contractLogs: [], calls: [{ contractId: TOKEN, status: 'any', pending: true }] }));
    // Two pages of new waiting calls a run: the list costs 2 requests, the one principal's route 1.
    const arrive = () => (mempool.waiting = [...Array.from({ length: 60 }, () => waitingCall()).reverse(), ...mempool.waiting]);
    return { h, mempool, arrive };
  }

  it('reads the one principal once the list took two pages a run, the list again when its route is missing, and keeps the state when it fails', async () => {
    const { h, mempool, arrive } = busy();
    const ways: (string | undefined)[] = [];
    for (let run = 0; run < 3; run++) {
      arrive();
      ways.push((await h.run()).mempoolRead?.way);
      h.advance(MINUTE);
    }
    expect(ways).toEqual(['list', 'list', 'principals']);
    expect(mempool.principalReads).toEqual([[TOKEN]]);

    mempool.principalAnswer = 'missing';
    arrive();
    expect((await h.run()).mempoolRead).toEqual({
      way: 'list',
      principals: 1,
      reason: 'the API has no principal mempool route',
      estimate: { principals: 1, list: 2 },
    });

    mempool.principalAnswer = 'fail';
    h.advance(MINUTE);
    arrive();
    const before = await h.state.readRecord('mempool');
    const sent = h.publisher.sent.length;
    const summary = await h.run();
    expect(summary.mempoolRead).toBeUndefined();
    expect(h.publisher.sent.length).toBe(sent);
    expect({ ...(await h.state.readRecord('mempool')), tracked: [] }).toEqual({ ...before, tracked: [] });
    expect(h.telemetry.logs.map((l) => l.message)).toContain(
      'the API could not serve the mempool; no pending alerts this run (the block scan is not affected)',
    );
  });
});
