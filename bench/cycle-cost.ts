// Benchmark 5: what one watch cycle costs on AWS, in the scenarios table 5 shows: the tip unchanged, new blocks
// with and without alerts, a loop turn's poll, a doorbell ring, a pending rule, a window. Each is measured as
// bench/cycle-measure.ts says: real cycles on dynalite and a metered SNS, timed on an event clock.
import type { WatchConfig } from '../lambda/core/watch-config/watch-config-schema';
import { fakeAddress, fakeContractId } from '../test/support/fake-hiro';
import { startStandIns } from './stand-ins';
import { measureScenario, type CycleCost, type CycleOptions } from './cycle-measure';
import { watchConfig, type Workload } from './mainnet-workload';
import { waysCell } from './fetch-ways';
import { subjectsOf } from '../lambda/core/follow/fetch-plan';
import { compileWatchRules } from '../lambda/core/rules/rule-lists';

export { DEFAULT_MEMORY_MB, HIRO_LATENCY_MS, MEMORY_GB, type CycleCost, type CycleOptions } from './cycle-measure';

/** Blocks a run following the tip finds: about 10 a minute on mainnet since Nakamoto, at a 1-minute schedule. */
export const FOLLOWING_BLOCKS = 10;
/** Goal for such a run's billed time. */
export const FOLLOWING_RUN_GOAL_MS = 3_000;

export const DEFAULT_CYCLE_OPTIONS: CycleOptions = { requestsPerMinute: 50, detailedMetrics: false };

export interface CycleCosts {
  idle: CycleCost;
  /** As many subjects as the alerting cycles watch, none of which ever matches: the same way of reading, no alert. */
  following: CycleCost;
  /** The same with a watch list of FEW_SUBJECTS (one address, one contract's logs). */
  followingFew: CycleCost;
  /** Subjects (contracts whose logs, principals whose activity) the alerting cycles watch, and the quiet ones as many. */
  subjects: number;
  withAlerts: CycleCost;
  /** One loop turn's cycle (a poll a few seconds after the last): two new blocks, no status check. */
  poll: CycleCost;
  perAlert: { gbSeconds: number; readUnits: number; writeUnits: number; snsMessages: number };
  /** One poll with a pending rule (docs/pending.md), new transactions waiting in the mempool at each. */
  pollPending: CycleCost;
  /** One doorbell ring's cycle: one new block, under the run lease. */
  ring: CycleCost;
  /** The alerting cycles again with a window over one of their rules (docs/windows.md): its counts ride on the cursor write. */
  withWindow: CycleCost;
  /** Write units per alert with that window: (its cycle less the quiet one) per alert, window crossings included. */
  windowWriteUnitsPerAlert: number;
}

/** The short watch list of the `followingFew` cycles. */
export const FEW_SUBJECTS = 2;

/**
 * The same scan as `alerting` (events read for the same transactions, the same way chosen by the plan, which
 * weighs the number of subjects) with nothing that ever matches: as many contracts and principals, none on the chain.
 */
function subjectCount(config: WatchConfig): number {
  const { contracts, principals } = subjectsOf(compileWatchRules(config));
  return contracts.length + principals.length;
}

function quietConfig(alerting: WatchConfig): WatchConfig {
  const { contracts, principals } = subjectsOf(compileWatchRules(alerting));
  return {
    ...alerting,
    addresses: principals.map((_, i) => fakeAddress(`nobody-watched-${i}`)),
    contractLogs: contracts.map((_, i) => ({ contractId: fakeContractId(`never-called-${i}`) })),
    transfers: [],
  };
}

/** A short watch list, which the fetch plan reads per subject where the alerting one it reads by the block scan. */
function shortListConfig(alerting: WatchConfig): WatchConfig {
  return { ...alerting, addresses: [fakeAddress('nobody-watched')], contractLogs: [{ contractId: fakeContractId('never-called') }], transfers: [] };
}

/** What an alert adds to a cycle: the alerting cycles less the quiet ones, per alert, both read the same way. */
function perAlert(withAlerts: CycleCost, following: CycleCost): CycleCosts['perAlert'] {
  if (waysCell(withAlerts.read!) !== waysCell(following.read!))
    throw new Error(
      `the quiet and the alerting cycles read different ways (${waysCell(following.read!)}, ${waysCell(withAlerts.read!)}): their difference is no cost per alert`,
    );
  const per = (key: 'gbSeconds' | 'readUnits' | 'writeUnits' | 'snsMessages') => (withAlerts[key] - following[key]) / withAlerts.alertsPerCycle;
  return { gbSeconds: per('gbSeconds'), readUnits: per('readUnits'), writeUnits: per('writeUnits'), snsMessages: per('snsMessages') };
}

/** New waiting transactions a poll finds on a busy chain: the pending rule's record changes every poll. */
const WAITING_PER_POLL = 3;

export async function measureCycleCosts(workload: Workload, options: CycleOptions = DEFAULT_CYCLE_OPTIONS): Promise<CycleCosts> {
  const dynamo = await startStandIns();
  try {
    const alerting = watchConfig('both', workload, 'latest');
    const quiet = quietConfig(alerting);
    // A warm container's code is compiled: unmeasured alerting cycles compile it here, not in the first scenario's.
    await measureScenario(dynamo, workload, { name: 'warm-up', config: alerting, blocksPerCycle: FOLLOWING_BLOCKS }, { ...options, cycles: 2 });
    const idle = await measureScenario(dynamo, workload, { name: 'tip unchanged', config: quiet, blocksPerCycle: 0 }, options);
    const following = await measureScenario(dynamo, workload, { name: '10 new blocks, no alert', config: quiet, blocksPerCycle: FOLLOWING_BLOCKS }, options);
    const followingFew = await measureScenario(
      dynamo,
      workload,
      { name: `10 new blocks, no alert, ${FEW_SUBJECTS} subjects watched`, config: shortListConfig(alerting), blocksPerCycle: FOLLOWING_BLOCKS },
      options,
    );
    const withAlerts = await measureScenario(
      dynamo,
      workload,
      { name: '10 new blocks with alerts', config: alerting, blocksPerCycle: FOLLOWING_BLOCKS },
      options,
    );
    // A loop turn (a "poll": a cycle a few seconds after the last) checks no contract status: the loop checks them
    // in about one turn a minute (lambda/runtime/loop-invocation.ts, statusesDue); the bill prices that once a minute.
    const poll = await measureScenario(
      dynamo,
      workload,
      { name: 'one poll: 2 new blocks', config: quiet, blocksPerCycle: 2, checkStatuses: false, loopTurn: true },
      options,
    );
    // A doorbell ring (docs/doorbell.md): one cycle under the run lease, a block after the last, no status check.
    const ring = await measureScenario(
      dynamo,
      workload,
      { name: 'one doorbell ring: 1 new block', config: quiet, blocksPerCycle: 1, checkStatuses: false },
      options,
    );
    // The same poll with a pending rule on a vault nobody calls: the mempool read and its record, nothing alerted.
    const pending: WatchConfig = { ...quiet, calls: [{ contractId: fakeContractId('quiet-vault'), functions: ['set-owner'], status: 'any', pending: true }] };
    const pollPending = await measureScenario(
      dynamo,
      workload,
      {
        name: `one poll with a pending rule: 2 new blocks, ${WAITING_PER_POLL} new waiting`,
        config: pending,
        blocksPerCycle: 2,
        waitingPerCycle: WAITING_PER_POLL,
        checkStatuses: false,
        loopTurn: true,
      },
      options,
    );
    // The same alerts, the watched deposits also counted by an hour-long window.
    const windowed: WatchConfig = {
      ...alerting,
      addressesRule: { name: 'watched deposits' },
      windows: [{ name: 'deposit burst', of: 'watched deposits', minutes: 60, count: 25 }],
    };
    const withWindow = await measureScenario(
      dynamo,
      workload,
      { name: '10 new blocks with alerts and a window', config: windowed, blocksPerCycle: FOLLOWING_BLOCKS },
      options,
    );
    return {
      idle,
      following,
      followingFew,
      subjects: subjectCount(alerting),
      withAlerts,
      poll,
      pollPending,
      ring,
      perAlert: perAlert(withAlerts, following),
      withWindow,
      windowWriteUnitsPerAlert: (withWindow.writeUnits - following.writeUnits) / withWindow.alertsPerCycle,
    };
  } finally {
    await dynamo.close();
  }
}
