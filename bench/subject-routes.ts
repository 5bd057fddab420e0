// Benchmark 1d: requests per block once every deprecated route answers 410, read per subject, by the block scan
// and as the watcher reads by default (the fetch plan's choice of the two), on the mainnet-like chain at its
// block rate: one run a minute, 7 new blocks a run (mainnet's pace), for a watch list of 20 subjects (14
// addresses, 6 contracts' logs) and of 2 (1 and 1), a new client a run as the handler builds one, in a warm
// container that remembers the routes it found retired or missing. Every request counts: the tip, the header
// chain, the feeds and their 304s, the batch, the events, the 410s.
import type { WatchConfig } from '../lambda/core/watch-config/watch-config-schema';
import type { FetchWay } from '../lambda/core/follow/fetch-choice';
import { DEPRECATED_CHAIN_READS, FakeChain } from '../test/support/fake-hiro';
import { fixed, table, verdict } from './markdown';
import { watchConfig, type Workload } from './mainnet-workload';
import { cycleDeps, memoryState, processMemory, runOneCycle, startFakeApi } from './watcher-harness';
import { countWay, DEFAULT_FETCH_WAY, READ_COLUMN_NOTE, waysAsked, waysCell, type WaysTaken } from './fetch-ways';

export interface SubjectRoutesRow {
  /** How the watcher runs: the 1-minute schedule, or the loop. */
  mode: string;
  subjects: number;
  way: FetchWay;
  /** The way the measured runs were asked for and the ways they took. */
  read: WaysTaken;
  blocks: number;
  requests: number;
  perBlock: number;
  /** The goal for reading per subject and for the default: 3.0 a block for 20 subjects, 1.0 for 2; none for the block scan named. */
  goal: number | null;
  byRoute: Record<string, number>;
}

export const BLOCKS_PER_RUN = 7;
export const GOALS: Record<number, number> = { 20: 3, 2: 1 };

/** The ways table 1d compares: the block scan, reading per subject, and the watcher's default (the plan's choice between them). */
export const SUBJECT_WAYS: readonly FetchWay[] = ['block-scan', 'per-subject', ...(DEFAULT_FETCH_WAY === 'auto' ? (['auto'] as const) : [])];

/** A row's goal: that of its subjects for any way but the block scan named. */
export function subjectGoal(way: FetchWay, subjects: number): number | null {
  return way === 'block-scan' ? null : (GOALS[subjects] ?? null);
}

export function subjectsConfig(workload: Workload, subjects: number, startHeight: number | 'latest'): WatchConfig {
  const base = watchConfig('both', workload, startHeight);
  // 7 addresses to every 3 contracts, as in the 20 (14 and 6); 1 and 1 for 2.
  const addresses = Math.max(1, Math.round((subjects * 7) / 10));
  return {
    ...base,
    contracts: [],
    transfers: [],
    calls: [],
    addresses: workload.watchedAddresses.slice(0, addresses),
    contractLogs: workload.watchedContracts.slice(0, subjects - addresses).map((contractId) => ({ contractId })),
  };
}

async function measure(workload: Workload, subjects: 20 | 2, way: FetchWay): Promise<SubjectRoutesRow> {
  const chain = new FakeChain({ seed: 'bench-subjects' });
  const [first, ...rest] = workload.blocks;
  chain.mine(first!);
  const api = await startFakeApi(chain);
  api.fake.retire(...DEPRECATED_CHAIN_READS);
  try {
    const config = subjectsConfig(workload, subjects, chain.firstHeight);
    // One warm container: a new client each run, as the handler builds one, with what the container remembers.
    const memory = processMemory();
    const state = memoryState();
    const invoke = () => runOneCycle(cycleDeps(api.client({ ...memory.routes }), { now: Date.now }, state), config, { ...memory.budget, fetchWay: way });
    await invoke(); // the first run reads the first block (not counted)
    api.fake.clearLog();
    let scanned = 0;
    const read = waysAsked(way);
    for (let start = 0; start < rest.length; start += BLOCKS_PER_RUN) {
      for (const block of rest.slice(start, start + BLOCKS_PER_RUN)) chain.mine(block);
      const summary = await invoke();
      if (summary.stoppedBecause !== 'caught-up') throw new Error(`the ${way} run with ${subjects} subjects stopped early: ${summary.stoppedBecause}`);
      scanned += summary.blocksScanned;
      countWay(read, summary);
    }
    const requests = api.fake.count();
    return {
      mode: '1-minute schedule',
      subjects,
      way,
      read,
      blocks: scanned,
      requests,
      perBlock: requests / scanned,
      goal: subjectGoal(way, subjects),
      byRoute: api.fake.counts(),
    };
  } finally {
    await api.server.close();
  }
}

export async function measureSubjectRoutes(workload: Workload): Promise<SubjectRoutesRow[]> {
  const rows: SubjectRoutesRow[] = [];
  for (const subjects of [20, 2] as const) for (const way of SUBJECT_WAYS) rows.push(await measure(workload, subjects, way));
  return rows;
}

export function subjectRoutesSection(rows: SubjectRoutesRow[]): string {
  return [
    '### 1d. API requests per block per subject, every deprecated route answering 410',
    '',
    `The mainnet-like chain at its block rate: ${BLOCKS_PER_RUN} new blocks between runs, one run a minute, after a first run ` +
      'that reads the first block (not counted); in the loop, a block every 60/7 s and a turn every 8 s (simulated time). A new client a run or ' +
      'turn, as the handler builds one, in a warm container that remembers the routes it found retired (410) or missing. ' +
      "Every request of the later runs counts (the tip, the header chain, the feeds, the batch, the events, the 410s). Goal for reading per subject, and for the default (auto: the plan's choice of the two for each run): at most 3.0 a block " +
      `for 20 subjects, 1.0 for 2. ${READ_COLUMN_NOTE}`,
    '',
    table(
      ['mode', 'subjects', 'read', 'blocks', 'requests', 'requests / block', 'goal'],
      rows.map((r) => [
        r.mode,
        String(r.subjects),
        waysCell(r.read),
        String(r.blocks),
        String(r.requests),
        fixed(r.perBlock, 2),
        r.goal === null ? '' : `${verdict(r.perBlock <= r.goal)} ≤ ${fixed(r.goal, 1)}`,
      ]),
    ),
  ].join('\n');
}
