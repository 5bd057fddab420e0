// Trying rules on past blocks: the block rules (transfers, logs, calls) evaluated on a range of canonical
// blocks, exactly as a watch cycle would, but with no state read or written and nothing published: the
// caller prints what would have alerted. Contract statuses are not block rules and are left out.
import { blockAlerts } from './block-alerts';
import type { Alert } from './alert-kinds/alert';
import { cooldownSummaryOf } from './alert-kinds/cooldown-summary';
import { quietBlock, rulePolicies } from './rule-quiet';
import type { QuietState } from './quiet-state';
import { readDueBalances } from './balance-reads';
import type { WatchConfig } from './watch-config/watch-config-schema';
import { silentTelemetry, type ChainApi, type Clock } from './ports';
import { BlockReadAhead } from './read-ahead';
import { compileWatchRules } from './alert-kinds/rule-lists';
import { advanceWindows } from './window-stage';
import type { WindowStates } from './window-state';

export interface ReplayRange {
  from: number;
  to: number;
}

export class ReplayRangeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReplayRangeError';
  }
}

export interface ReplayHooks {
  /**
   * The alerts of one block, in chain order, as soon as the block is evaluated: after rules' cooldowns and
   * mutes (rule-quiet.ts, on block time as in a watch), with the summaries of the cooldowns the block ends.
   */
  onAlerts(alerts: Alert[]): Promise<void>;
  onBlockDone?(progress: { height: number; done: number; total: number }): void;
}

/**
 * Evaluates `config`'s block rules on every block of `range` in ascending order. Throws ReplayRangeError
 * when the range goes past the chain tip (checked before any block is read). Blocks and their events are
 * read as the watcher reads them (read-ahead.ts: batches of blocks, their events in shared calls), so a
 * replay costs the requests a watch of the same blocks would.
 */
export async function replayBlocks(
  chain: ChainApi,
  config: WatchConfig,
  range: ReplayRange,
  hooks: ReplayHooks,
  clock: Clock,
): Promise<{ blocks: number; alerts: number; quieted: number }> {
  const tip = await chain.getTip();
  if (tip === null) throw new ReplayRangeError('the API has no chain tip yet; try again once it has synced');
  if (range.to > tip.height) {
    throw new ReplayRangeError(`block ${range.to} is above the chain tip (${tip.height}); end the range at ${tip.height} or below`);
  }
  const rules = compileWatchRules(config);
  const readAhead = new BlockReadAhead(chain, { rules }, clock);
  const total = range.to - range.from + 1;
  const policies = rulePolicies(rules);
  let quiet: QuietState | undefined;
  let alertCount = 0;
  // Windows start empty at the first block, as a watch starting there would (block time: the same answers).
  let windows: WindowStates | undefined;
  let quietedCount = 0;
  for (let height = range.from; height <= range.to; height += 1) {
    const read = await readAhead.take(height, { lastHeight: range.to, blocksLeft: range.to - height + 1, deadlineMs: Number.POSITIVE_INFINITY });
    if (read === null) throw new ReplayRangeError(`the API knows no block at height ${height}`);
    // A fresh tracker: each balance rule reads its balance at the block before the range, then follows the blocks.
    await readDueBalances(rules.balances.tracker, read.block, { chain, telemetry: silentTelemetry });
    const found = blockAlerts(read.block, read.events, rules, config.network);
    const outcome = advanceWindows(rules.windows, windows, read.block.header, found, config.network);
    windows = outcome.states;
    const decided = quietBlock(quiet, read.block.header, [...outcome.sent, ...outcome.alerts], policies);
    quiet = decided.state;
    quietedCount += decided.quieted.length;
    const alerts = [...decided.ended.map((ended) => cooldownSummaryOf(ended, config.network)), ...decided.send];
    alertCount += alerts.length;
    if (alerts.length > 0) await hooks.onAlerts(alerts);
    hooks.onBlockDone?.({ height, done: height - range.from + 1, total });
  }
  return { blocks: total, alerts: alertCount, quieted: quietedCount };
}
