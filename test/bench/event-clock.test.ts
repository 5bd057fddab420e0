// The cost bench bills a cycle's own CPU work at the function's memory: Lambda gives a function a share of a vCPU
// in proportion to its memory (one vCPU at 1,769 MB), so the same work takes longer, and is billed longer, in a
// smaller function. The event clock, timed by CPU, counts this process's work stretched by that share and nothing
// for the time it waits on real I/O.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { cpuStretch, EventClock, processCpuMs } from '../../bench/event-clock';

/**
 * A clock timed by a CPU counter the test drives, at a stretch of 10: the suite's other worker threads spend
 * this process's CPU too, so the real counter would not say what the test did.
 */
function cpuTimedClock() {
  let spent = 0;
  const clock = new EventClock({ cpuStretch: 10, cpuMs: () => spent });
  return { clock, spendCpu: (ms: number) => (spent += ms) };
}

describe("a function's share of a vCPU", () => {
  it('makes the same work 1,769 / MB times as long below 1,769 MB: 13.8 at 128 MB, 6.9 at 256 MB', () => {
    expect(cpuStretch(128)).toBeCloseTo(13.82, 2);
    expect(cpuStretch(256)).toBeCloseTo(6.91, 2);
  });

  it('is one whole core at 1,769 MB and above: the work runs on one thread, never faster', () => {
    expect(cpuStretch(1_769)).toBe(1);
    expect(cpuStretch(3_008)).toBe(1);
    expect(cpuStretch(10_240)).toBe(1);
  });

  it('refuses a memory that is no positive number of MB', () => {
    expect(() => cpuStretch(0)).toThrow(/positive number of MB/);
    expect(() => cpuStretch(Number.NaN)).toThrow(/positive number of MB/);
  });
});

describe('the event clock timed by CPU', () => {
  it("counts the process's CPU work stretched: 20 ms of work at a stretch of 10 lasts about 200 ms", () => {
    const { clock, spendCpu } = cpuTimedClock();
    const start = clock.now();
    spendCpu(20);
    expect(clock.now() - start).toBe(200);
  });

  it('lets a timer due during stretched work fire without a wait: a 100 ms round trip under 200 ms of work adds nothing', async () => {
    const { clock, spendCpu } = cpuTimedClock();
    const start = clock.now();
    const roundTrip = clock.sleep(100);
    spendCpu(20);
    await roundTrip;
    expect(clock.now() - start).toBe(200); // not 300: the wait overlapped the work
  });

  it('adds the wait left after stretched work: 5 ms of work (50 ms) under a 100 ms round trip lasts 100 ms', async () => {
    const { clock, spendCpu } = cpuTimedClock();
    const start = clock.now();
    const roundTrip = clock.sleep(100);
    spendCpu(5);
    await roundTrip;
    expect(clock.now() - start).toBe(100);
  });

  it('jumps a wait with no work under it: a 100 ms round trip alone lasts about 100 ms', async () => {
    const { clock } = cpuTimedClock();
    const start = clock.now();
    await clock.sleep(100);
    expect(clock.now() - start).toBe(100);
  });

  it('counts nothing for real time spent waiting on I/O out of the process, only the CPU spent meanwhile', async () => {
    const { clock, spendCpu } = cpuTimedClock();
    const start = clock.now();
    await clock.track(async () => {
      await new Promise((resolve) => setTimeout(resolve, 200));
      spendCpu(3);
    });
    expect(clock.now() - start).toBe(30);
  });

  it("reads this process's CPU when told no counter", () => {
    const clock = new EventClock({ cpuStretch: 1 });
    const start = clock.now();
    const until = processCpuMs() + 5;
    while (processCpuMs() < until);
    expect(clock.now() - start).toBeGreaterThanOrEqual(5);
  });

  it('runs on real time when not timed by CPU, as the benches that only count units use it', async () => {
    const clock = new EventClock();
    const start = clock.now();
    await clock.track(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(clock.now() - start).toBeGreaterThanOrEqual(45);
  });

  it('wakes no sleeper while its GET is out: a wait due during a slow answer ends after it, its whole body read', async () => {
    const server = createServer((_request, response) => setTimeout(() => response.end('{"ok":true}'), 100));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const clock = new EventClock();
      const order: string[] = [];
      const { port } = server.address() as AddressInfo;
      const answer = clock.get(new URL(`http://127.0.0.1:${port}/`), { headers: {}, signal: AbortSignal.timeout(5_000) }).then(async (got) => {
        const chunks: Uint8Array[] = [];
        for await (const chunk of got.body) chunks.push(chunk);
        order.push(`answer ${Buffer.concat(chunks).toString()}`);
      });
      // A minute on the clock, taken at once were nothing out.
      const wait = clock.sleep(60_000).then(() => order.push('woke'));
      await Promise.all([answer, wait]);
      expect(order).toEqual(['answer {"ok":true}', 'woke']);
    } finally {
      server.close();
    }
  });
});
