// One watch cycle: take the lease, check contract statuses, scan new blocks, report what was done.
// Pure orchestration over the ports: no AWS SDK, no fetch, no process.env.
import type { Alert, AlertType } from './alert-kinds/alert';
import type { WatchConfig } from './watch-config/watch-config-schema';
import type { CycleBudget, CycleDeps, CycleSummary, StopReason } from './cycle-types';
import { BlockScanner } from './block-scanner';
import { watchContractStatuses } from './contract-status-watch';
import { contractsThisCycle } from './contract-status-sweep';
import { compileWatchRules } from './alert-kinds/rule-lists';
import type { RuleMeta } from './rule-meta';
import { RunLease } from './run-lease';
import { AlertInFlightError } from './delivery';
import { reportApiDeprecations } from './api-deprecations';
import { CATCH_UP_BLOCKS, SmsBudget } from './sms-budget';
import { sendSmsDigest } from './sms-digest-delivery';

export async function runCycle(deps: CycleDeps, config: WatchConfig, budget: CycleBudget): Promise<CycleSummary> {
  const startedAt = deps.clock.now();
  const { state, telemetry } = deps;
  const summary: CycleSummary = {
    runId: budget.runId,
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

  const lease = new RunLease(state, deps.clock, budget.runId, budget.leaseTtlMs);
  if (!(await lease.acquire())) {
    telemetry.log('warn', 'another run holds the lease; this run exits without doing anything', { runId: budget.runId });
    return finish(summary, 'lease-held', deps, startedAt);
  }
  try {
    const published: Alert[] = [];
    // The tip is asked for while the statuses are checked: independent requests, so one round trip for
    // both. Status alerts still go out before any block's; a failed tip is seen where it is awaited.
    const tipRequest = deps.chain.getTip();
    tipRequest.catch(() => {});
    // A digest a crashed run owed goes first, so that this run's own tally starts afresh; a tally an earlier
    // poll of this invocation left is this run's own, and goes on.
    // Read once: under the lease only this run moves the cursor.
    let cursor = await state.readCursor();
    const polls = budget.smsPolls;
    const owed = budget.smsPerRun === undefined ? undefined : cursor?.smsDigest;
    const carried = owed && polls?.continueTally ? owed : undefined;
    if (owed && !carried) {
      const flushed = await sendSmsDigest(owed, cursor, config.network, deps, budget.alertStaleAfterMs);
      cursor = flushed.cursor;
      published.push(...flushed.sent);
    }
    const rules = compileWatchRules(config);
    const sms =
      budget.smsPerRun === undefined
        ? undefined
        : new SmsBudget(polls ? polls.textsLeft : budget.smsPerRun, {
            countedThrough: owed?.throughHeight ?? null,
            ...(carried ? { carried } : {}),
          });
    const statuses = await checkContractStatuses(deps, config, budget, rules.contracts.meta, sms);
    if (polls && sms) polls.textsLeft = sms.textsLeft();
    summary.contractsChecked = statuses.checked;
    published.push(...statuses.alerts);
    // Polling cycles inside one invocation skip the status check (contracts: []); only a real check reports.
    if (config.contracts.length > 0) telemetry.metric('ContractsWatched', config.contracts.length);

    const tip = await tipRequest;
    if (!tip) {
      telemetry.log('warn', 'the API has no chain tip yet (still syncing); no block scanned');
      countAlerts(summary, published);
      return finish(summary, 'api-not-synced', deps, startedAt);
    }
    summary.tip = { height: tip.height, hash: tip.hash };
    const lastHeight = tip.height - config.confirmations;
    const firstHeight = config.startHeight === 'latest' ? lastHeight : config.startHeight;
    // Far behind the tip, alerts are old news by the time they are found: the digest, not a text each.
    if (sms && lastHeight - (cursor ? cursor.height + 1 : firstHeight) + 1 > CATCH_UP_BLOCKS) sms.catchUp();
    if (!cursor && firstHeight > lastHeight) {
      // Not an error (the chain may be about to get there), but silence here looks like a watcher that works.
      telemetry.log(
        'warn',
        `startHeight ${firstHeight} is above the chain tip ${tip.height}` +
          (config.confirmations > 0 ? ` less ${config.confirmations} confirmations` : '') +
          `: nothing to scan yet; each run checks again and starts there once the chain reaches it`,
      );
    }
    const scanner = new BlockScanner(
      deps,
      {
        network: config.network,
        rules,
        firstHeight,
        lastHeight,
        tip: summary.tip,
        maxBlocks: config.maxBlocksPerRun,
        ...(sms ? { sms } : {}),
      },
      budget,
      cursor,
      lease,
    );
    const scan = await scanner.run();
    Object.assign(summary, { blocksScanned: scan.blocksScanned, reorgs: scan.reorgs });
    published.push(...scan.published);
    let finalCursor = scan.cursor;
    if (polls && sms) polls.textsLeft = sms.textsLeft();
    const held = sms?.held();
    // Not when another run moved the cursor: the tally it carries is that run's to send. Nor when another
    // poll of this invocation follows: the tally stays with the cursor, and the last poll sends it.
    if (held && scan.stoppedBecause !== 'cursor-conflict' && !polls?.deferDigest) {
      const digest = await sendSmsDigest(held, finalCursor, config.network, deps, budget.alertStaleAfterMs);
      finalCursor = digest.cursor;
      published.push(...digest.sent);
    }
    if (finalCursor) {
      summary.cursor = { height: finalCursor.height, hash: finalCursor.hash };
      summary.lagBlocks = Math.max(0, tip.height - finalCursor.height);
      summary.lagSeconds = Math.max(0, Math.round(deps.clock.now() / 1000 - finalCursor.time));
    }
    countAlerts(summary, published);
    return finish(summary, scan.stoppedBecause, deps, startedAt);
  } finally {
    await reportApiDeprecations(deps, budget.runId, budget.alertStaleAfterMs);
    await lease.release();
  }
}

/**
 * A status alert claimed by a run that may still be publishing it (a run killed at its timeout leaves such
 * claims) is left to a later run, which finds the change again since nothing about it was stored: the
 * block scan does not depend on it and goes on, rather than the whole cycle failing.
 */
async function checkContractStatuses(
  deps: CycleDeps,
  config: WatchConfig,
  budget: CycleBudget,
  contractsMeta: RuleMeta,
  sms: SmsBudget | undefined,
) {
  try {
    const contracts = contractsThisCycle(config.contracts, budget.statusSweep, deps.clock.now());
    return await watchContractStatuses(contracts, config.network, deps.chain, deps, budget.alertStaleAfterMs, contractsMeta, sms);
  } catch (error) {
    if (!(error instanceof AlertInFlightError)) throw error;
    deps.telemetry.log('warn', `${error.message}; contract statuses are checked again next run`, { runId: budget.runId });
    return { checked: 0, alerts: [] };
  }
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
