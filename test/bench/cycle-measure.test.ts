// The cost bench's cycle CPU is the function's own: the stand-ins for the outside world (dynalite, the fake Hiro
// API) run in a child process, so however much work they do to answer, the measured cycle's CPU and billed time
// stay what the watcher itself spent. Runs the real benchmark code on a short chain, in a process of its own
// (cycle-cpu-child.ts): process.cpuUsage() counts every thread, the test runner's other workers included.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CycleCost } from '../../bench/cycle-measure';

const CHILD = fileURLToPath(new URL('./cycle-cpu-child.ts', import.meta.url));
/** CPU each fake API answer burns in the slowed run: far more than the watcher spends on it. */
const BURN_MS_PER_REQUEST = 40;
/** The child's start and a few short scenarios on a shared 2-core machine. */
const BOUND_MS = 120_000;

let plain: CycleCost;
let slowed: CycleCost;
beforeAll(async () => {
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', CHILD, String(BURN_MS_PER_REQUEST)], {
    timeout: BOUND_MS,
    maxBuffer: 2 ** 22,
  });
  ({ plain, slowed } = JSON.parse(stdout.trim().split('\n').pop()!) as { plain: CycleCost; slowed: CycleCost });
}, BOUND_MS);

describe("the cost bench's measured cycle", () => {
  it("counts neither the fake API's work nor the time it takes to answer in the cycle's CPU and billed time", () => {
    expect(slowed.requestsPerCycle).toBe(plain.requestsPerCycle);
    const burned = slowed.requestsPerCycle * BURN_MS_PER_REQUEST;
    expect(burned).toBeGreaterThanOrEqual(200);
    // The stand-ins did spend it, in their own process.
    expect(slowed.standInsCpuMs! - plain.standInsCpuMs!).toBeGreaterThan(burned / 2);
    // Counted in the measuring process, the burn would add all of `burned` to both.
    expect(Math.abs(slowed.cpuMs - plain.cpuMs)).toBeLessThan(burned / 2);
    expect(Math.abs(slowed.durationMs - plain.durationMs)).toBeLessThan(burned / 2);
  });

  it('bills its CPU at the memory it was timed at, and reports both', () => {
    expect(plain.memoryMb).toBe(1_769);
    expect(plain.cpuMs).toBeGreaterThan(0);
    expect(plain.gbSeconds).toBeCloseTo((plain.durationMs / 1000) * (1_769 / 1024), 10);
  });
});
