// Benchmark 1: API requests per scanned block while catching up over a generated mainnet-like chain, for
// each watch config read as the watcher reads it by default (the fetch plan's choice) and by the block scan
// named, against the block scan's lower bound and against a naive scanner.
import type { FetchWay } from '../lambda/core/follow/fetch-choice';
import type { WatchConfig } from '../lambda/core/watch-config/watch-config-schema';
import { EVENT_PAGE_LIMIT, MAX_URL_LENGTH } from '../lambda/hiro';
import { FakeChain, type FakeBlock } from '../test/support/fake-hiro';
import { CONFIG_NAMES, mineAll, watchConfig, type ConfigName, type Workload } from './mainnet-workload';
import { cycleDeps, runOneCycle, startFakeApi } from './watcher-harness';
import { countWay, DEFAULT_FETCH_WAY, waysAsked, type WaysTaken } from './fetch-ways';
import { replayBlocks } from '../lambda/core/scan/replay';

export interface RequestsPerBlockRow {
  /** A watch config's name, or `--replay, <name>` for the same rules tried with --replay. */
  config: ConfigName | `--replay, ${ConfigName}`;
  /** The way the run was asked to read and the way it took. */
  read: WaysTaken;
  blocks: number;
  transactions: number;
  requests: number;
  byRoute: Record<string, number>;
  perBlock: number;
  lowerBoundPerBlock: number;
  naivePerBlock: number;
  /** Measured over the lower bound (the goal is at most 1.05). */
  ratio: number;
}

const BLOCK_PAGE = 50;
const EVENT_CARRYING = new Set(['contract_call', 'smart_contract']);
/** The request the client builds for /tx/multiple, on Hiro's host: its length before any id. */
const EVENTS_URL = 'https://api.hiro.so/extended/v1/tx/multiple?event_limit=100&event_offset=0';
const ID_PARAM_LENGTH = '&tx_id=0x'.length + 64;

/** How many ids one /tx/multiple call holds under a URL budget. */
export function idsPerEventCall(maxUrlLength = MAX_URL_LENGTH): number {
  return Math.floor((maxUrlLength - EVENTS_URL.length) / ID_PARAM_LENGTH);
}

/** Transactions that may carry a log or an asset movement: successful calls and deploys with events. */
function mayCarryEvents(block: FakeBlock) {
  return block.txs.filter((tx) => tx.txStatus === 'success' && EVENT_CARRYING.has(tx.txType) && tx.events.length > 0);
}

/** Whether a config makes the scan read events: logs, and STX or tokens moving inside contract calls. */
export function readsEvents(config: WatchConfig): boolean {
  return config.contractLogs.length > 0 || config.addresses.length > 0 || config.transfers.length > 0;
}

/** Every page of every block's transaction list (an empty block still costs its one request). */
export function blockPages(blocks: readonly FakeBlock[]): number {
  return blocks.reduce((sum, block) => sum + Math.max(1, Math.ceil(block.txs.length / BLOCK_PAGE)), 0);
}

/**
 * The fewest /tx/multiple calls covering every transaction that may carry an event the config watches,
 * batched across all blocks (a transaction with more than 100 events needs a call per further 100, again shared).
 */
export function v1EventRequests(blocks: readonly FakeBlock[], idsPerCall = idsPerEventCall()): number {
  const eventCounts = blocks.flatMap((block) => mayCarryEvents(block).map((tx) => tx.events.length));
  let requests = 0;
  for (let offset = 0; ; offset += EVENT_PAGE_LIMIT) {
    const round = eventCounts.filter((count) => count > offset).length;
    if (round === 0) break;
    requests += Math.ceil(round / idsPerCall);
  }
  return requests;
}

/**
 * The fewest requests that can scan `blocks`: every page of every block, and, when events are read (logs,
 * addresses or transfers watched), the fewest /tx/multiple calls for them.
 */
export function lowerBound(blocks: readonly FakeBlock[], watchesEvents: boolean, idsPerCall = idsPerEventCall()): number {
  return blockPages(blocks) + (watchesEvents ? v1EventRequests(blocks, idsPerCall) : 0);
}

/** A scanner that pages every block and then fetches each transaction's events on its own. */
export function naiveRequests(blocks: readonly FakeBlock[]): number {
  return blocks.reduce((sum, block) => sum + Math.max(1, Math.ceil(block.txs.length / BLOCK_PAGE)) + block.txs.length, 0);
}

/** The ways each config is read: as the watcher reads by default, and by the block scan the lower bound is of. */
export const REQUESTS_WAYS: readonly FetchWay[] = DEFAULT_FETCH_WAY === 'block-scan' ? ['block-scan'] : [DEFAULT_FETCH_WAY, 'block-scan'];

export async function measureRequestsPerBlock(workload: Workload): Promise<RequestsPerBlockRow[]> {
  const rows: RequestsPerBlockRow[] = [];
  for (const name of CONFIG_NAMES) for (const way of REQUESTS_WAYS) rows.push(await measureConfig(workload, name, way));
  rows.push(await measureReplay(workload, 'both'));
  return rows;
}

/** One catch-up over the whole chain in one run, read the way asked. */
async function measureConfig(workload: Workload, name: ConfigName, way: FetchWay): Promise<RequestsPerBlockRow> {
  const chain = new FakeChain({ seed: 'bench-requests' });
  mineAll(chain, workload.blocks);
  const api = await startFakeApi(chain);
  try {
    const deps = cycleDeps(api.client(), { now: Date.now });
    const config = watchConfig(name, workload, chain.firstHeight);
    const summary = await runOneCycle(deps, config, { fetchWay: way });
    if (summary.stoppedBecause !== 'caught-up') throw new Error(`the ${name} scan stopped early: ${summary.stoppedBecause}`);
    const read = waysAsked(way);
    countWay(read, summary);
    const blocks = chain.blocks();
    const requests = api.fake.count();
    const bound = lowerBound(blocks, readsEvents(config));
    return {
      config: name,
      read,
      blocks: summary.blocksScanned,
      transactions: blocks.reduce((sum, b) => sum + b.txs.length, 0),
      requests,
      byRoute: api.fake.counts(),
      perBlock: requests / summary.blocksScanned,
      lowerBoundPerBlock: bound / blocks.length,
      naivePerBlock: naiveRequests(blocks) / blocks.length,
      ratio: requests / bound,
    };
  } finally {
    await api.server.close();
  }
}

/** `--replay` over the same blocks with the same rules: it reads the chain as the watcher does. */
async function measureReplay(workload: Workload, name: ConfigName): Promise<RequestsPerBlockRow> {
  const chain = new FakeChain({ seed: 'bench-requests' });
  mineAll(chain, workload.blocks);
  const api = await startFakeApi(chain);
  try {
    const config = watchConfig(name, workload, chain.firstHeight);
    const { blocks: scanned } = await replayBlocks(
      api.client(),
      config,
      { from: chain.firstHeight, to: chain.tip!.height },
      { onAlerts: async () => {} },
      { now: () => Date.now() },
    );
    const blocks = chain.blocks();
    const requests = api.fake.count();
    const bound = lowerBound(blocks, config.contractLogs.length > 0);
    return {
      config: `--replay, ${name}`,
      // --replay reads every block of its range, whatever the plan would choose (lambda/core/scan/replay.ts).
      read: { asked: 'block-scan', blockScan: 1, perSubject: 0 },
      blocks: scanned,
      transactions: blocks.reduce((sum, b) => sum + b.txs.length, 0),
      requests,
      byRoute: api.fake.counts(),
      perBlock: requests / scanned,
      lowerBoundPerBlock: bound / blocks.length,
      naivePerBlock: naiveRequests(blocks) / blocks.length,
      ratio: requests / bound,
    };
  } finally {
    await api.server.close();
  }
}
