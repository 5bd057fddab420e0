// Trying rules on past blocks: the block rules (transfers, logs, calls) evaluated on a range of canonical
// blocks, exactly as a watch cycle would, but with no state read or written and nothing published: the
// caller prints what would have alerted. Contract statuses are not block rules and are left out.
import { blockAlerts, transactionsNeedingEvents } from './block-alerts';
import type { Block, ChainAlert, TxEvents, WatchConfig } from './domain';
import type { ChainApi } from './ports';
import { compileWatchRules } from './watch-rules';

/**
 * Blocks read before their events are fetched together, so that the client fills its batched events calls
 * about as well as the watcher's read-ahead does: 1.39 requests a block over the benchmark's chain
 * (`npm run bench`, table 1), as the watcher; with 10 blocks it was 1.47.
 */
export const REPLAY_BATCH_BLOCKS = 50;

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
  /** The alerts of one block, in chain order, as soon as the block is evaluated. */
  onAlerts(alerts: ChainAlert[]): Promise<void>;
  onBlockDone?(progress: { height: number; done: number; total: number }): void;
}

/**
 * Evaluates `config`'s block rules on every block of `range` in ascending order. Throws ReplayRangeError
 * when the range goes past the chain tip (checked before any block is read).
 */
export async function replayBlocks(chain: ChainApi, config: WatchConfig, range: ReplayRange, hooks: ReplayHooks): Promise<{ blocks: number; alerts: number }> {
  const tip = await chain.getTip();
  if (tip === null) throw new ReplayRangeError('the API has no chain tip yet; try again once it has synced');
  if (range.to > tip.height) {
    throw new ReplayRangeError(`block ${range.to} is above the chain tip (${tip.height}); end the range at ${tip.height} or below`);
  }
  const rules = compileWatchRules(config);
  const total = range.to - range.from + 1;
  let done = 0;
  let alertCount = 0;
  for (let start = range.from; start <= range.to; start += REPLAY_BATCH_BLOCKS) {
    const heights = Array.from({ length: Math.min(REPLAY_BATCH_BLOCKS, range.to - start + 1) }, (_, i) => start + i);
    const blocks: Block[] = [];
    for (const height of heights) {
      const block = await chain.getBlock(height);
      if (block === null) throw new ReplayRangeError(`the API knows no block at height ${height}`);
      blocks.push(block);
    }
    const needed = blocks.flatMap((block) => transactionsNeedingEvents(block, rules));
    const events: ReadonlyMap<string, TxEvents> =
      needed.length === 0 ? new Map() : await chain.getTransactionEvents(needed.map((tx) => ({ txId: tx.txId, eventCount: tx.eventCount })));
    for (const block of blocks) {
      const alerts = blockAlerts(block, events, rules, config.network);
      alertCount += alerts.length;
      if (alerts.length > 0) await hooks.onAlerts(alerts);
      done += 1;
      hooks.onBlockDone?.({ height: block.header.height, done, total });
    }
  }
  return { blocks: done, alerts: alertCount };
}
