// Run by test/bench/cycle-measure.test.ts in a process of its own: the measured CPU is the whole process's (every
// thread), and the test runner's other workers would add theirs. Measures one short scenario three times (plain, the
// fake API burning CPU on every answer, and again plain) and prints the figures as JSON.
import { measureScenario, type CycleCost, type Scenario } from '../../bench/cycle-measure';
import { mainnetWorkload, watchConfig } from '../../bench/mainnet-workload';
import { startStandIns, type StandIns } from '../../bench/stand-ins';

const workload = mainnetWorkload({ seed: 20261122, blocks: 40 });
const scenario: Scenario = { name: 'two new blocks', config: watchConfig('both', workload, 'latest'), blocksPerCycle: 2 };
const burnMs = Number(process.argv[2] ?? '40');

/** The scenario's cycles at 1,769 MB (one core: no stretch to blur the comparison), the fake API burning `burn` ms an answer. */
function measure(standIns: StandIns, burn: number, run: string): Promise<CycleCost> {
  const slowed: StandIns = { ...standIns, startChain: (seed) => standIns.startChain(seed, { burnMsPerRequest: burn }) };
  // Each run on a table of its own: the bench names it after the scenario.
  const named = { ...scenario, name: `${scenario.name} (${run})` };
  return measureScenario(slowed, workload, named, { requestsPerMinute: 10_000_000, detailedMetrics: false, cycles: 2, memoryMb: 1_769 });
}

const standIns = await startStandIns();
try {
  await measure(standIns, 0, 'warm-up');
  const plain = await measure(standIns, 0, 'plain');
  const slowed = await measure(standIns, burnMs, 'slowed');
  process.stdout.write(`${JSON.stringify({ plain, slowed })}\n`);
} finally {
  await standIns.close();
}
