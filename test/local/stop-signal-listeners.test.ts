// The local runner aborts one signal on Ctrl-C, for the whole life of the process: every cycle's reads, queued
// requests, retries and sleeps wait on it. Each wait must leave nothing of itself on that signal once it ends
// (a runner left for days would otherwise hold a listener or a link per request it ever made), and the waits
// under way at once must not each add their own listener (Node warns past 10: MaxListenersExceededWarning).
// Run here as the runner runs: the real Hiro client against the fake API, cycle after cycle, one signal.
import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DocumentStateStore, emptyDocument } from '../../lambda/adapters/file/state-document';
import { runCycle } from '../../lambda/core/cycle';
import type { FetchWay } from '../../lambda/core/follow/fetch-choice';
import { MissingFeedRoutes } from '../../lambda/core/follow/subject-fallback';
import { createHiroClient } from '../../lambda/hiro';
import { RecordingOperator, RecordingTelemetry } from '../core/harness';
import { contractCall, createFakeHiro, fakeAddress, ROUTES, transfer, type RunningFakeHiro } from '../support/fake-hiro';
import { RecordingPublisher } from '../support/recording-publisher';
import { alice, vault, watchConfig } from '../reliability/watched-chain';

const CYCLES = 12;
const BLOCKS_A_CYCLE = 15;

let server: RunningFakeHiro | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await server?.close();
  server = undefined;
});

/** The abort listeners on `signal` now, and the most it held at once since this was called. */
function listenerWatch(signal: AbortSignal) {
  const count = () => getEventListeners(signal, 'abort').length;
  let peak = count();
  const add = signal.addEventListener.bind(signal);
  signal.addEventListener = (...args: Parameters<AbortSignal['addEventListener']>) => {
    add(...args);
    peak = Math.max(peak, count());
  };
  return { count, peak: () => peak };
}

/** Every AbortSignal.any given `signal`: each one is kept by `signal` (Node 20 never lets go of it). */
function linksTo(signal: AbortSignal): () => number {
  const any = vi.spyOn(AbortSignal, 'any');
  return () => any.mock.calls.filter(([signals]) => [...signals].includes(signal)).length;
}

/** A cycle's ports as the local runner's: its Hiro client, a state document, recorders for the rest. */
function depsOf(chain: ReturnType<typeof createHiroClient>) {
  return {
    chain,
    state: new DocumentStateStore(emptyDocument('mainnet')),
    publisher: new RecordingPublisher(),
    clock: { now: Date.now },
    telemetry: new RecordingTelemetry(),
    operator: new RecordingOperator(),
  };
}

function runner(url: string, stop: AbortSignal, fetchWay: FetchWay) {
  const deps = depsOf(createHiroClient({ baseUrl: url, requestsPerMinute: 100_000 }));
  const missingFeedRoutes = new MissingFeedRoutes();
  const config = watchConfig({ maxBlocksPerRun: 10_000 });
  let runs = 0;
  return () =>
    runCycle(deps, config, {
      runId: `cycle-${++runs}`,
      deadlineMs: Date.now() + 60_000,
      leaseTtlMs: 120_000,
      alertStaleAfterMs: 120_000,
      missingFeedRoutes,
      fetchWay,
      stop,
    });
}

describe("the local runner's stop signal over a long run", () => {
  it.each(['block-scan', 'auto'] as const)(
    'keeps at most one abort listener and no link per request, cycle after cycle (%s)',
    async (fetchWay) => {
      const fake = createFakeHiro({ deprecationWarnings: false });
      const bob = fakeAddress('bob');
      server = await fake.start();
      const stop = new AbortController();
      const listeners = listenerWatch(stop.signal);
      const links = linksTo(stop.signal);
      const cycle = runner(server.url, stop.signal, fetchWay);
      const afterEachCycle: number[] = [];
      for (let i = 0; i < CYCLES; i++) {
        // Transfers (read with the block) and contract logs (whose events are read apart, through a scoped client).
        for (let b = 0; b < BLOCKS_A_CYCLE; b++) {
          fake.chain.mine([transfer({ from: bob, to: alice, amount: 1 + b }), contractCall({ contractId: vault, logs: [`paid-${i}-${b}`] })]);
        }
        const summary = await cycle();
        expect(summary.stoppedBecause).toBe('caught-up');
        afterEachCycle.push(listeners.count());
      }
      expect(fake.requests.length).toBeGreaterThan(CYCLES * 2);
      expect(afterEachCycle).toEqual(afterEachCycle.map(() => 0));
      expect(listeners.peak()).toBeLessThanOrEqual(1);
      expect(links()).toBe(0);
    },
    60_000,
  );

  it('still ends the cycle at once when aborted while requests wait their turn, leaving no listener behind', async () => {
    const fake = createFakeHiro({ deprecationWarnings: false });
    const bob = fakeAddress('bob');
    for (let b = 0; b < 200; b++) fake.chain.mine([transfer({ from: bob, to: alice, amount: 1 + b })]);
    server = await fake.start();
    const stop = new AbortController();
    const listeners = listenerWatch(stop.signal);
    // 6 requests a minute: past the burst of 8, each queued request waits 10 s for its turn.
    const deps = depsOf(createHiroClient({ baseUrl: server.url, requestsPerMinute: 6, burst: 8 }));
    const cycle = runCycle(deps, watchConfig({ maxBlocksPerRun: 10_000 }), {
      runId: 'stopped',
      deadlineMs: Date.now() + 60_000,
      leaseTtlMs: 120_000,
      alertStaleAfterMs: 120_000,
      fetchWay: 'block-scan',
      stop: stop.signal,
    });
    const until = Date.now() + 10_000;
    while (fake.count(ROUTES.blockTransactions) < 4 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 10));
    const abortedAt = Date.now();
    stop.abort(new Error('stop requested'));
    const summary = await cycle;
    expect(summary.stoppedBecause).toBe('stop-requested');
    expect(Date.now() - abortedAt).toBeLessThan(2_000);
    expect(listeners.count()).toBe(0);
  }, 30_000);
});
