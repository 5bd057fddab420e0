// `--check`'s words for the fetch plan (core/follow/fetch-plan.ts): how a cycle would read the chain at mainnet's
// pace, today and once Hiro's deprecated routes answer 410, with each estimate and the reason.
import { chooseFetchPlan, type FetchPlan } from '../core/follow/fetch-plan';
import { compileWatchRules } from '../core/rules/rule-lists';
import type { WatchConfig } from '../core/watch-config/watch-config-schema';
import type { FetchWay } from '../core/follow/fetch-choice';

/** Blocks mainnet makes a minute (Nakamoto, 2026): the blocks a cycle covers once caught up. */
export const MAINNET_BLOCKS_PER_MINUTE = 7;

function way(plan: FetchPlan): string {
  return plan.way === 'per-subject' ? 'per subject' : 'the block scan';
}

/** Blocks a caught-up cycle of `cycleSeconds` covers at mainnet's pace. */
function blocksPerCycle(cycleSeconds: number): number {
  return Math.max(1, Math.round((MAINNET_BLOCKS_PER_MINUTE * cycleSeconds) / 60));
}

/** Three lines: the plan for a caught-up cycle of `cycleSeconds` within `requestsPerMinute`, both ways the API may answer. */
export function fetchPlanWords(config: WatchConfig, requestsPerMinute: number, cycleSeconds: number, fetchWay?: FetchWay): string {
  const blocks = blocksPerCycle(cycleSeconds);
  return planLines(config, blocks, Math.floor((requestsPerMinute * cycleSeconds) / 60), `about ${blocks} blocks a cycle at mainnet's pace`, fetchWay);
}

/**
 * `--status`: the plan for the blocks the next run covers (from the cursor to the tip, at most a run's), or
 * for a cycle at mainnet's pace when the state is at the tip.
 */
export function statusPlanWords(config: WatchConfig, cursorHeight: number | null, tipHeight: number, fetchWay?: FetchWay): string {
  const behind = cursorHeight === null ? 0 : tipHeight - config.confirmations - cursorHeight;
  if (behind <= 0)
    return planLines(config, blocksPerCycle(60), Number.POSITIVE_INFINITY, `about ${blocksPerCycle(60)} blocks a cycle at mainnet's pace`, fetchWay);
  const blocks = Math.min(behind, config.maxBlocksPerRun);
  // The next run walks the header chain and the feeds down from the tip to its first block.
  const walk = behind + config.confirmations;
  return planLines(config, blocks, Number.POSITIVE_INFINITY, `the ${blocks === 1 ? 'block' : `${blocks} blocks`} the next run covers`, fetchWay, walk);
}

/** The line saying which way the runner was set to read (FETCH_WAY), and so what of the plan above it follows. */
function chosenWayLine(fetchWay: FetchWay): string {
  if (fetchWay === 'auto') return '    this runner reads as the plan says (FETCH_WAY=auto, the default)';
  if (fetchWay === 'block-scan') return '    this runner reads by the block scan (FETCH_WAY=block-scan)';
  // A rule bound to no subject keeps the block scan even so (fetch-choice.ts); the plan's reason above names it.
  return '    this runner reads per subject wherever the rules allow (FETCH_WAY=per-subject)';
}

function planLines(config: WatchConfig, blocks: number, budget: number, heading: string, fetchWay?: FetchWay, walk = blocks): string {
  const rules = compileWatchRules(config);
  const today = chooseFetchPlan({ rules, blocks, walk, budget, retired: false });
  const retired = chooseFetchPlan({ rules, blocks, walk, budget, retired: true });
  return [
    `- reading the chain, ${heading}:`,
    `    while Hiro's deprecated routes answer: ${way(today)} (${today.reason})`,
    `    once they answer 410: ${way(retired)} (${retired.reason})`,
    ...(fetchWay ? [chosenWayLine(fetchWay)] : []),
    // What a run does on an API without a per-subject route (core/follow/subject-fallback.ts).
    ...(fetchWay && fetchWay !== 'block-scan'
      ? ['    a per-subject route the API answers 404 to (an older API) sends the runner to the block scan from that block; it is asked again once an hour']
      : []),
  ].join('\n');
}
