// The fetch plan learns from a process's own runs: a warm process (a Lambda container, the local runner) whose
// run read per subject and found the watched addresses far busier than the mainnet-like pace has its next run
// read by the block scan, which costs it fewer requests; a process that remembers nothing reads per subject again.
// The real cycle and Hiro client against the fake API.
import { afterEach, describe, expect, it } from 'vitest';
import { DocumentStateStore, emptyDocument } from '../../lambda/adapters/file/state-document';
import { runCycle } from '../../lambda/core/cycle';
import type { CycleSummary } from '../../lambda/core/cycle-types';
import { ObservedActivity } from '../../lambda/core/follow/observed-activity';
import { createHiroClient } from '../../lambda/hiro';
import { createFakeHiro, fakeAddress, transfer, type FakeHiro, type RunningFakeHiro } from '../support/fake-hiro';
import { RecordingOperator, RecordingTelemetry } from '../core/harness';
import { RecordingPublisher } from '../support/recording-publisher';
import { watchConfig } from './watched-chain';

let server: RunningFakeHiro | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const busy = [fakeAddress('desk-a'), fakeAddress('desk-b'), fakeAddress('desk-c')];
const BLOCKS_PER_RUN = 10;

/** Blocks of 45 transfers among the three watched desks: each desk's feed names about 30 transactions a block. */
function mineBusyBlocks(fake: FakeHiro, count: number): void {
  for (let block = 0; block < count; block++) {
    fake.chain.mine(Array.from({ length: 45 }, (_, i) => transfer({ from: busy[i % 3]!, to: busy[(i + 1) % 3]!, amount: 1 + i })));
  }
}

/** One process's runs: `remember` keeps what they saw across them, as a warm container does. */
function watcherProcess(url: string, remember: boolean) {
  const state = new DocumentStateStore(emptyDocument('mainnet'));
  const observedActivity = new ObservedActivity();
  const config = watchConfig({ addresses: busy, contractLogs: [], maxBlocksPerRun: BLOCKS_PER_RUN });
  let runs = 0;
  return async (): Promise<CycleSummary> => {
    runs += 1;
    const chain = createHiroClient({ baseUrl: url, requestsPerMinute: 1_000_000 });
    const deps = {
      chain,
      state,
      publisher: new RecordingPublisher(),
      clock: { now: Date.now },
      telemetry: new RecordingTelemetry(),
      operator: new RecordingOperator(),
    };
    return runCycle(deps, config, {
      runId: `run-${runs}`,
      deadlineMs: Date.now() + 60_000,
      leaseTtlMs: 120_000,
      alertStaleAfterMs: 120_000,
      fetchWay: 'auto',
      ...(remember ? { observedActivity } : {}),
    });
  };
}

describe('the fetch plan of a warm process', () => {
  it('turns to the block scan, the cheaper way, once a run per subject saw its subjects far busier than the pace', async () => {
    const fake = createFakeHiro();
    mineBusyBlocks(fake, BLOCKS_PER_RUN);
    server = await fake.start();
    const run = watcherProcess(server.url, true);

    const first = await run();
    const perSubject = fake.count();
    mineBusyBlocks(fake, BLOCKS_PER_RUN);
    fake.clearLog();
    const second = await run();
    const blockScan = fake.count();

    expect(first).toMatchObject({ blocksScanned: BLOCKS_PER_RUN, fetchPlan: { way: 'per-subject', asked: 'auto' } });
    expect(first.fetchPlan?.reason).not.toContain('earlier runs saw');
    expect(second).toMatchObject({ blocksScanned: BLOCKS_PER_RUN, fetchPlan: { way: 'block-scan', asked: 'auto' } });
    expect(second.fetchPlan?.reason).toContain('(estimated from what earlier runs saw: 3 of 3 subject feeds)');
    // The same blocks' worth, read the other way: the block scan's requests against those the feeds took.
    expect(blockScan).toBeLessThan(perSubject);

    // The block scan's blocks are seen too: the next run estimates it from them.
    mineBusyBlocks(fake, BLOCKS_PER_RUN);
    const third = await run();
    expect(third.fetchPlan?.reason).toContain("(estimated from what earlier runs saw: 3 of 3 subject feeds, the block scan's blocks)");
  });

  it('reads per subject again in a process that remembers nothing of its runs', async () => {
    const fake = createFakeHiro();
    mineBusyBlocks(fake, BLOCKS_PER_RUN);
    server = await fake.start();
    const run = watcherProcess(server.url, false);

    await run();
    mineBusyBlocks(fake, BLOCKS_PER_RUN);
    const second = await run();

    expect(second.fetchPlan).toMatchObject({ way: 'per-subject', asked: 'auto' });
  });
});
