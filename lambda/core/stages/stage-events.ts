// The events the stages read: each registered stage says, under the run's rules, which transactions' events
// it needs (a balance moves with any successful call's events). The scan reads them with those the matchers
// need (match/block-alerts.ts) and the fetch plan counts them (follow/fetch-plan.ts): one place plans event reads.
import type { Transaction } from '../domain';
import type { WatchRules } from '../rules/rule-lists';
import type { AnyBlockStage } from './block-stage';
import { BLOCK_STAGES } from './registry';

/** The stages' wants under `rules`: a transaction's events are read when any of them takes it. */
export function stageEventWants(rules: WatchRules, stages: readonly AnyBlockStage[] = BLOCK_STAGES): ((tx: Transaction) => boolean)[] {
  return stages.flatMap((stage) => stage.eventsWanted?.(rules) ?? []);
}
