// Trying rules on past blocks: the block rules (transfers, logs, calls) evaluated on a range of canonical
// blocks, exactly as a watch cycle would, but with no state read or written and nothing published: the
// caller prints what would have alerted. Contract statuses are not block rules and are left out.
import { blockMatches } from '../match/block-alerts';
import type { Alert } from '../alert-kinds/alert';
import type { WatchConfig } from '../watch-config/watch-config-schema';
import { silentTelemetry, type ChainApi, type Clock } from '../ports';
import { BlockReadAhead } from '../follow/read-ahead';
import { compileWatchRules } from '../rules/rule-lists';
import { OpenStages } from '../stages/open-stages';
import type { StageStates } from '../stages/stage-states';

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
   * mutes (cooldowns-and-mutes.ts, on block time as in a watch), with the summaries of the cooldowns the block ends.
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
): Promise<{ blocks: number; alerts: number; heldOrMuted: number }> {
  const tip = await chain.getTip();
  if (tip === null) throw new ReplayRangeError('the API has no chain tip yet; try again once it has synced');
  if (range.to > tip.height) {
    throw new ReplayRangeError(`block ${range.to} is above the chain tip (${tip.height}); end the range at ${tip.height} or below`);
  }
  const rules = compileWatchRules(config);
  const readAhead = new BlockReadAhead(chain, { rules }, clock);
  const total = range.to - range.from + 1;
  // The stages as a watch runs them, from nothing at the first block (as a watch starting there would; block
  // time: the same answers). A fresh balance book: each rule reads its balance at the block before the range.
  const stages = OpenStages.open({ deps: { chain, clock, telemetry: silentTelemetry }, rules, network: config.network, replay: true });
  let states: StageStates = {};
  let alertCount = 0;
  let heldOrMutedCount = 0;
  for (let height = range.from; height <= range.to; height += 1) {
    const read = await readAhead.take(height, { lastHeight: range.to, blocksLeft: range.to - height + 1, deadlineMs: Number.POSITIVE_INFINITY });
    if (read === null) throw new ReplayRangeError(`the API knows no block at height ${height}`);
    const matched = blockMatches(read.block, read.events, rules, config.network);
    const staged = await stages.apply({ block: read.block, events: read.events, network: config.network }, matched, states);
    states = staged.states;
    heldOrMutedCount += staged.unsent;
    alertCount += staged.send.length;
    if (staged.send.length > 0) await hooks.onAlerts(staged.send);
    hooks.onBlockDone?.({ height, done: height - range.from + 1, total });
  }
  return { blocks: total, alerts: alertCount, heldOrMuted: heldOrMutedCount };
}
