// `--check`'s words for the fetch plan (core/follow/fetch-plan.ts): how a cycle would read the chain at mainnet's
// pace, today and once Hiro's deprecated routes answer 410, with each estimate and the reason.
import { chooseFetchPlan, type FetchPlan } from '../core/follow/fetch-plan';
import { compileWatchRules } from '../core/rules/rule-lists';
import type { WatchConfig } from '../core/watch-config/watch-config-schema';

/** Blocks mainnet makes a minute (Nakamoto, 2026): the blocks a cycle covers once caught up. */
export const MAINNET_BLOCKS_PER_MINUTE = 7;

function way(plan: FetchPlan): string {
  return plan.way === 'per-subject' ? 'per subject' : 'the block scan';
}

/** Three lines: the plan for a caught-up cycle of `cycleSeconds` within `requestsPerMinute`, both ways the API may answer. */
export function fetchPlanWords(config: WatchConfig, requestsPerMinute: number, cycleSeconds: number): string {
  const rules = compileWatchRules(config);
  const blocks = Math.max(1, Math.round((MAINNET_BLOCKS_PER_MINUTE * cycleSeconds) / 60));
  const budget = Math.floor((requestsPerMinute * cycleSeconds) / 60);
  const today = chooseFetchPlan({ rules, blocks, budget, retired: false });
  const retired = chooseFetchPlan({ rules, blocks, budget, retired: true });
  return [
    `- reading the chain, about ${blocks} blocks a cycle at mainnet's pace:`,
    `    while Hiro's deprecated routes answer: ${way(today)} (${today.reason})`,
    `    once they answer 410: ${way(retired)} (${retired.reason})`,
  ].join('\n');
}
