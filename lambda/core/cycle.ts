// One watch cycle: take the lease; then statuses → for each block: match → deliver → advance; then report. Every alert goes through one delivery stage, every cursor write through one keeper.
// Pure orchestration over the ports: no AWS SDK, no fetch, no process.env.
import { chooseRunSource, planAsRun, readRunTip } from './follow/fetch-choice';
import { MissingFeedRoutes } from './follow/subject-fallback';
import { RunActivity } from './follow/observed-activity';
import type { Alert, AlertType, ChainAlert } from './alert-kinds/alert';
import type { WatchConfig } from './watch-config/watch-config-schema';
import type { CycleBudget, CycleDeps, CycleSummary, StopReason } from './cycle-types';
import { BlockScanner } from './scan/block-scanner';
import { watchContractStatuses } from './match/contract-status-watch';
import { contractsThisCycle } from './match/contract-status-sweep';
import { compileWatchRules, type WatchRules } from './rules/rule-lists';
import { RunLease } from './scan/run-lease';
import { AlertInFlightError } from './deliver/delivery';
import { ApiBackoffError } from './follow/api-backoff';
import { DeliveryStage } from './deliver/delivery-stage';
import { CursorKeeper } from './scan/cursor-keeper';
import { reportApiDeprecations } from './follow/api-deprecations';
import type { ChainTip } from './domain';
import { MempoolWatch } from './mempool/mempool-watch';
import { settleAll } from './settle';
import { checkChainHealthInCycle } from './health/chain-health-watch';

/**
 * A run starting further than this behind the tip is a catch-up (a first run from an old startHeight, or
 * after an outage): its alerts are old news by the time they are found, so the publisher is told (the SMS budget then
 * sends them to the digest rather than a text each). About five minutes of chain at twelve blocks a minute.
 */
export const CATCH_UP_BLOCKS = 60;

/** What a cycle works with once it holds the lease. */
interface Run {
  deps: CycleDeps;
  config: WatchConfig;
  budget: CycleBudget;
  rules: WatchRules;
  keeper: CursorKeeper;
  delivery: DeliveryStage;
  lease: RunLease;
  /** The pending rules' stage, when the config has any (mempool/). */
  mempool: MempoolWatch | null;
}

export async function runCycle(deps: CycleDeps, config: WatchConfig, budget: CycleBudget): Promise<CycleSummary> {
  const startedAt = deps.clock.now();
  const summary = emptySummary(budget.runId);
  // A queued loop turn takes no lease: its token, checked by its one write, stands for it (scan/loop-turns.ts).
  const lease = new RunLease(deps.state, deps.clock, budget.runId, budget.leaseTtlMs, budget.loopTurn !== undefined);
  if (!(budget.leaseTaken || budget.loopTurn ? lease.adopt() : await lease.acquire())) {
    deps.telemetry.log('warn', 'another run holds the lease; this run exits without doing anything', { runId: budget.runId });
    return finish(summary, 'lease-held', deps, startedAt);
  }
  try {
    // The tip is asked for while the statuses are checked: independent requests, so one round trip for
    // both. Status alerts still go out before any block's. Both settle before either's failure ends the run.
    // A turn that follows the tip then waits on, one after the other: the block scan, the new blocks together
    // (read-ahead.ts), then their events in one call; per subject, every feed at once after the header chain
    // the tip's page gave (subject-source.ts), the batch placing logs and the events, each only when needed;
    // then the cursor write. The next block is not asked beside the tip: a turn that finds none would pay for it.
    const started = startRun(deps, config, budget, lease).then(async (run) => ({ run, statuses: await checkContractStatuses(run) }));
    const missing = budget.missingFeedRoutes && { routes: budget.missingFeedRoutes, now: startedAt };
    const [{ run, statuses }, tip] = await settleAll([started, readRunTip(deps.chain, budget.fetchWay, missing)]);
    summary.contractsChecked = statuses.checked;
    // A cycle told to skip the status check does not report the watched count either: only a real check does.
    if (budget.checkStatuses !== false && config.contracts.length > 0) deps.telemetry.metric('ContractsWatched', config.contracts.length);

    if (!tip) {
      deps.telemetry.log('warn', 'the API has no chain tip yet (still syncing); no block scanned');
      await run.mempool?.finish(run.delivery, budget.runId);
      countAlerts(summary, run.delivery.published);
      return finish(summary, 'api-not-synced', deps, startedAt);
    }
    const scan = await scanBlocks(run, tip);
    // After the scan, never before it: the mempool was read meanwhile, and its alerts wait for no block.
    await run.mempool?.finish(run.delivery, budget.runId);
    if (run.mempool?.readPlan) summary.mempoolRead = run.mempool.readPlan;
    if (config.chainHealth) await checkChainHealthInCycle(deps, run.delivery, tip, config.chainHealth, config.network);
    Object.assign(summary, { blocksScanned: scan.blocksScanned, reorgs: scan.reorgs, tip: { height: tip.height, hash: tip.hash } });
    if (scan.plan) summary.fetchPlan = scan.plan;
    position(summary, run.keeper, tip, deps.clock.now());
    countAlerts(summary, run.delivery.published);
    return finish(summary, scan.stoppedBecause, deps, startedAt);
  } catch (error) {
    // Asked to wait before any block was scanned (statuses, the tip): nothing moved, nothing to save.
    if (!(error instanceof ApiBackoffError)) throw error;
    deps.telemetry.log('warn', error.message, { runId: budget.runId });
    return finish(summary, 'api-backoff', deps, startedAt);
  } finally {
    await reportApiDeprecations(deps, budget.runId, budget.alertStaleAfterMs, budget.deprecationsNoticed);
    await lease.release();
  }
}

/** The run's cursor keeper and delivery stage. */
async function startRun(deps: CycleDeps, config: WatchConfig, budget: CycleBudget, lease: RunLease): Promise<Run> {
  // Read once: under the lease only this run moves the cursor (a loop turn's was read with its token).
  const stored = budget.loopTurn ? budget.loopTurn.cursor : await deps.state.readCursor();
  const keeper = new CursorKeeper(deps.state, deps.telemetry, stored, budget.loopTurn);
  const delivery = new DeliveryStage(deps, budget.alertStaleAfterMs);
  const rules = compileWatchRules(config);
  return { deps, config, budget, rules, keeper, delivery, lease, mempool: MempoolWatch.start(deps, rules, config.network) };
}

/**
 * A status alert claimed by a run that may still be publishing it (a run killed at its timeout leaves such
 * claims) is left to a later run, which finds the change again since nothing about it was stored: the
 * block scan does not depend on it and goes on, rather than the whole cycle failing.
 */
async function checkContractStatuses({ deps, config, budget, rules, delivery, keeper }: Run) {
  try {
    const contracts = budget.checkStatuses === false ? [] : contractsThisCycle(config.contracts, budget.statusSweep, deps.clock.now());
    // A mute is on block time; before the first block is scanned, the clock's.
    const at = { blockTime: keeper.head()?.time ?? Math.floor(deps.clock.now() / 1000), nowMs: deps.clock.now() };
    return await watchContractStatuses(
      contracts,
      config.network,
      deps.chain,
      deps.state,
      delivery,
      rules.contracts.meta,
      at,
      rules.cooldownsAndMutes.get(rules.contracts.meta.rule),
    );
  } catch (error) {
    if (!(error instanceof AlertInFlightError)) throw error;
    deps.telemetry.log('warn', `${error.message}; contract statuses are checked again next run`, { runId: budget.runId });
    return { checked: 0, alerts: [] };
  }
}

async function scanBlocks(run: Run, tip: ChainTip) {
  const { deps, config, budget, keeper } = run;
  const lastHeight = tip.height - config.confirmations;
  const firstHeight = config.startHeight === 'latest' ? lastHeight : config.startHeight;
  // Far behind the tip, alerts are old news by the time they are found: the digest, not a text each.
  if (lastHeight - keeper.nextHeight(firstHeight) + 1 > CATCH_UP_BLOCKS) deps.publisher.fallingBehind?.();
  if (!keeper.cursor && firstHeight > lastHeight) {
    // Not an error (the chain may be about to get there), but silence here looks like a watcher that works.
    deps.telemetry.log(
      'warn',
      `startHeight ${firstHeight} is above the chain tip ${tip.height}` +
        (config.confirmations > 0 ? ` less ${config.confirmations} confirmations` : '') +
        `: nothing to scan yet; each run checks again and starts there once the chain reaches it`,
    );
  }
  const behind = tip.height - keeper.nextHeight(firstHeight) + 1;
  const blocks = Math.min(config.maxBlocksPerRun, lastHeight - keeper.nextHeight(firstHeight) + 1);
  const missingRoutes = budget.missingFeedRoutes ?? new MissingFeedRoutes();
  const now = deps.clock.now();
  // What this run sees of the feeds and blocks, taken into the process's memory when the scan ends.
  const observed = budget.observedActivity;
  const activity = observed ? new RunActivity() : undefined;
  const { source, plan: fetchPlan } = chooseRunSource(
    budget.fetchWay,
    deps.chain,
    run.rules,
    blocks,
    deps.telemetry,
    behind,
    { routes: missingRoutes, now },
    observed && activity && { observed, run: activity, now },
  );
  const plan = {
    network: config.network,
    rules: run.rules,
    firstHeight,
    lastHeight,
    tip: { height: tip.height, hash: tip.hash, ...(tip.burnHeight === undefined ? {} : { burnHeight: tip.burnHeight }) },
    maxBlocks: config.maxBlocksPerRun,
    source,
    missingRoutes,
    ...(activity ? { activity } : {}),
  };
  const mempool = run.mempool;
  const stages = {
    keeper,
    delivery: run.delivery,
    lease: run.lease,
    ...(mempool ? { releaseLeaseAtEnd: false, markMined: (a: ChainAlert[]) => mempool.markMined(a) } : {}),
  };
  const scanned = await new BlockScanner(deps, plan, budget, stages).run();
  if (observed && activity) observed.record(activity, deps.clock.now());
  return { ...scanned, plan: planAsRun(fetchPlan, deps.chain, missingRoutes, deps.clock.now()) };
}

function position(summary: CycleSummary, keeper: CursorKeeper, tip: ChainTip, nowMs: number): void {
  const cursor = keeper.cursor;
  if (!cursor) return;
  summary.cursor = { height: cursor.height, hash: cursor.hash };
  summary.lagBlocks = Math.max(0, tip.height - cursor.height);
  summary.lagSeconds = Math.max(0, Math.round(nowMs / 1000 - cursor.time));
}

function emptySummary(runId: string): CycleSummary {
  return {
    runId,
    stoppedBecause: 'caught-up',
    blocksScanned: 0,
    alertsPublished: 0,
    alertsByType: {},
    contractsChecked: 0,
    reorgs: 0,
    cursor: null,
    tip: null,
    lagBlocks: null,
    lagSeconds: null,
    durationMs: 0,
  };
}

function countAlerts(summary: CycleSummary, alerts: readonly Alert[]): void {
  summary.alertsPublished = alerts.length;
  const byType: Partial<Record<AlertType, number>> = {};
  for (const alert of alerts) byType[alert.type] = (byType[alert.type] ?? 0) + 1;
  summary.alertsByType = byType;
}

function finish(summary: CycleSummary, reason: StopReason, deps: CycleDeps, startedAt: number): CycleSummary {
  summary.stoppedBecause = reason;
  summary.durationMs = deps.clock.now() - startedAt;
  const { telemetry } = deps;
  // Counters go out only when something happened (a metric sent is a series billed for its hour); the
  // log line below carries every figure, zeros included.
  if (summary.blocksScanned > 0) telemetry.metric('BlocksScanned', summary.blocksScanned);
  telemetry.metric('CycleDurationMs', summary.durationMs);
  if (summary.lagBlocks !== null) telemetry.metric('ChainLagBlocks', summary.lagBlocks);
  if (summary.lagSeconds !== null) telemetry.metric('ChainLagSeconds', summary.lagSeconds);
  for (const [type, count] of Object.entries(summary.alertsByType)) {
    telemetry.metric('AlertsPublished', count, { type });
  }
  telemetry.log('info', 'cycle done', { ...summary });
  return summary;
}
