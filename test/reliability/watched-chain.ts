// A watcher wired as in production, minus AWS: the real Hiro client against the fake Hiro server, a state
// store, a recording publisher and telemetry. Plus what the fake chain says the watcher must alert: every
// successful transfer to the watched address and every log of the watched contract on the canonical chain.
import type { CycleBudget, CycleSummary } from '../../lambda/core/cycle-types';
import type { WatchConfig } from '../../lambda/core/watch-config/watch-config-schema';
import type { StateStore } from '../../lambda/core/ports';
import { DocumentStateStore, emptyDocument } from '../../lambda/adapters/file/state-document';
import { runCycle } from '../../lambda/core/cycle';
import { MissingFeedRoutes } from '../../lambda/core/follow/subject-fallback';
import { createHiroClient, type HiroClientOptions } from '../../lambda/hiro';
import { RecordingOperator, RecordingTelemetry } from '../core/harness';
import { fakeAddress, fakeContractId, type FakeChain } from '../support/fake-hiro';
import { RecordingPublisher } from '../support/recording-publisher';
import { emptyWatchConfig } from '../../lambda/config/watch-config';

export const alice = fakeAddress('alice');
export const vault = fakeContractId('vault');

export function watchConfig(overrides: Partial<WatchConfig> = {}): WatchConfig {
  return {
    ...emptyWatchConfig('mainnet'),
    contracts: [],
    addresses: [alice],
    contractLogs: [{ contractId: vault }],
    transfers: [],
    startHeight: 1,
    confirmations: 0,
    maxBlocksPerRun: 2_000,
    ...overrides,
  } as WatchConfig;
}

export interface Watcher {
  publisher: RecordingPublisher;
  telemetry: RecordingTelemetry;
  operator: RecordingOperator;
  state: StateStore;
  run(): Promise<CycleSummary>;
  /** Runs until a cycle ends caught up at the chain's tip; fails after `maxRuns`. */
  runUntilCaughtUp(chain: FakeChain, maxRuns?: number): Promise<CycleSummary[]>;
}

export function watcher(
  baseUrl: string,
  state: StateStore,
  config: WatchConfig = watchConfig(),
  client: Partial<HiroClientOptions> = {},
  budget: Partial<Pick<CycleBudget, 'deprecationsNoticed' | 'deadlineMs' | 'fetchWay'>> = {},
): Watcher {
  const chain = createHiroClient({ baseUrl, requestsPerMinute: 1_000_000, ...client });
  const publisher = new RecordingPublisher();
  const telemetry = new RecordingTelemetry();
  const operator = new RecordingOperator();
  let runs = 0;
  const clock = { now: client.now ?? Date.now };
  // One watcher is one process: what it finds the API lacks, it remembers across its runs.
  const missingFeedRoutes = new MissingFeedRoutes();
  const run = () => {
    runs += 1;
    return runCycle({ chain, state, publisher, clock, telemetry, operator }, config, {
      runId: `run-${runs}`,
      deadlineMs: clock.now() + 60_000,
      leaseTtlMs: 120_000,
      alertStaleAfterMs: 120_000,
      missingFeedRoutes,
      ...budget,
    });
  };
  return {
    publisher,
    telemetry,
    operator,
    state,
    run,
    async runUntilCaughtUp(fakeChain, maxRuns = 5) {
      const summaries: CycleSummary[] = [];
      for (let i = 0; i < maxRuns; i++) {
        const summary = await run();
        summaries.push(summary);
        if (summary.stoppedBecause === 'caught-up' && summary.cursor?.hash === fakeChain.tip?.hash) return summaries;
      }
      throw new Error(`not caught up after ${maxRuns} runs: ${JSON.stringify(summaries.map((s) => s.stoppedBecause))}`);
    },
  };
}

/** Two watchers of one config on one API, each with its own state: one reads by the block scan, one per subject. */
export function watchersBothWays(baseUrl: string, config: WatchConfig = watchConfig()): { scan: Watcher; subjects: Watcher } {
  const each = (fetchWay: 'block-scan' | 'per-subject') => watcher(baseUrl, new DocumentStateStore(emptyDocument('mainnet')), config, {}, { fetchWay });
  return { scan: each('block-scan'), subjects: each('per-subject') };
}

/** The keys of every alert the canonical chain holds for the watch config above. */
export function canonicalAlertKeys(chain: FakeChain): string[] {
  const keys: string[] = [];
  for (const block of chain.blocks()) {
    for (const tx of block.txs) {
      if (tx.txStatus !== 'success') continue;
      const transfer = tx.payload.token_transfer as { recipient_address?: string } | undefined;
      if (tx.txType === 'token_transfer' && transfer?.recipient_address === alice) keys.push(`token_transfer:${tx.txId}`);
      tx.events.forEach((event, index) => {
        const log = event.contract_log as { contract_id?: string } | undefined;
        if (event.event_type === 'smart_contract_log' && log?.contract_id === vault) keys.push(`contract_log:${tx.txId}:${index}`);
      });
    }
  }
  return keys;
}

/** How often each key was published. */
export function publishCounts(publisher: RecordingPublisher): Map<string, number> {
  const counts = new Map<string, number>();
  for (const key of publisher.keys()) counts.set(key, (counts.get(key) ?? 0) + 1);
  return counts;
}
