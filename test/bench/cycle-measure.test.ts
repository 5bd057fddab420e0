// The cost bench's cycle CPU is the function's own: the stand-ins for the outside world (dynalite, the fake Hiro
// API) run in a child process, so however much work they do to answer, the measured cycle's CPU and billed time
// stay what the watcher itself spent. Runs the real benchmark code on a short chain.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { measureScenario, type CycleCost, type Scenario } from '../../bench/cycle-measure';
import { mainnetWorkload, watchConfig } from '../../bench/mainnet-workload';
import { startStandIns, type StandIns } from '../../bench/stand-ins';

const workload = mainnetWorkload({ seed: 20261122, blocks: 40 });
const scenario: Scenario = { name: 'two new blocks', config: watchConfig('both', workload, 'latest'), blocksPerCycle: 2 };
/** CPU each fake API answer burns in the slowed runs: far more than the watcher spends on it. */
const BURN_MS_PER_REQUEST = 40;
/** The child's start and a few cycles on a shared 2-core machine. */
const BOUND_MS = 90_000;

let standIns: StandIns;
beforeAll(async () => {
  standIns = await startStandIns();
}, BOUND_MS);
afterAll(() => standIns?.close(), BOUND_MS);

/** The scenario's cycles at 1,769 MB (one core: no stretch to blur the comparison), the fake API burning `burnMs` an answer. */
function measure(burnMs: number, run: string): Promise<CycleCost> {
  const slowed: StandIns = { ...standIns, startChain: (seed) => standIns.startChain(seed, { burnMsPerRequest: burnMs }) };
  // Each run on a table of its own: the bench names it after the scenario.
  return measureScenario(
    slowed,
    workload,
    { ...scenario, name: `${scenario.name} (${run})` },
    { requestsPerMinute: 10_000_000, detailedMetrics: false, cycles: 2, memoryMb: 1_769 },
  );
}

describe("the cost bench's measured cycle", () => {
  it(
    "counts neither the fake API's work nor the time it takes to answer in the cycle's CPU and billed time",
    async () => {
      const plain = await measure(0, 'plain');
      const slowed = await measure(BURN_MS_PER_REQUEST, 'slowed');
      expect(slowed.requestsPerCycle).toBe(plain.requestsPerCycle);
      const burned = slowed.requestsPerCycle * BURN_MS_PER_REQUEST;
      expect(burned).toBeGreaterThanOrEqual(200);
      // Counted in the measuring process, the burn would add all of `burned` to both.
      expect(Math.abs(slowed.cpuMs - plain.cpuMs)).toBeLessThan(burned / 2);
      expect(Math.abs(slowed.durationMs - plain.durationMs)).toBeLessThan(burned / 2);
    },
    BOUND_MS,
  );

  it(
    'bills its CPU at the memory it was timed at, and reports both',
    async () => {
      const cycle = await measure(0, 'memory');
      expect(cycle.memoryMb).toBe(1_769);
      expect(cycle.cpuMs).toBeGreaterThan(0);
      expect(cycle.gbSeconds).toBeCloseTo((cycle.durationMs / 1000) * (1_769 / 1024), 10);
    },
    BOUND_MS,
  );
});
