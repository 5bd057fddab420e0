// A long contract watch list is checked a slice per cycle, positioned by the clock: each cycle within its
// share of the request budget, every contract within a sweep, with no state kept between cycles.
import { describe, expect, it } from 'vitest';
import { contractsThisCycle, sweepCycles, type StatusSweep } from '../../lambda/core/match/contract-status-sweep';
import { contractStatusSweep } from '../../lambda/hiro';
import { MemoryChain } from '../support/memory-chain';
import { config, harness } from './harness';

const MINUTE = 60_000;
const ids = (count: number) => Array.from({ length: count }, (_, i) => `SP000000000000000000002Q6VF78.c-${i}`);
const sweep: StatusSweep = { contractsPerCycle: 500, cycleMs: MINUTE };

/** The contracts checked by `cycles` runs, the first at `startMs`, each `everyMs` after the last. */
function sweepOver(contracts: string[], cycles: number, startMs: number, everyMs: number) {
  const seen = new Set<string>();
  const sizes: number[] = [];
  for (let i = 0; i < cycles; i += 1) {
    const slice = contractsThisCycle(contracts, sweep, startMs + i * everyMs);
    sizes.push(slice.length);
    for (const id of slice) seen.add(id);
  }
  return { seen, sizes };
}

describe('contract status sweep', () => {
  it('checks every contract every cycle when they fit in its share', () => {
    expect(contractsThisCycle(ids(500), sweep, 1_800_000_000_000)).toEqual(ids(500));
    expect(contractsThisCycle(ids(5_000), undefined, 1_800_000_000_000)).toHaveLength(5_000);
  });

  it('checks at most its share each cycle and every one of 5,000 contracts within a sweep of 12 cycles', () => {
    const contracts = ids(5_000);
    expect(sweepCycles(contracts.length, sweep)).toBe(12);

    const { seen, sizes } = sweepOver(contracts, 12, 1_800_000_012_345, MINUTE);

    expect(sizes.every((size) => size === 500)).toBe(true);
    expect(seen.size).toBe(5_000);
  });

  it('skips no contract when runs come up to a tenth of an interval late', () => {
    const contracts = ids(5_000);
    const { seen } = sweepOver(contracts, 12, 1_800_000_000_000, MINUTE * 1.1);
    expect(seen.size).toBe(5_000);
  });

  it('takes a tenth of the budget over an interval, in whole status calls', () => {
    expect(contractStatusSweep(50, MINUTE)).toEqual({ contractsPerCycle: 500, cycleMs: MINUTE });
    expect(contractStatusSweep(500, MINUTE).contractsPerCycle).toBe(5_000);
    expect(contractStatusSweep(50, 5 * MINUTE).contractsPerCycle).toBe(2_500);
    expect(contractStatusSweep(5, MINUTE).contractsPerCycle).toBe(100);
  });

  it('a cycle with a sweep asks the API for one slice of the watch list', async () => {
    const chain = new MemoryChain(100, 1);
    const asked: number[] = [];
    const getStatuses = chain.getContractStatuses.bind(chain);
    chain.getContractStatuses = (contractIds) => (asked.push(contractIds.length), getStatuses(contractIds));
    const h = harness(chain, config({ contracts: ids(1_200), addresses: [], contractLogs: [] }));

    const summary = await h.run({ statusSweep: { contractsPerCycle: 200, cycleMs: MINUTE } });

    expect(asked).toEqual([200]);
    expect(summary.contractsChecked).toBe(200);
    // Their first sights are summed up in one alert (contract-status-summary.test.ts).
    expect(h.publisher.ofType('contract_status_summary')).toHaveLength(1);
  });
});
