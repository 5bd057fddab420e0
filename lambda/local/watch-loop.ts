// The local runner's watch loop: a cycle, then a pause of the interval (none while behind the tip), through
// outages, until Ctrl-C; the first cycle failing is a setup problem and stops the runner.
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { runCycle } from '../core/cycle';
import { withDigests, type SmsBudget } from '../core/deliver/sms-budget';
import { LEASE_TTL_MS } from './local-deps';
import type { CycleDeps, CycleSummary } from '../core/cycle-types';
import type { StatusSweep } from '../core/match/contract-status-sweep';
import type { BalanceReadAllowance } from '../core/stages/balance-reads';
import type { Telemetry } from '../core/ports';
import type { FetchWay } from '../core/follow/fetch-choice';
import { runnerMemory, type RunnerMemory } from '../core/runner-memory';
import type { WatchConfig } from '../core/watch-config/watch-config-schema';
import { balanceReadAllowance, contractStatusSweep, HiroNetworkError } from '../hiro';
import type { ApiSettings } from '../runtime/api-env';
import type { CliOptions } from './args';
import { unreachableMessage } from './api-check';
import { cycleLine } from './describe';
import { OutageTracker } from './outage';
import { clearProgress, endProgress, EXIT, showProgress, startProgress } from './terminal';

/** A local cycle stops at a block boundary after this long, so the cursor is saved at least this often. */
const CYCLE_BUDGET_MS = 50 * 60_000;

export async function runLoop(
  deps: CycleDeps & { smsBudget?: SmsBudget },
  config: WatchConfig,
  options: CliOptions,
  telemetry: Telemetry,
  api: ApiSettings,
): Promise<number> {
  // One cycle checks every contract; a runner that keeps going sweeps a long list a slice per interval.
  const statusSweep = options.once ? undefined : contractStatusSweep(api.requestsPerMinute, options.intervalSeconds * 1000);
  // What the runner learns across its cycles (core/runner-memory.ts): the day's deprecation notices seen sent, the
  // per-subject routes found missing, how busy its runs found the subjects and blocks. Its one client keeps the rest.
  const learned = runnerMemory();
  // Aborted on Ctrl-C: the block in hand is finished and saved, the reads ahead of it are dropped at once.
  const stop = new AbortController();
  let wake: (() => void) | undefined;
  process.on('SIGINT', () => {
    if (stop.signal.aborted) process.exit(130);
    telemetry.log('info', 'stopping after the current block (Ctrl-C again to quit at once)');
    stop.abort(new Error('stop requested'));
    wake?.();
  });
  process.on('SIGTERM', () => {
    stop.abort(new Error('stop requested'));
    wake?.();
  });

  const outage = new OutageTracker(options.intervalSeconds * 1000, (level, message) => telemetry.log(level, message));
  let worked = false;
  for (;;) {
    let pauseMs = options.intervalSeconds * 1000;
    try {
      // A runner that keeps going reads its share of balances a cycle; `--once` reads every one due.
      const balanceReads = options.once ? undefined : balanceReadAllowance(api.requestsPerMinute, options.intervalSeconds * 1000);
      const summary = await oneCycle(deps, config, stop.signal, { statusSweep, balanceReads, fetchWay: options.fetchWay, learned });
      worked = true;
      outage.succeeded();
      const line = cycleLine(summary);
      if (line) telemetry.log('info', line);
      // Behind the tip with budget left: go on at once rather than waiting a whole interval.
      if (summary.stoppedBecause === 'max-blocks' || summary.stoppedBecause === 'time-budget') pauseMs = 0;
    } catch (error) {
      const failure = error as Error;
      // A first cycle that fails is a setup problem more often than an outage: say so and stop.
      if (options.once || !worked) {
        const message = failure instanceof HiroNetworkError ? unreachableMessage(api.baseUrl, failure) : `cycle failed: ${failure.message}`;
        clearProgress();
        process.stderr.write(`${message}\n`);
        return EXIT.failure;
      }
      pauseMs = outage.failed(failure);
    }
    if (options.once || stop.signal.aborted) return EXIT.ok;
    if (pauseMs > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, pauseMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    if (stop.signal.aborted) return EXIT.ok;
  }
}

async function oneCycle(
  deps: CycleDeps & { smsBudget?: SmsBudget },
  config: WatchConfig,
  stop: AbortSignal,
  shares: {
    statusSweep: StatusSweep | undefined;
    balanceReads: BalanceReadAllowance | undefined;
    fetchWay: FetchWay | undefined;
    learned: RunnerMemory;
  },
): Promise<CycleSummary> {
  const { statusSweep, balanceReads, fetchWay, learned } = shares;
  startProgress();
  try {
    const owed = (await deps.smsBudget?.start()) ?? [];
    const summary = await runCycle(deps, config, {
      runId: `cli:${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`,
      deadlineMs: deps.clock.now() + CYCLE_BUDGET_MS,
      leaseTtlMs: LEASE_TTL_MS,
      alertStaleAfterMs: LEASE_TTL_MS,
      stop,
      ...(statusSweep ? { statusSweep } : {}),
      ...(balanceReads ? { balanceReads } : {}),
      ...(fetchWay ? { fetchWay } : {}),
      ...learned,
      onBlockDone: showProgress,
    });
    return withDigests(summary, [...owed, ...((await deps.smsBudget?.flush()) ?? [])], deps.telemetry);
  } finally {
    endProgress();
  }
}
