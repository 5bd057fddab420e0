// Work the cycle runs in parallel is settled together: a failure ends the run only once its sibling reads
// have settled, so none is left running (or failing unhandled) after the run has reported its error.
import { describe, expect, it } from 'vitest';
import { watchContractStatuses } from '../../lambda/core/match/contract-status-watch';
import { DeliveryStage } from '../../lambda/core/deliver/delivery-stage';
import type { ChainTip, ContractStatus } from '../../lambda/core/domain';
import type { StoredContractStatus } from '../../lambda/core/ports';
import { settleAll } from '../../lambda/core/settle';
import { MemoryChain } from '../support/memory-chain';
import { config, harness } from './harness';

const CONTRACT = 'SP2C2YFP12AJZB4MABJBAJ55XECVS7E4PMMZ89YZR.vault';

/** A promise that settles a few turns of the event loop later, and says whether it has. */
function later<T>(value: T) {
  const tracked = { settled: false, promise: undefined as unknown as Promise<T> };
  tracked.promise = (async () => {
    for (let i = 0; i < 5; i += 1) await new Promise((resolve) => setImmediate(resolve));
    tracked.settled = true;
    return value;
  })();
  return tracked;
}

describe('parallel waits settled together', () => {
  it('settleAll fails with the first failure in the order given, once every promise has settled', async () => {
    const slow = later('ok');
    const error = await settleAll([Promise.reject(new Error('first')), slow.promise, Promise.reject(new Error('second'))]).catch((e: Error) => e);
    expect((error as Error).message).toBe('first');
    expect(slow.settled).toBe(true);
  });

  it('ends a cycle whose status check failed only once the tip read beside it has settled', async () => {
    const tip = later<ChainTip | null>(null);
    class FailingStatuses extends MemoryChain {
      override getTip() {
        return tip.promise;
      }
      override async getContractStatuses(): Promise<Map<string, ContractStatus>> {
        throw new Error('statuses: 500 from the API');
      }
    }
    const h = harness(new FailingStatuses(), config({ contracts: [CONTRACT] }));
    await expect(h.run()).rejects.toThrow('statuses: 500 from the API');
    expect(tip.settled).toBe(true);
  });

  it('fails a status check only once the state read beside the API read has settled', async () => {
    const h = harness();
    const stored = later(new Map<string, StoredContractStatus>());
    const state = Object.assign(Object.create(h.state) as typeof h.state, { readContractStatuses: () => stored.promise });
    const chain = { getContractStatuses: async () => Promise.reject(new Error('statuses: 500 from the API')) } as unknown as MemoryChain;
    const delivery = new DeliveryStage({ ...h.deps(), state }, 120_000);
    await expect(watchContractStatuses([CONTRACT], 'mainnet', chain, state, delivery)).rejects.toThrow('500 from the API');
    expect(stored.settled).toBe(true);
  });
});
